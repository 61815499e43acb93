"""What a step did, in words a scoreboard can show, each with the ruling behind it.

An :class:`Effect` is to the scorekeeper what python-chess's ``Outcome`` is to a game: the
change and its reason. Every point, penalty, clearing, blockade, gift skitt and round result
is one effect, in the order the rules applied them (R10). The UI shows its words and the
ruling; it never has to explain a bare number. An effect is a value with its parts apart
(what kind, who, which fields, the Hit on Red choice) and its sentence as a phrase
(:mod:`scorekeeper.phrases`), so words are made in names from the start and nothing reads
its text back; JSON is made only when it is sent (:meth:`Effect.to_json`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

from scorekeeper.fields import Player
from scorekeeper.phrases import plain, slot
from scorekeeper.shot import RedChoice


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
    ORDER = ("R10", "R10 Order of effects: the shooter's best order of a shot's effects.")
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


class EffectKind(StrEnum):
    """What an effect did; a string enum, so its JSON is the same word it always was."""

    POINT = "point"
    BACK = "back"
    PENALTY = "penalty"
    CLEAR = "clear"
    BLOCK = "block"
    UNBLOCK = "unblock"
    GIFT = "gift"
    BIG = "big"
    CHAIN = "chain"
    INVALID = "invalid"
    ROUND = "round"
    GAME = "game"
    TURN = "turn"
    SHOOTOFF = "shootoff"
    CORRECTION = "correction"
    UNDO = "undo"
    DECISION = "decision"
    RESTORE = "restore"
    NOTE = "note"
    ORDER = "order"


@dataclass(frozen=True, slots=True)
class Effect:
    """One thing a step did."""

    kind: EffectKind
    """What happened."""

    player: Player | None
    """Whose score ``amount`` changes (or who the effect is about); ``None`` for the board."""

    amount: int
    """The change to ``player``'s score (0 when the score does not change)."""

    reason: Reason
    """The ruling that made it happen."""

    phrase: str
    """Its sentence with players and fields left open (:mod:`scorekeeper.phrases`), e.g.
    ``"{black} +1: third skitt on {white}'s yellow field"``."""

    fields: tuple[str, ...] = ()
    """The fields it is about, by id: the point's field, the chain's two, the cleared pair
    (opposite field first), the blockade's."""

    who: Player | None = None
    """The other player it is about: who set ``player`` back (R4), whose own goal or gift
    scored for ``player`` (R7, R11, R12), who was penalised when the point went across (R6)."""

    red: RedChoice | None = None
    """A Hit on Red point (R4): the scorer's choice, ``"advance"`` or ``"back"`` (a ``point``
    with ``"back"``: the other player was at −1, so it counted as advance)."""

    @property
    def text(self) -> str:
        """The rules' words with side ids, as the referee's log keeps them, e.g.
        ``"black +1: third skitt on white's yellow field"``."""
        return plain(self.phrase)

    @property
    def field(self) -> str | None:
        """The first field it is about, if any."""
        return self.fields[0] if self.fields else None

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "player", "amount", "reason": "R3", "text", "phrase"}``: the rules' text
        with side ids (the referee's log), its phrase with the players and fields left open
        (what a receiver words in names, :func:`scorekeeper.stream_words.sent_effect_words`),
        and the values another language words it from
        (:func:`scorekeeper.effect_words.sent_effects_in_words`): ``"fields"`` (ids),
        ``"who"``, ``"red"``, each only when it says something."""
        out: dict[str, Any] = {
            "kind": str(self.kind),
            "player": self.player,
            "amount": self.amount,
            "reason": self.reason.clause,
            "text": self.text,
            "phrase": self.phrase,
        }
        if self.fields:
            out["fields"] = list(self.fields)
        if self.who is not None:
            out["who"] = self.who
        if self.red is not None:
            out["red"] = self.red
        return out


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
    """``{white}'s yellow field`` / ``the minus field``, in a phrase."""
    if "." not in field_name:
        return f"the {field_name} field"
    side, _, color = field_name.partition(".")
    return f"{slot(side)}'s {color} field"
