"""What a step did, in words a scoreboard can show, each with the ruling behind it.

An :class:`Effect` is to the scorekeeper what python-chess's ``Outcome`` is to a game: the
change and its reason. Every point, penalty, clearing, blockade, gift skitt and round result
is one effect, in the order the rules applied them (R10). The UI shows ``text`` and the
ruling; it never has to explain a bare number.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from scorekeeper.fields import Player


class Reason(Enum):
    """Why something happened: one member per ruling in docs/rules.md."""

    def __new__(cls, clause: str, doc: str) -> Reason:
        obj = object.__new__(cls)
        obj._value_ = (clause, doc)
        obj.__doc__ = doc
        return obj

    @property
    def clause(self) -> str:
        """The ruling this reason comes from, e.g. ``"R3"``."""
        return self.value[0]  # type: ignore[no-any-return]

    TURN = ("R1", "R1 Turns: players alternate, one shot a turn.")
    POT = ("R2", "R2 Pot: the pot ran empty, so the round ends on points.")
    SCORING = ("R3", "R3 Scoring: each skitt beyond the second on an opposite field scores.")
    HIT_ON_RED = ("R4", "R4 Hit on Red: a point on red advances the scorer or sets the other back.")
    CLEARING = ("R5", "R5 Clearing: a second skitt facing a home field of two clears the colour.")
    PENALTY = ("R6", "R6 Penalties: minus field, off the board, or a blocked field.")
    OWN_GOAL = ("R7", "R7 Own goals: skitts on the shooter's home field count for the opponent.")
    INVALID = ("R8", "R8 Invalid shots: no effect; the board is restored and the turn passes.")
    NO_EFFECT = ("R9", "R9 Losses without effect: skitts knocked off cost and score nothing.")
    OPENING = ("R11", "R11 Opening move: big skitts are shot first, each round.")
    DISLODGED_BIG = ("R12", "R12 Dislodged big skitt: the shooter re-places a big skitt.")
    ROUND = ("R13", "R13 Rounds and the game: points win rounds, round wins win the game.")
    SHOOTOFF = ("R14", "R14 Shoot-off: the score skitt nearer to space 5 starts.")
    CHAIN = ("R15", "R15 Chains: a skitt connecting two opposite fields judges both.")
    FLIPPING = ("R16", "R16 Flipping: blockades after a clearing, unblock rights.")
    TRIO = ("R17", "R17 Trio: a point for one skitt on each of the three opposite fields.")
    CORRECTION = ("R19", "R19 Corrections: the referee sets the position, with a reason.")
    UNDO = ("R19", "R19 Undo: the last step is taken back completely.")
    DECISION = ("R4", "R4/R16 Late decisions: a Hit on Red or unblock choice until the next shot.")


@dataclass(frozen=True, slots=True)
class Effect:
    """One thing a step did."""

    kind: str
    """What happened: ``point``, ``back``, ``penalty``, ``clear``, ``block``, ``unblock``,
    ``gift``, ``big``, ``chain``, ``invalid``, ``round``, ``game``, ``turn``, ``shootoff``,
    ``correction``, ``undo``, ``decision``, ``restore`` or ``note``."""

    player: Player | None
    """Whose score ``amount`` changes (or who the effect is about); ``None`` for the board."""

    amount: int
    """The change to ``player``'s score (0 when the score does not change)."""

    reason: Reason
    """The ruling that made it happen."""

    text: str
    """Plain words for the scoreboard, e.g. ``"black +1: third skitt on white's yellow"``."""

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "player", "amount", "reason": "R3", "text"}``."""
        return {
            "kind": self.kind,
            "player": self.player,
            "amount": self.amount,
            "reason": self.reason.clause,
            "text": self.text,
        }


def signed(n: int) -> str:
    """``+1`` / ``−1`` with a true minus sign, as the scoreboard prints scores."""
    return f"+{n}" if n >= 0 else f"\u2212{-n}"


_ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
             "eighth", "ninth", "tenth")


def ordinal(n: int) -> str:
    """``third``, ``fourth``... in words up to ten, then ``11th``."""
    if 0 <= n < len(_ORDINALS):
        return _ORDINALS[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def where(field_name: str) -> str:
    """``white's yellow field`` / ``the minus field``."""
    if "." not in field_name:
        return f"the {field_name} field"
    side, _, color = field_name.partition(".")
    return f"{side}'s {color} field"
