"""A simulated board: the source a newcomer without hardware uses, and the tests' bench.

Like gpiozero's ``MockFactory`` it has verbs that act like the physical event
(``magnet_arrives(cell)``, ``place_skitt("white.red")``, ``press_launch("black")``) and
records every event it emits (:attr:`SimulatedBoard.events`, :meth:`assert_events`).
Events are stamped with the injected clock; verbs that take time (a launch press, a
chattering sensor) schedule their later events, which :meth:`poll` hands out once the clock
has reached them. It is never a fallback: it runs only when asked for by name (``sim``).

A field takes any number of skitts, as a real one does: beyond what its cells can tell
apart (its capacity) the skitts lie there but the cells stay as they are, so the pipeline
sees exactly what a real board would (:meth:`SimulatedBoard.over`). Impossible commands (an
unknown field, a magnet arriving where one already is, a negative count) raise
:class:`SimulatorError` and change nothing.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping

from firmware_bridge.profile import BoardProfile, FieldCells
from firmware_bridge.source import LinkStatus, SensorEvent
from scorekeeper.clock import Clock
from scorekeeper.errors import Field, Why, because
from scorekeeper.errors import Player as Who
from scorekeeper.fields import PLAYERS, Player, UnknownFieldError, check_field

MAX_SKITTS = 10_000
"""More skitts than any pot holds (the rules cap the pot there): a count beyond is a typo."""


class SimulatorError(ValueError):
    """A command the simulated board cannot carry out; ``why`` says it as data, so the person
    who tapped reads it in their language (:func:`scorekeeper.words.refusal`)."""

    def __init__(self, why: str | Why) -> None:
        self.why = why if isinstance(why, Why) else Why(why)
        super().__init__(self.why.english())


class SimulatedBoard:
    """A :class:`~firmware_bridge.source.Source` driven by verbs."""

    name = "sim"

    def __init__(
        self,
        profile: BoardProfile,
        clock: Clock,
        *,
        press_s: float = 0.1,
        chatter_interval_s: float = 0.005,
    ) -> None:
        self.profile = profile
        self.clock = clock
        self.cells = profile.cells
        self.press_s = press_s
        self.chatter_interval_s = chatter_interval_s
        self._timeline: list[tuple[float, int, SensorEvent]] = []
        self._seq = 0
        self._delivered = 0
        self._final: set[int] = set()  # the board once every scheduled event has happened
        self._over: dict[str, int] = {}  # skitts on a full field that no cell shows
        self._closed = False

    # -- Source protocol -------------------------------------------------------------------

    def start(self) -> None:
        self._closed = False

    def poll(self) -> list[SensorEvent]:
        if self._closed:
            return []
        due = self._due_index()
        events = [e for _, _, e in self._timeline[self._delivered:due]]
        self._delivered = due
        return events

    def snapshot(self) -> frozenset[int]:
        active: set[int] = set()
        for _, _, event in self._timeline[: self._due_index()]:
            if event.active:
                active.add(event.cell)
            else:
                active.discard(event.cell)
        return frozenset(active)

    def status(self) -> LinkStatus:
        return LinkStatus(up=not self._closed, message="" if not self._closed else "closed")

    def close(self) -> None:
        self._closed = True

    # -- the record ------------------------------------------------------------------------

    @property
    def events(self) -> list[SensorEvent]:
        """Every event emitted so far (due by the clock), oldest first."""
        return [e for _, _, e in self._timeline[: self._due_index()]]

    def assert_events(self, *expected: tuple[int, bool] | tuple[int, bool, float]) -> None:
        """Check the emitted events as ``(cell, active)`` or ``(cell, active, at)`` tuples."""
        actual = [
            (e.cell, e.active, e.at) if len(x) == 3 else (e.cell, e.active)
            for e, x in zip(self.events, expected, strict=False)
        ]
        if len(self.events) != len(expected) or actual != list(expected):
            got = [(e.cell, e.active, e.at) for e in self.events]
            raise AssertionError(f"events {got} != expected {list(expected)}")

    def clear_events(self) -> None:
        """Forget the record of delivered events (the board stays as it is)."""
        self._timeline = self._timeline[self._delivered:]
        self._delivered = 0

    # -- single cells ----------------------------------------------------------------------

    def magnet_arrives(self, cell: int) -> None:
        """A magnet comes over ``cell`` now."""
        self._check_cell(cell)
        if cell in self._final:
            raise SimulatorError(f"cell {cell} is already active")
        self._emit([(cell, True, 0.0)])

    def magnet_leaves(self, cell: int) -> None:
        """The magnet over ``cell`` goes away now."""
        self._check_cell(cell)
        if cell not in self._final:
            raise SimulatorError(f"cell {cell} is not active")
        self._emit([(cell, False, 0.0)])

    def chatter(self, cell: int, times: int) -> None:
        """``cell`` flickers ``times`` times (off-on-off or on-off-on), one flip every
        ``chatter_interval_s``, ending as it was: what a failing switch does."""
        self._check_cell(cell)
        if times < 1:
            raise SimulatorError(f"chatter needs at least one flicker, got {times}")
        was = cell in self._final
        dt = self.chatter_interval_s
        self._emit(
            [(cell, not was, 2 * i * dt) for i in range(times)]
            + [(cell, was, (2 * i + 1) * dt) for i in range(times)]
        )

    # -- skitts on fields ------------------------------------------------------------------

    def sensed(self, field: str) -> int:
        """Skitts on ``field`` as its cells (and count map) show them: at most its capacity."""
        fc = self._field(field)
        return fc.count_for(sum(1 for c in fc.cells if c in self._final))

    def over(self, field: str) -> int:
        """Skitts lying on ``field`` beyond what its cells can count (0 below capacity)."""
        self._field(field)
        return self._over.get(field, 0)

    def count(self, field: str) -> int:
        """Skitts lying on ``field``: what its cells show, and those beyond its capacity."""
        return self.sensed(field) + self.over(field)

    def place_skitt(self, field: str) -> None:
        """One more skitt lands on ``field``; on a full field it clings to the cluster where
        no cell can tell it apart, so the cells stay as they are."""
        self.set_count(field, self.count(field) + 1)

    def remove_skitt(self, field: str) -> None:
        """One skitt is taken off ``field`` (one no cell counts first, on a full field)."""
        if self.count(field) == 0:
            raise SimulatorError(because("no skitt on {field} to remove", field=Field(field)))
        self.set_count(field, self.count(field) - 1)

    def set_count(self, field: str, n: int) -> None:
        """Put ``n`` skitts on ``field``, changing as few cells as possible; beyond the
        field's capacity its cells show the capacity and the rest lie there unseen."""
        fc = self._field(field)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise SimulatorError(f"a skitt count is a whole number >= 0, got {n!r}")
        if n > MAX_SKITTS:
            raise SimulatorError(f"{n} skitts do not fit on {field} (at most {MAX_SKITTS})")
        over = max(0, n - fc.capacity)
        n -= over
        if over:
            self._over[field] = over
        else:
            self._over.pop(field, None)
        if n == fc.capacity:
            # the fewest active cells that read as full (a calibrated map may repeat counts)
            want = next(k for k in range(len(fc.counts)) if fc.count_for(k) >= n)
            self._set_cells(fc, want)
            return
        if n not in fc.counts:
            raise SimulatorError(f"no number of active cells on {field} reads as {n} skitts "
                                 f"(count map {list(fc.counts)})")
        self._set_cells(fc, fc.counts.index(n))

    def _set_cells(self, fc: FieldCells, want: int) -> None:
        """Make ``want`` of the field's cells active."""
        on = [c for c in fc.cells if c in self._final]
        off = [c for c in fc.cells if c not in self._final]
        if want > len(on):
            self._emit([(c, True, 0.0) for c in off[: want - len(on)]])
        elif want < len(on):
            self._emit([(c, False, 0.0) for c in reversed(on[want:])])

    def clear(self) -> None:
        """Every magnet leaves the board (fields, spots, bridges)."""
        self._over.clear()
        self._emit([(c, False, 0.0) for c in sorted(self._final)])

    # -- big skitts, bridges, launch spots -------------------------------------------------

    def place_big(self, player: str) -> None:
        """``player``'s big skitt lands on its centre spot."""
        cells = self._spot(player, self.profile.big, "big-skitt spot")
        if any(c in self._final for c in cells):
            raise SimulatorError(because("{who}'s big skitt is already on its spot",
                                         who=Who(player)))
        self._emit([(c, True, 0.0) for c in cells])

    def remove_big(self, player: str) -> None:
        """``player``'s big skitt leaves its centre spot."""
        cells = self._spot(player, self.profile.big, "big-skitt spot")
        if not any(c in self._final for c in cells):
            raise SimulatorError(because("{who}'s big skitt is not on its spot",
                                         who=Who(player)))
        self._emit([(c, False, 0.0) for c in cells if c in self._final])

    def bridge(self, f1: str, f2: str) -> None:
        """A skitt comes to rest on the bridge between ``f1`` and ``f2`` (a chain)."""
        cell = self._bridge_cells(f1, f2)[0]
        if cell in self._final:
            raise SimulatorError(because("a skitt already lies on the bridge {a}/{b}",
                                         a=Field(f1), b=Field(f2)))
        self._emit([(cell, True, 0.0)])

    def remove_bridge(self, f1: str, f2: str) -> None:
        """The skitt on the bridge between ``f1`` and ``f2`` is taken away."""
        cells = [c for c in self._bridge_cells(f1, f2) if c in self._final]
        if not cells:
            raise SimulatorError(because("no skitt lies on the bridge {a}/{b}", a=Field(f1),
                                         b=Field(f2)))
        self._emit([(c, False, 0.0) for c in cells])

    def press_launch(self, player: str, hold_s: float | None = None) -> None:
        """A skitt is flicked off ``player``'s launch spot: its cell is active for
        ``hold_s`` (default ``press_s``), then released."""
        cell = self._spot(player, self.profile.launch, "launch spot")[0]
        if cell in self._final:
            raise SimulatorError(because("{who}'s launch spot is already pressed",
                                         who=Who(player)))
        hold = self.press_s if hold_s is None else hold_s
        self._emit([(cell, True, 0.0), (cell, False, hold)])

    # -- helpers ---------------------------------------------------------------------------

    def _due_index(self) -> int:
        now = self.clock.now()
        return bisect.bisect_right(self._timeline, (now, float("inf")), key=lambda x: x[:2])

    def _emit(self, changes: Iterable[tuple[int, bool, float]]) -> None:
        now = self.clock.now()
        for cell, active, delay in sorted(changes, key=lambda c: c[2]):
            self._seq += 1
            item = (now + delay, self._seq, SensorEvent(cell, active, now + delay))
            bisect.insort(self._timeline, item, key=lambda x: x[:2])
            if active:
                self._final.add(cell)
            else:
                self._final.discard(cell)

    def _check_cell(self, cell: int) -> None:
        if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < self.cells:
            raise SimulatorError(f"no cell {cell!r}: cells are 0..{self.cells - 1}")

    def _field(self, field: str) -> FieldCells:
        try:
            return self.profile.fields[check_field(field, self.profile.colors)]
        except UnknownFieldError as exc:
            raise SimulatorError(str(exc)) from None

    def _spot(
        self, player: str, spots: Mapping[Player, tuple[int, ...]], what: str
    ) -> tuple[int, ...]:
        if player not in PLAYERS:
            raise SimulatorError(f"unknown player {player!r}: black or white")
        cells = spots.get(player)  # type: ignore[call-overload]
        if not cells:
            raise SimulatorError(f"board profile {self.profile.name!r} has no {what} "
                                 f"for {player}")
        return tuple(cells)

    def _bridge_cells(self, f1: str, f2: str) -> tuple[int, ...]:
        for f in (f1, f2):
            self._field(f)
        for b in self.profile.bridges:
            if set(b.fields) == {f1, f2}:
                return b.cells
        raise SimulatorError(f"board profile {self.profile.name!r} has no bridge "
                             f"between {f1} and {f2}")
