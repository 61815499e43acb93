"""The program's real clocks, the only places where time is read.

Everything else takes a clock (``scorekeeper.clock.Clock``) so tests can move time by hand:
the monotonic one drives debounce, settle and timeouts; the wall one dates the match log and
the hub's records, which people read.
"""

from __future__ import annotations

import time


class MonotonicClock:
    """Seconds from an arbitrary start that never jump (``time.monotonic``)."""

    def now(self) -> float:
        return time.monotonic()


class WallClock:
    """Seconds since the epoch (``time.time``), for timestamps people read."""

    def now(self) -> float:
        return time.time()


MONOTONIC = MonotonicClock()
WALL = WallClock()
"""The clocks themselves, for defaults (they hold no state)."""
