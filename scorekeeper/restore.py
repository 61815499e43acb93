"""What happens on the board while it is being put back, and the referee's word over it.

Two things the tracker needs during a restore, kept here so :mod:`scorekeeper.tracker` reads
as the modes it moves through:

- :func:`split_restore`: a reading taken during a restore is split into the part that brings
  the board nearer the match (the restore, counting down) and the part that takes it further
  away (someone shot meanwhile). The second part must never fall into silence: the tracker
  hands it to the referee as the shot it looks like.
- :class:`Override`: the referee says the board lies as the match expects although the
  sensors show something else (a field beyond its sensors' count, a stuck spot). The sensed
  difference at that moment is kept and judged as agreeing from then on, so no restore can
  block the match. It holds until the sensors agree with the match by themselves.

Pure like the tracker: no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from scorekeeper.fields import Player
from scorekeeper.reading import BoardReading

if TYPE_CHECKING:
    from scorekeeper.expectation import Expectation


def split_restore(
    before: Mapping[str, int], now: Mapping[str, int]
) -> tuple[dict[str, int], dict[str, int]]:
    """Split the differences (sensed minus expected) of a reading taken during a restore into
    ``(still_to_restore, shot)``.

    ``before``: the differences the restore still had to undo at the last reading. A field
    that moved towards the match is restore; a field that moved past it, or away from it, or
    that differs where it did not, changed for another reason: that part is the ``shot``.
    """
    left: dict[str, int] = {}
    shot: dict[str, int] = {}
    for name in sorted(set(before) | set(now)):
        was, diff = int(before.get(name, 0)), int(now.get(name, 0))
        if diff == 0:
            continue
        if was * diff > 0 and abs(diff) <= abs(was):
            left[name] = diff  # on the way back (or not yet touched)
        elif was * diff > 0:
            left[name] = was  # the restore not yet begun here, and more came on top
            shot[name] = diff - was
        else:
            shot[name] = diff  # it differs the other way, or where nothing was to restore
    return left, shot


@dataclass(frozen=True)
class Override:
    """The referee's word that the board is as the match expects, with what the sensors
    showed then (kept so the same difference is not asked to be restored again)."""

    counts: Mapping[str, int] = field(default_factory=dict)
    """Per field: sensed minus expected when the referee said so."""
    big: frozenset[Player] = frozenset()
    """Players whose big-skitt spot disagreed then (their spot is not judged meanwhile)."""
    bridges: frozenset[tuple[str, str]] = frozenset()
    """Bridges sensed then (not a chain of the next shot)."""

    def adjust(
        self, reading: BoardReading, expected: Expectation
    ) -> tuple[BoardReading, Expectation]:
        """The reading and the expectation as the tracker judges them under this word."""
        board = dict(expected.board)
        for name, diff in self.counts.items():
            board[name] = max(0, int(board.get(name, 0)) + diff)
        big = {p: v for p, v in reading.big.items() if p not in self.big}
        seen = replace(reading, big=big, bridges=reading.bridges - self.bridges)
        return seen, replace(expected, board=board)
