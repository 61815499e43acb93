"""Per-cell, time-based debouncing of raw sensor events.

A Hall switch under a sliding skitt flickers. A change counts only once the cell has held its
new state for the debounce time; a blip shorter than that never reaches the counts. Time is
taken from the events themselves (and from ``now`` at :meth:`Debouncer.advance`), so a
batch of events with their real timestamps debounces exactly as if they had arrived one by
one, and tests drive it with a fake clock instead of sleeping.
"""

from __future__ import annotations

from collections.abc import Iterable

from firmware_bridge.source import SensorEvent

_EPSILON = 1e-9  # clock sums like 1.0 + 0.02 must count as a full hold


class Debouncer:
    """Confirms cell changes that held for ``debounce_s`` seconds."""

    def __init__(self, debounce_s: float, initial: Iterable[int] = ()) -> None:
        if debounce_s < 0:
            raise ValueError(f"debounce time cannot be negative ({debounce_s})")
        self.debounce_s = debounce_s
        self._stable: set[int] = set(initial)
        self._pending: dict[int, tuple[bool, float]] = {}
        self._time = float("-inf")

    @property
    def active(self) -> frozenset[int]:
        """The debounced active cells."""
        return frozenset(self._stable)

    def pending_cells(self) -> frozenset[int]:
        """The cells with an unconfirmed change."""
        return frozenset(self._pending)

    def next_confirm(self) -> float | None:
        """When the oldest unconfirmed change will be confirmed if it holds (None: none)."""
        if not self._pending:
            return None
        return min(since for _, since in self._pending.values()) + self.debounce_s

    def feed(self, event: SensorEvent) -> list[SensorEvent]:
        """Take one raw event; return the changes confirmed up to its time, oldest first.

        Events must come in time order per source; an event older than one already seen is
        treated as happening now (a clock quirk must not reorder the board)."""
        at = max(event.at, self._time)
        confirmed = self.advance(at)
        if (event.cell in self._stable) == event.active:
            self._pending.pop(event.cell, None)  # a blip back to the stable state
        elif event.cell not in self._pending:
            self._pending[event.cell] = (event.active, at)
        if self.debounce_s == 0:
            confirmed += self.advance(at)
        return confirmed

    def advance(self, now: float) -> list[SensorEvent]:
        """Confirm every change that has held until ``now``; return them oldest first.

        A confirmed change is stamped with the moment it became certain
        (its start plus the debounce time), independent of how often this is called."""
        self._time = max(self._time, now)
        due = [
            (since + self.debounce_s, cell, active)
            for cell, (active, since) in self._pending.items()
            if since + self.debounce_s <= self._time + _EPSILON
        ]
        due.sort()
        for _, cell, active in due:
            del self._pending[cell]
            if active:
                self._stable.add(cell)
            else:
                self._stable.discard(cell)
        return [SensorEvent(cell, active, at) for at, cell, active in due]
