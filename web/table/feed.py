"""The sensing thread's half of a table: the sensors read, and what they saw sent on in order.

The feed runs on the sensing thread (:attr:`Feed.thread`) and owns everything that reads the
board: the source, the pipeline with its health monitor, the simulated board and the pause
switch. It decides nothing about the match. Each polling step (:meth:`Feed.poll`) turns what
the sensors did into :data:`Input` values, in the order it happened, and hands them to the
table's one owner (``web.table.watch``), which judges them one at a time on its own thread.
The feed also builds what the pages are shown about the sensors, so a disk that holds up the
owner never stops readings being taken and shown.

The only thing the owner tells the feed is the match it expects (:meth:`Feed.expect`): the
health monitor judges stuck cells by it, and the virtual board lands a skitt by it. That
value is immutable and handed over on the sensing thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from firmware_bridge.simulator import SimulatedBoard
from scorekeeper.clock import Clock
from scorekeeper.expectation import Expectation
from scorekeeper.reading import BoardReading
from web.table.sensing import Sensing, no_source_view
from web.table.virtual_board import land_skitt

QUEUE_LIMIT = 100
"""Readings the owner may have waiting (a stalled disk holds it up); one more sends the
board to the referee instead of judging readings a long way behind."""


@dataclass(frozen=True)
class Landed:
    """A settled reading: the board at rest after a change."""

    reading: BoardReading
    timeline: Mapping[str, Any] | None
    """The sensor timeline that ended in the reading, stored with its shot."""
    moved: float | None
    """The sensor time its movement began (``Pipeline.last_moved_at``)."""


@dataclass(frozen=True)
class Moving:
    """The board started moving at ``since`` (sensor time), or came to rest (None)."""

    since: float | None


@dataclass(frozen=True)
class LinkChanged:
    """The sensor link went down, or came back (readings from before the gap are not sent)."""

    up: bool


@dataclass(frozen=True)
class Paused:
    """The referee (or the self-test) paused sensing, or resumed it."""

    paused: bool


@dataclass(frozen=True)
class Overflowed:
    """More readings waited than the owner may have waiting: the ones in between were
    dropped, and the board goes to the referee."""


Input = Landed | Moving | LinkChanged | Paused | Overflowed


class Feed:
    """The sensors of one table, read on the sensing thread."""

    def __init__(self, sensing: Sensing | None, clock: Clock, *, source_name: str) -> None:
        self.sensing = sensing
        self.clock = clock
        self.source_name = source_name
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="skitter-sensing",
                                         initializer=self._mark)
        """Where the polling steps, the virtual board's taps and the pause switch run."""
        self._here = threading.local()
        self._pending: list[Input] = []
        """Inputs made by an act on the sensing thread (the pause switch), sent first by
        the next polling step."""
        self.paused = False
        self._link_up: bool | None = None
        self._moving: float | None = None
        self._expected = Expectation(board={}, turn=None, playing=False)
        self._key: tuple[Any, ...] | None = None
        self._shown: dict[str, Any] = no_source_view()
        self.sent = 0
        """Readings sent to the owner (written here only)."""
        self.taken = 0
        """Readings the owner has taken (written by the owner only)."""
        self.overflow = threading.Event()
        """Set here when readings were dropped; cleared by the owner once it has told the
        referee (:class:`Overflowed`)."""
        self.view()  # what is shown before the first polling step

    # -- what the owner tells the feed (on the sensing thread) ---------------------------------

    def expect(self, expected: Expectation, *, lay_out: bool = False) -> None:
        """The match the owner now expects (its health is judged by it); ``lay_out``: put
        the simulated board there too (a new or resumed match)."""
        self._expected = expected
        if self.sensing is None:
            return
        if lay_out and self.sensing.simulator is not None:
            self.sensing.lay_out(expected.board, expected.big)
        self.sensing.set_expected(expected.board)

    def restore(self) -> None:
        """The referee has the board put back as the match expects it."""
        if self.sensing is not None:
            self.sensing.set_expected(self._expected.board)

    # -- the polling step ----------------------------------------------------------------------

    def poll(self) -> tuple[list[Input], dict[str, Any] | None]:
        """One polling step: what the sensors did since the last, in order, for the owner,
        and the sensor view when it changed (else None)."""
        sensing = self.sensing
        if sensing is None:
            out, self._pending = self._pending, []
            return out, None
        # Poll first, then read the link: a link that went down or came back during this
        # poll is seen before any of its readings. Readings of the poll in which the link
        # came back were taken before the gap ended and are never sent.
        readings = sensing.poll()
        link = sensing.link()
        out, self._pending = self._pending, []
        if link.up != self._link_up:
            if link.up:
                sensing.resync()
                readings = []
            out.append(LinkChanged(link.up))
            self._link_up = link.up
        pipeline = sensing.pipeline
        for reading in readings:
            moved = pipeline.last_moved_at if pipeline.last_reading is reading else None
            timeline = pipeline.last_timeline if pipeline.last_reading is reading else None
            out.append(Landed(reading, None if timeline is None else timeline.to_json(),
                              moved))
        moving = pipeline.moving_since()
        if moving != self._moving:
            self._moving = moving
            out.append(Moving(moving))
        out = self._bounded(out)
        key = sensing.change_key(link)
        if key == self._key:
            return out, None
        self._key = key
        view = sensing.view(link)
        if view == self._shown:
            return out, None
        self._shown = view
        return out, view

    def _bounded(self, inputs: list[Input]) -> list[Input]:
        """Readings beyond :data:`QUEUE_LIMIT` waiting for the owner are dropped: judging only
        later ones could merge two shots into one, so the board goes to the referee (as
        after a gap in sensing) once the owner is free."""
        kept: list[Input] = []
        for item in inputs:
            if isinstance(item, Landed):
                if self.overflow.is_set():
                    continue
                if self.sent - self.taken >= QUEUE_LIMIT:
                    self.overflow.set()
                    kept.append(Overflowed())
                    continue
                self.sent += 1
            kept.append(item)
        return kept

    def seconds_to_rest(self) -> float | None:
        """Seconds until the board will be at rest after its last change, if that is ahead:
        the polling loop sleeps no longer, so a settled reading is taken the moment it is
        due rather than at the next regular step."""
        if self.sensing is None:
            return None
        at = self.sensing.rest_deadline()
        if at is None:
            return None
        left = at - self.clock.now()
        return left if left > 0 else None

    # -- the referee and the virtual board -----------------------------------------------------

    def set_paused(self, paused: bool) -> None:
        """Pause or resume sensing; the owner hears of it first thing in the next polling
        step (a board changed meanwhile goes to the referee)."""
        self.paused = paused
        if not paused and self.sensing is not None:
            self.sensing.resync()
        self._pending.append(Paused(paused))

    def mute(self, cell: int, muted: bool) -> None:
        """Mute or unmute a cell (``ValueError`` for one the profile lacks)."""
        self.require_sensing().mute(cell, muted)

    def on_simulator(self, action: Callable[[SimulatedBoard], None]) -> None:
        """A tap on the virtual board (the next polling step sees it)."""
        action(self.require_sensing().require_simulator())

    def place_skitt(self, field_name: str) -> None:
        """A skitt of the shot lands on ``field_name`` of the virtual board."""
        expected = self._expected
        self.on_simulator(lambda sim: land_skitt(sim, field_name, expected))

    def lay_out(self) -> None:
        """Put the simulated board where the match expects it (virtual board only): every
        skitt, also those beyond what a field's cells can count."""
        sensing = self.require_sensing()
        sensing.require_simulator()
        sensing.lay_out(self._expected.board, self._expected.big)

    def require_sensing(self) -> Sensing:
        if self.sensing is None:
            raise LookupError("no sensor source")
        return self.sensing

    def board_json(self) -> dict[str, Any]:
        """The profile and the simulated board, for the virtual board page."""
        if self.sensing is None:
            return {"profile": None, "virtual": None}
        return {"profile": self.sensing.profile_json(),
                "virtual": self.sensing.simulated_json()}

    def view(self) -> dict[str, Any]:
        """The sensor view as it is now (sensing thread), kept as the one last shown."""
        if self.sensing is not None:
            link = self.sensing.link()
            self._key = self.sensing.change_key(link)
            self._shown = self.sensing.view(link)
        return self._shown

    def shown(self) -> dict[str, Any]:
        """The sensor view last built (any thread: an immutable value once built)."""
        return self._shown

    def _mark(self) -> None:
        self._here.on = True

    def on_thread(self) -> bool:
        """Whether the caller runs on the sensing thread."""
        return bool(getattr(self._here, "on", False))

    def close(self) -> None:
        """Stop the sensing thread (after what it was given), then release the sensors."""
        self.thread.shutdown(wait=True)
        if self.sensing is not None:
            self.sensing.close()

