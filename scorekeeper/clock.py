"""Time as a value passed in, never read from the system inside the scorekeeper.

Debouncing, settling and the tracker's restore timeout all take a :class:`Clock`. The real
one lives at the application's edge (``web``); tests use :class:`FakeClock` and advance it
instead of sleeping, so timing tests are exact and fast.
"""

from __future__ import annotations

from typing import Protocol


class Clock(Protocol):
    """Anything with a monotonic ``now()`` in seconds."""

    def now(self) -> float: ...


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self, start: float = 0.0) -> None:
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> float:
        """Move time forward by ``seconds`` and return the new time."""
        if seconds < 0:
            raise ValueError(f"time cannot go backwards (advance by {seconds})")
        self._now += seconds
        return self._now

    def set(self, t: float) -> None:
        """Jump to ``t`` (not earlier than now)."""
        if t < self._now:
            raise ValueError(f"time cannot go backwards ({t} < {self._now})")
        self._now = t
