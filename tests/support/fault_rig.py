"""A scoring rig for the fault tests: source → pipeline → tracker → match on a FakeClock.

It wires the layers as the web table does (link down pauses the tracker, a sensed shot is
applied and the tracker synced, the pipeline told what the match expects), without the web
app, so a test can put any source under it. A pair of :class:`Hands` plays the physical
part: it puts magnets on cells for each shot and, like a person at the table, lays the board
out again when the match says it must differ (a clearing, a new round). Faulty cells are
never touched by the hands; the referee's part (:meth:`ScoringRig.mute`, accepting a board in
review) is explicit and counted.

``intended`` is what really happened on the table (the shots, and the shoot-offs a tablet
enters); a test compares it with what the match took.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from firmware_bridge.health import HealthMonitor
from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import BoardProfile
from firmware_bridge.simulator import SimulatedBoard
from firmware_bridge.source import Source
from scorekeeper.clock import FakeClock
from scorekeeper.errors import IllegalEventError
from scorekeeper.events import Event, ShootOff, ShotEvent
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.rules import apply as apply_rules
from scorekeeper.shot import Shot
from scorekeeper.tracker import Expectation, Tracker

STEP_S = 0.02
"""The web app's polling interval."""


LONG_GAME = Rules(rounds_to_win_game=20, pot=60)
"""Long enough that a fault test's shots never reach the end of the game."""


class Hands(Protocol):
    """Whatever puts a magnet over a cell or takes it away."""

    def set(self, cell: int, present: bool) -> None: ...


class SimHands:
    """Hands on the simulated board."""

    def __init__(self, board: SimulatedBoard) -> None:
        self.board = board
        self._on: set[int] = set(board.snapshot())

    def set(self, cell: int, present: bool) -> None:
        if present and cell not in self._on:
            self.board.magnet_arrives(cell)
            self._on.add(cell)
        elif not present and cell in self._on:
            self.board.magnet_leaves(cell)
            self._on.discard(cell)


class BusHands:
    """Hands on emulated MCP23017 expanders (active-low Hall switches)."""

    def __init__(self, bus: object) -> None:
        self.bus = bus

    def set(self, cell: int, present: bool) -> None:
        self.bus.magnet(cell, present)  # type: ignore[attr-defined]


@dataclass
class Log:
    """What the rig saw along the way."""

    link_downs: int = 0
    degraded_polls: int = 0
    referee_accepts: int = 0
    refusals: list[str] = field(default_factory=list)


