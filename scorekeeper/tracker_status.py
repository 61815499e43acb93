"""What the tracker tells people: its mode and the board's differences, as a phrase.

:meth:`scorekeeper.tracker.Tracker.status` fills a :class:`TrackerStatus` for the scoreboard,
the tablet and the referee. Its sentence is a phrase (:mod:`scorekeeper.phrases`) with the
players and fields left open: filled with side ids it is the referee's log text
(:attr:`TrackerStatus.message`), filled with names it is what a page says
(:func:`scorekeeper.words.board_words`), so nothing reads the sentence back to name anyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from scorekeeper.errors import Why
from scorekeeper.expectation import BigDifference
from scorekeeper.phrases import field_slot, plain, slot
from scorekeeper.saturation import Question


class Mode(StrEnum):
    """What the tracker is waiting for (module :mod:`scorekeeper.tracker` tells each); a
    string enum, so its JSON is the word it always was."""

    READY = "ready"
    RESTORE = "restore"
    REVIEW = "review"
    QUESTION = "question"
    PAUSED = "paused"


class PauseReason(StrEnum):
    """Why sensing is paused (both may hold at once)."""

    REFEREE = "referee"
    LINK = "link"
    """The sensor link is down."""


@dataclass(frozen=True)
class TrackerStatus:
    """What the tracker is waiting for, in plain words for the scoreboard."""

    mode: Mode
    phrase: str
    """What the board needs, with its players and fields left open (``{white}``,
    ``{white.red}``) and a person's or a device's words in it as given."""
    expected: Mapping[str, int]
    """The board the match expects (what a restore must reach)."""
    differences: Mapping[str, int]
    """Per field: sensed minus expected, for fields that differ (empty when they agree)."""
    big_differences: Mapping[str, BigDifference] = field(default_factory=dict)
    """Per player, when a big skitt's spot disagrees with the match."""
    overridden: Mapping[str, int] = field(default_factory=dict)
    """Per field: how far the sensors read from the match where the referee said the board
    is as the match expects (sensed minus expected then)."""
    question: Question | None = None
    """The shot waiting for the referee's count on a full field (mode ``question``)."""
    full: tuple[str, ...] = ()
    """Fields whose sensed count is at what their sensors can tell apart."""
    settled: bool = True
    """A settled reading is in hand: before the first (after a start or a gap in sensing)
    the board is not judged yet, which is no fault."""
    refusal: Why | None = None
    """The rules' refusal of the sensed shot that put the board to the referee, as data."""
    bridges: tuple[tuple[str, str], ...] = ()
    """Bridges a skitt lies on that the match does not expect (a chain's skitt the rules
    took back to the pot, R15), each as the two fields it joins: a restore clears them."""

    @property
    def message(self) -> str:
        """The sentence with side and field ids: the referee's log text."""
        return plain(self.phrase)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "message": self.message,
            "phrase": self.phrase,
            "expected": dict(self.expected),
            "differences": dict(self.differences),
            "big_differences": dict(self.big_differences),
            "overridden": dict(self.overridden),
            "question": None if self.question is None else self.question.to_json(),
            "full": list(self.full),
            "settled": self.settled,
            "refusal": None if self.refusal is None else self.refusal.to_json(),
            "bridges": [list(pair) for pair in self.bridges],
        }


def describe_differences(
    diffs: Mapping[str, int], bigs: Mapping[str, str], bridges: Iterable[tuple[str, str]],
) -> str:
    """What must change on the board as a phrase, e.g. ``take 2 skitts off {white.blue}``."""
    parts: list[str] = []
    for name, diff in diffs.items():
        n = abs(diff)
        skitts = "skitt" if n == 1 else "skitts"
        where = field_place(name)
        parts.append(f"take {n} {skitts} off {where}" if diff > 0 else
                     f"add {n} {skitts} to {where}")
    for player, what in bigs.items():
        parts.append(
            f"put {slot(player)}'s big skitt back on its spot"
            if what == BigDifference.MISSING
            else f"take {slot(player)}'s big skitt off its spot"
        )
    for a, b in sorted(bridges):
        parts.append(f"take the skitt off the bridge between {field_place(a)} and {field_place(b)}")
    return ", ".join(parts)


def field_place(name: str) -> str:
    """A field in a phrase: ``{white.red}`` (``Bo's red``), or ``the minus field``, which
    belongs to no side."""
    return field_slot(name) if "." in name else f"the {name} field"
