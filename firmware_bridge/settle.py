"""The settle detector: when is the board at rest, and is a reading owed?

After a shot skitts slide and wobble; the scorekeeper must judge the board only once it has
stopped. A reading is *owed* after every debounced change (and once at start); it is *due*
when the board has then been still long enough. One still period gives exactly one reading,
however often the detector is asked.

How long is long enough depends on the last changes (tuned on the physics board's shot
corpus, ``bench/settle.py``): a cell that turned *on* is a skitt arriving; if it is only
passing it turns off again within the longest pass (``land_s``). A cell that turned *off*
after the last one turned on is a skitt leaving it, still moving, that may reach another
cell across the gap (``leave_s``); an off followed by an on is that skitt arriving. A change
of unknown kind (a resync, a mute) waits the fixed window (``settle_s``).
"""

from __future__ import annotations

_EPSILON = 1e-9  # clock sums like 2.0 + 0.3 must count as a full window


def still_since(last_on: float, last_off: float, last_other: float, *, settle_s: float,
                land_s: float, leave_s: float) -> float:
    """The time from which the board counts as still: the last change plus the wait its
    kind needs (the settle rule, one pure function)."""
    moving = last_off + leave_s if last_off > last_on else float("-inf")
    return max(last_on + land_s, moving, last_other + settle_s)


class SettleDetector:
    """Tracks the last changes of the debounced board."""

    def __init__(self, settle_s: float, start: float, *, land_s: float | None = None,
                 leave_s: float | None = None) -> None:
        """``land_s``/``leave_s`` (None: the full window) shorten the wait after a cell
        turned on/off."""
        for name, value in (("settle", settle_s), ("land", land_s), ("leave", leave_s)):
            if value is not None and value < 0:
                raise ValueError(f"{name} time cannot be negative ({value})")
        self.settle_s = settle_s
        self.land_s = settle_s if land_s is None else land_s
        self.leave_s = settle_s if leave_s is None else leave_s
        self.last_change = start
        self._last_on = self._last_off = float("-inf")
        self._last_other = start
        self.owed = True  # the initial reading

    def changed(self, at: float, active: bool | None = None) -> None:
        """The board changed at ``at`` (a cell turned on/off, or None: something else):
        restart the wait and owe a reading."""
        if active is None:
            self._last_other = max(self._last_other, at)
        elif active:
            self._last_on = max(self._last_on, at)
        else:
            self._last_off = max(self._last_off, at)
        self.last_change = max(self.last_change, at)
        self.owed = True

    def is_still(self, now: float) -> bool:
        """True once the board has been still long enough after its last changes."""
        since = still_since(self._last_on, self._last_off, self._last_other,
                            settle_s=self.settle_s, land_s=self.land_s, leave_s=self.leave_s)
        return now >= since - _EPSILON

    def is_due(self, now: float) -> bool:
        """True when a reading is owed and the board has been still long enough."""
        return self.owed and self.is_still(now)

    def taken(self) -> None:
        """The owed reading was emitted."""
        self.owed = False