class ScoringRig:
    """One table: a started source, its pipeline, a tracker and a match."""

    def __init__(
        self,
        source: Source,
        hands: Hands,
        profile: BoardProfile,
        clock: FakeClock,
        *,
        rules: Rules | None = None,
        setup: Setup | None = None,
        health: HealthMonitor | None = None,
        faulty: Iterable[int] = (),
        seed: int = 0,
    ) -> None:
        self.source, self.hands, self.profile, self.clock = source, hands, profile, clock
        self.faulty = set(faulty)
        """Cells the hands never touch (a stuck or chattering sensor)."""
        self.rng = random.Random(seed)
        self.match = Match(rules or LONG_GAME, setup or Setup(first="black", big={
            "black": "center", "white": "center"}))
        source.start()
        self.pipeline = Pipeline(profile, clock, initial=source.snapshot(), health=health)
        self.tracker = Tracker()
        self.log = Log()
        self.intended: list[Event] = []
        self.on: set[int] = set(source.snapshot()) - self.faulty
        self._link_up: bool | None = None
        self.lay_out()
        self._after_change(after_shot=False)

    # -- the polling loop, as web.table.watch.Watch.tick -----------------------------------

    def step(self) -> None:
        readings = self.pipeline.pump(self.source)
        status = self.source.status()
        if status.degraded:
            self.log.degraded_polls += 1
        if status.up != self._link_up:
            if status.up:
                self.tracker.resume("link")
                self.pipeline.resync()
                readings = []  # taken before the gap ended: never judged
            else:
                self.tracker.pause("link")
                self.log.link_downs += 1
            self._link_up = status.up
        for reading in readings:
            shot = self.tracker.observe(reading, self.expectation())
            if shot is not None:
                self._apply(shot)
        self.clock.advance(STEP_S)

    def run(self, seconds: float) -> None:
        for _ in range(round(seconds / STEP_S)):
            self.step()

    def until(self, done: Callable[[], bool], what: str, timeout: float = 30.0,
              referee: bool = True) -> None:
        """Poll until ``done()``; a referee accepts a board left in review once it rests."""
        deadline = self.clock.now() + timeout
        while not done():
            if self.clock.now() > deadline:
                raise AssertionError(
                    f"{what}: not within {timeout} s; tracker {self.tracker.status()}, "
                    f"held {self.pipeline.hold_reasons()}, link {self.source.status()}"
                )
            if (referee and self.tracker.mode == "review" and self.pipeline.at_rest()
                    and not self.pipeline.is_held() and self.pipeline.last_reading is not None
                    and self._board_shows_pending_shot()):
                self.log.referee_accepts += 1
                shot = self.tracker.accept_board(self.expectation())
                if shot is not None:
                    self._apply(shot)
                    continue
                # no reading since sensing resumed: the referee waits for one
            self.step()

    # -- the match -----------------------------------------------------------------------------

    def expectation(self) -> Expectation:
        return Expectation.from_state(self.match.state)

    def _apply(self, shot: ShotEvent) -> None:
        try:
            self.match.apply(shot)
        except IllegalEventError as exc:
            self.log.refusals.append(str(exc))
            self.tracker.refused(str(exc), exc.why)
            return
        self._after_change(after_shot=True)

    def _after_change(self, *, after_shot: bool) -> None:
        self.pipeline.set_expected(dict(self.match.state.board))
        self.tracker.sync(self.expectation(), after_shot=after_shot)

    def scored(self) -> list[Shot]:
        return [e.shot for e in self.match.events if isinstance(e, ShotEvent)]

    def taken(self) -> list[dict[str, object]]:
        """Every step the match took, as step objects."""
        return [e.to_json() for e in self.match.events]

    def made(self) -> list[dict[str, object]]:
        """Every step really made at the table, as step objects."""
        return [e.to_json() for e in self.intended]

    # -- the referee ---------------------------------------------------------------------------

    def mute(self, cell: int) -> None:
        self.pipeline.mute(cell)

    def _board_shows_pending_shot(self) -> bool:
        """The referee looks at the table: a shot was made that the match has not taken."""
        return len(self.intended) > len(self.match.events)

    # -- the hands -----------------------------------------------------------------------------

    def usable(self, cells: Iterable[int]) -> list[int]:
        return [c for c in cells if c not in self.faulty and c not in self.pipeline.health.muted]

    def lay_out(self) -> None:
        """Make the physical board show what the match expects, moving as few magnets as
        possible (the person at the table restoring it)."""
        state = self.match.state
        want: set[int] = set()
        for name, fc in self.profile.fields.items():
            cells = self.usable(fc.cells)
            n = min(int(state.board.get(name, 0)), len(cells))
            keep = [c for c in cells if c in self.on][:n]
            want.update(keep + [c for c in cells if c not in keep][: n - len(keep)])
        for player, spot in self.profile.big.items():
            if state.big.get(player) == "center":
                want.update(self.usable(spot)[:1])
        for cell in sorted(self.on - want):
            self._set(cell, False)
        for cell in sorted(want - self.on):
            self._set(cell, True)

    def _set(self, cell: int, present: bool) -> None:
        self.hands.set(cell, present)
        if present:
            self.on.add(cell)
        else:
            self.on.discard(cell)

    def next_shot(self) -> tuple[Shot, list[int]]:
        """A shot the rules accept now, and the cells a magnet lands on to make it."""
        state = self.match.state
        by = state.turn
        assert by is not None, f"nobody is due to shoot: {state.summary()}"
        if state.must_place_big:
            spot = self.usable(self.profile.big[by])
            return Shot(by=by, big="placed"), spot[:1]
        names = list(self.profile.fields)
        self.rng.shuffle(names)
        for name in names:
            free = [c for c in self.usable(self.profile.fields[name].cells) if c not in self.on]
            if not free:
                continue
            shot = Shot(by=by, delta={name: 1})
            try:
                apply_rules(state, ShotEvent(shot))
            except IllegalEventError:
                continue
            return shot, free[:1]
        raise AssertionError(f"no field can take a skitt: {state.summary()}")

    def shoot(self, *, timeout: float = 30.0) -> Event:
        """The player due shoots: magnets land, the rig polls until the match took a shot,
        then the board is laid out as the match now expects. A shoot-off due is entered
        on the tablet instead (the sensors do not see score skitts)."""
        if self.match.state.shootoff_due:
            black = self.rng.randint(0, 8)
            shootoff = ShootOff(black=black, white=(black + self.rng.randint(1, 8)) % 9)
            self.intended.append(shootoff)
            self.match.apply(shootoff)
            self._after_change(after_shot=False)
            self.lay_out()
            return shootoff
        self.until(lambda: self.tracker.mode == "ready" and not self.pipeline.is_held(),
                   "board ready before a shot", timeout)
        shot, cells = self.next_shot()
        before = len(self.match.events)
        self.intended.append(ShotEvent(shot))
        for cell in cells:
            self._set(cell, True)
        self.until(lambda: len(self.match.events) > before, f"scoring {shot}", timeout)
        self.lay_out()
        return ShotEvent(shot)

    def reference(self) -> Match:
        """The match the intended shots make on a healthy board."""
        return Match.replay(self.match.rules, self.match.setup, self.intended)
