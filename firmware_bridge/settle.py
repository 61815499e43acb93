"""The settle detector: when is the board at rest, and is a reading owed?

After a shot skitts slide and wobble; the scorekeeper must judge the board only once it has
stopped. A reading is *owed* after every debounced change (and once at start); it is *due*
when the board has then been still long enough. One still period gives exactly one reading,
however often the detector is asked.

How long is long enough is the settle rule, :func:`still_since`. Without tuned waits
(:class:`SettleWaits`) it is the fixed window: ``settle_s`` after the last change. With
them it follows the skitts the timeline shows to be on their way (tuned on the physics
board's shot corpus, ``bench/settle.py``):

- a flick presses a launch spot: a skitt is on its way to the fields (``launch_s``);
- a skitt that leaves a cell is on its way again: after a quick pass over the cell (on for
  at most one sample of the switches) it may still cross far (``leave_s``), after a slow one
  only a little (``leave_slow_s``); a skitt that rested on the cell before this shot was
  knocked on (``knocked_s``);
- a cell turning on is one of those skitts arriving: the one that left a cell last is
  taken as arrived, and the cell is a landing unless it turns off again within the longest
  pass (``land_s``).

The board is still once every skitt on its way has arrived or had its time, and the last
cell turned on has stayed on for ``land_s``. A change of unknown kind (a resync, a mute)
waits the fixed window.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_EPSILON = 1e-9  # clock sums like 2.0 + 0.3 must count as a full window
MAX_MOTION = 512
"""Changes kept per still period; older ones (their skitts long arrived or stopped) drop."""


@dataclass(frozen=True)
class SettleWaits:
    """The tuned settle rule's waits (s), from the board profile's ``[settle]`` table."""

    land_s: float
    """A cell turned on: the longest a passing skitt keeps it on."""
    leave_s: float
    """A skitt left a cell it passed quickly: the longest until it arrives elsewhere."""
    leave_slow_s: float
    """A skitt left a cell it was on for more than a sample: the same, for a slow skitt."""
    knocked_s: float
    """A skitt at rest before the shot left its cell: the same, for a knocked skitt."""
    launch_s: float
    """A launch spot was pressed: the longest a flicked skitt takes to reach a cell."""
    sample_s: float
    """The switches' sample period: a cell on for longer than 1.5 of them was passed slowly."""
    launch_cells: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Move:
    """One debounced change as the settle rule sees it."""

    at: float
    cell: int | None
    """None: a change of unknown kind (a resync, a mute, an unmute)."""
    active: bool = False


def still_since(moves: Sequence[Move], waits: SettleWaits | None, *, settle_s: float,
                start: float, on_before: Iterable[int] = ()) -> float:
    """The time from which the board counts as still, given ``moves`` since it was last
    read at rest (at ``start``, with ``on_before`` active): the settle rule, one pure
    function. ``waits`` None: the fixed window."""
    last = max((m.at for m in moves), default=start)
    if waits is None:
        return last + settle_s
    since = start
    on_at: dict[int, float] = dict.fromkeys(on_before, float("-inf"))
    coming: list[float] = []  # when each skitt on its way must have arrived or stopped
    for m in moves:
        if m.cell is None:
            since = max(since, m.at + settle_s)
        elif m.cell in waits.launch_cells:
            if m.active:
                coming.append(m.at + waits.launch_s)
        elif m.active:
            on_at[m.cell] = m.at
            if coming:
                coming.pop()  # the skitt that left a cell last has arrived
            since = max(since, m.at + waits.land_s)
        else:
            was = on_at.pop(m.cell, float("-inf"))
            if was == float("-inf"):
                wait = waits.knocked_s
            elif m.at - was <= 1.5 * waits.sample_s:
                wait = waits.leave_s
            else:
                wait = waits.leave_slow_s
            coming.append(m.at + wait)
    return max([since, *coming])


class SettleDetector:
    """Tracks the debounced board's changes since it was last read at rest."""

    def __init__(self, settle_s: float, start: float, *, waits: SettleWaits | None = None,
                 active: Iterable[int] = ()) -> None:
        """``waits`` None: the fixed window ``settle_s``; ``active``: the cells on at
        ``start``."""
        if settle_s < 0:
            raise ValueError(f"settle time cannot be negative ({settle_s})")
        if waits is not None:
            for name in ("land_s", "leave_s", "leave_slow_s", "knocked_s", "launch_s",
                         "sample_s"):
                if getattr(waits, name) < 0:
                    raise ValueError(f"settle {name[:-2]} time cannot be negative "
                                     f"({getattr(waits, name)})")
        self.settle_s = settle_s
        self.waits = waits
        self.last_change = start
        self._start = start
        self._moves: list[Move] = [Move(start, None)]  # the start owes a full window
        self._on = set(active)
        self._on_before = frozenset(self._on)
        self.owed = True  # the initial reading

    def changed(self, at: float, active: bool | None = None, cell: int | None = None) -> None:
        """The board changed at ``at`` (``cell`` turned on/off; None: something else):
        restart the wait and owe a reading."""
        if cell is None or active is None:
            self._moves.append(Move(at, None))
        else:
            self._moves.append(Move(at, cell, active))
            if active:
                self._on.add(cell)
            else:
                self._on.discard(cell)
        del self._moves[:-MAX_MOTION]
        self.last_change = max(self.last_change, at)
        self.owed = True

    def still_from(self) -> float:
        """When the board counts as still after the changes seen so far."""
        return still_since(self._moves, self.waits, settle_s=self.settle_s,
                           start=self._start, on_before=self._on_before)

    def is_still(self, now: float) -> bool:
        """True once the board has been still long enough after its last changes."""
        return now >= self.still_from() - _EPSILON

    def is_due(self, now: float) -> bool:
        """True when a reading is owed and the board has been still long enough."""
        return self.owed and self.is_still(now)

    def taken(self) -> None:
        """The owed reading was emitted: the board is at rest as it is now."""
        self.owed = False
        self._start = self.last_change
        self._moves = []
        self._on_before = frozenset(self._on)
