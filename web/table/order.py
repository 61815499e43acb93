"""A referee's step and a skitt landing that come close together: which came first.

A step that ends a turn ("turn ended, no change", a big skitt missed) is pressed at a moment
of the table's clock; a landing starts at the sensor time of its first raw change. The two
are ordered by those times, never by which thread got there first:

- a landing that started clearly before the press is the shot of the player the press was
  about: the press is refused (that player's shot is being read, and is scored);
- a landing that started clearly after the press is the next player's shot;
- within :data:`UNORDERED_S` of each other they cannot be told apart, and nothing is
  guessed: the referee is asked in one sentence with both choices (:class:`Order`).

Pure values; the table's owner (``web.table.watch``) keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.events import ShotEvent
from scorekeeper.expectation import Expectation
from scorekeeper.fields import Player, opponent
from scorekeeper.words import ENGLISH, Choice, Question, Words, field_words, name_of

ANSWER_PATH = "/api/referee/board/order"
"""Where the referee's answer to whose shot it was goes (``web.api``)."""
UNORDERED_S = 0.25
"""A press and a landing closer than this are not ordered: the sensors' resolution (debounce
and a poll) plus the time a tap takes to reach the table."""


@dataclass(frozen=True)
class Pressed:
    """A person's step that ends the turn of ``before.turn``."""

    at: float
    """When it reached the table (its clock)."""
    shot: ShotEvent
    before: Expectation
    """The match as it was when pressed."""
    stored: bool
    """True: the board was at rest and the step was stored; False: the board was moving
    within :data:`UNORDERED_S` of the press, and the step waits for the landing."""

    @property
    def by(self) -> Player:
        return self.shot.shot.by


@dataclass(frozen=True)
class Order:
    """The referee's question: is the landing the shot of the player the press was about,
    or the next player's?"""

    landed: ShotEvent
    """The landing as the shot of :attr:`Pressed.by`."""
    pressed: Pressed
    landed_stored: bool = False
    """True: the landing was stored as that shot before the press reached the table (it
    was pressed before, and is ordered all the same)."""

    @property
    def by(self) -> Player:
        return self.pressed.by

    @property
    def next(self) -> Player:
        return opponent(self.pressed.by)

    def to_json(self) -> dict[str, Any]:
        return {"landed": self.landed.shot.to_json(), "next": self.next,
                "stored": self.pressed.stored}


def order_words(order: Mapping[str, Any] | None, names: Mapping[str, str],
                t: Words = ENGLISH) -> Question | None:
    """The question in one sentence, in players' names (from :meth:`Order.to_json`), with
    its two choices, shaped like a full field's question (``scorekeeper.words``) so the
    pages show it the same way; None when nothing is asked."""
    if not order:
        return None
    landed = order["landed"]
    by, after = landed["by"], order["next"]
    who, nxt = name_of(by, names, t), name_of(after, names, t)
    fields = [f for f, n in sorted((landed.get("delta") or {}).items()) if n > 0]
    if fields:
        where = t.gettext(" and ").join(field_words(f, names, t) for f in fields)
        what = t.gettext("{who}'s skitt landed on {where}").format(who=who, where=where)
    else:
        what = t.gettext("{who}'s skitt moved the board").format(who=who)
    text = t.gettext("{what} as you pressed 'turn ended': score it for {who}, or is it "
                     "{next}'s shot?").format(what=what, who=who, next=nxt)
    return Question(
        kind="order", field="", by=by, text=text, detail="",
        heading=t.gettext("Whose shot was it?"), alert=text, choices=(
            Choice(t.gettext("Score it for {who}").format(who=who), by=by, path=ANSWER_PATH),
            Choice(t.gettext("{who}'s shot").format(who=nxt), by=after, path=ANSWER_PATH)))
