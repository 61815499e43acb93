"""The settle detector: when is the board at rest, and is a reading owed?

After a shot skitts slide and wobble; the scorekeeper must judge the board only once it has
stopped. A reading is *owed* after every debounced change (and once at start); it is *due*
when the board has then been still for the settle window. One still period gives exactly
one reading, however often the detector is asked.
"""

from __future__ import annotations

_EPSILON = 1e-9  # clock sums like 2.0 + 0.3 must count as a full window


class SettleDetector:
    """Tracks the last change of the debounced board."""

    def __init__(self, settle_s: float, start: float) -> None:
        if settle_s < 0:
            raise ValueError(f"settle time cannot be negative ({settle_s})")
        self.settle_s = settle_s
        self.last_change = start
        self.owed = True  # the initial reading

    def changed(self, at: float) -> None:
        """The board changed at ``at``: restart the window and owe a reading."""
        self.last_change = max(self.last_change, at)
        self.owed = True

    def is_still(self, now: float) -> bool:
        """True once the board has not changed for the settle window."""
        return now - self.last_change >= self.settle_s - _EPSILON

    def is_due(self, now: float) -> bool:
        """True when a reading is owed and the board has been still long enough."""
        return self.owed and self.is_still(now)

    def taken(self) -> None:
        """The owed reading was emitted."""
        self.owed = False
