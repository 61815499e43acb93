"""A table on the virtual board driven by hand on a fake clock, for the ordering tests.

Every input is given at a time the test chooses: a skitt landing, a referee's step, polling
steps of 20 ms. Nothing runs beside the test but the table's writer, and :meth:`OrderRig.run`
waits for every shot it hands there, so the outcome depends on the order of the inputs only.
"""

from __future__ import annotations

import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeper.clock import FakeClock
from scorekeeper.words import refusal
from web.table.errors import Refused
from web.table.table import Table
from web.table.wiring import open_table

NAMES = {"black": "Ann", "white": "Bo"}
CENTER = {"black": "center", "white": "center"}
STEP_S = 0.02


@dataclass
class OrderRig:
    """A table with Ann (black, due first) and Bo, both big skitts on their spots."""

    table: Table
    clock: FakeClock
    refusals: list[str] = field(default_factory=list)
    _gate: threading.Event = field(default_factory=threading.Event)

    @classmethod
    def open(cls, path: Path | None = None, *, big_in_hand: bool = False) -> OrderRig:
        """On a match log in ``path``, or in memory (the fast lane's many runs);
        ``big_in_hand``: the big skitts are still to be shot (Ann's first)."""
        clock = FakeClock(1000.0)
        db = ":memory:" if path is None else path / "skitter.db"
        table = open_table(db, "sim", clock=clock, wall=clock)
        rig = cls(table, clock)
        table.new_match({}, {"first": "black"} if big_in_hand else
                        {"first": "black", "big": CENTER}, NAMES, {})
        rig.run(1.0)
        assert table.tracker.mode == "ready", table.tracker.status()
        return rig

    def run(self, seconds: float, step: float = STEP_S) -> None:
        """Polling steps of ``step`` for ``seconds``, every shot stored before the next."""
        for _ in range(round(seconds / step)):
            self.clock.advance(step)
            self.table.tick()

    def wait_out(self) -> None:
        """Long enough for a cell left in conflict to be called stuck (the monitor's
        restore timeout is 10 s), in steps of a quarter second."""
        self.run(12.0, step=0.25)

    def land(self, field_name: str) -> None:
        """A skitt of the shot lands on ``field_name`` (the virtual board's tap)."""
        self.table.place_skitt(field_name)

    def turn_ended(self) -> None:
        """The referee taps "turn ended, no change" (refusals are kept in players' words,
        not raised)."""
        try:
            self.table.no_change()
        except Refused as exc:
            self.refusals.append(refusal(exc.why, self.table.names))

    def shots(self) -> list[dict[str, Any]]:
        """The standing shots of the log, as stored."""
        log = self.table.log
        return [e.event.to_json()["shot"] for i, e in enumerate(log.entries)
                if "shot" in e.event.to_json() and not log.undone(i)]

    def flags(self) -> list[dict[str, Any]]:
        return list(self.table.snapshot()["sensors"]["flags"])

    def close(self) -> None:
        self.table.close()

    def sensed_waiting_for_the_writer(self, field_name: str) -> Future[None]:
        """A skitt lands on ``field_name`` and the board comes to rest while the owner is
        busy (a commit before it): the landing waits to be judged, and a person's step sent
        now (:meth:`turn_ended_while_busy`) reaches the owner after it. Returns the owner's
        job for the landing; the owner goes on once the test calls :meth:`free_the_writer`."""
        self._gate = threading.Event()
        self.table.writer.submit(self._gate.wait)
        feed = self.table.feed
        feed.thread.submit(feed.place_skitt, field_name).result(timeout=10)
        sent = feed.sent
        for _ in range(round(2.0 / STEP_S)):
            self.clock.advance(STEP_S)
            jobs = feed.thread.submit(self.table.poll).result(timeout=10)
            if feed.sent > sent:
                return jobs[-1]
        raise AssertionError("the landing was never sent to the owner")

    def turn_ended_while_busy(self, pressed_at: float | None = None) -> Future[None]:
        """The referee's "turn ended" reaches the busy owner (after what waits there)."""
        at = self.clock.now() if pressed_at is None else pressed_at
        return self.table.writer.submit(self.table.no_change, pressed_at=at)

    def free_the_writer(self, *jobs: Future[None]) -> None:
        """The owner goes on; each job's refusal is kept in players' words."""
        self._gate.set()
        for job in jobs:
            try:
                job.result(timeout=10)
            except Refused as exc:
                self.refusals.append(refusal(exc.why, self.table.names))
