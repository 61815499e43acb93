"""Fields the sensors cannot count any further: a shot there is a question for the referee.

A field's cells can tell apart only so many skitts (its *capacity*, from the board profile).
Once a field's sensed count is at that capacity it means "this many or more": a skitt that
lands on a full field, or clings to its cluster beyond the last cell, changes nothing the
sensors can see. Taking such a shot as "no change" would lose a point, so it is neither
scored nor dropped: the tracker holds it as a :class:`Question`, one field at a time, and
the referee says with one tap how many skitts the shot added there. The answer completes
the shot, which is then recorded like any sensed shot.

Pure values and functions: no I/O, no clock (the tracker owns the open question).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper.errors import Field, Why, because
from scorekeeper.reading import BoardReading
from scorekeeper.shot import Shot

ABOVE = 2
"""How many counts above the fewest possible one the referee is offered."""
BELOW = 2
"""How many skitts a shot can be said to have knocked off a field fuller than its count."""


class QuestionError(ValueError):
    """An answer that does not fit the open question (wrong field, a count not offered).

    Like a rules refusal it is data: ``key`` is the input at fault (``answer.skitts``) and
    ``why`` what it says, so the referee reads it in names and in their language."""

    def __init__(self, key: str, why: Why) -> None:
        super().__init__(f"{key}: {why.english()}")
        self.key = key
        self.why = why


@dataclass(frozen=True)
class FieldQuestion:
    """One full field: how many skitts did the shot add there?"""

    field: str
    """The field the sensors cannot count (``white.blue``, ``minus``)."""

    before: int
    """Skitts the match had on it before the shot."""

    capacity: int
    """The most its sensors can tell apart; the sensed count after the shot is at it."""

    @property
    def least(self) -> int:
        """The fewest skitts the shot can have added: the field holds at least ``capacity``
        after it (negative when the field held more than its sensors count before)."""
        return self.capacity - self.before

    @property
    def choices(self) -> tuple[int, ...]:
        """The counts offered, fewest first: ``0, 1, 2`` for a field that was full before."""
        low = max(self.least, -BELOW)
        return tuple(range(low, max(self.least, 0) + ABOVE + 1))

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "before": self.before, "capacity": self.capacity,
                "least": self.least, "choices": list(self.choices)}


@dataclass(frozen=True)
class Question:
    """A sensed shot waiting for the referee's counts on the fields the sensors cannot count."""

    shot: Shot
    """The shot as sensed; the asked fields' changes come from the answers."""

    asked: tuple[FieldQuestion, ...]
    """The full fields, in board order."""

    answers: Mapping[str, int] = field(default_factory=dict)
    """Answered so far: field → skitts the shot added there."""

    @property
    def open(self) -> FieldQuestion | None:
        """The field still to be answered first, or None once every one is."""
        return next((q for q in self.asked if q.field not in self.answers), None)

    def answered(self, field_name: str, skitts: int) -> Question:
        """This question with the referee's count for ``field_name``."""
        now = self.open
        if now is None:
            raise QuestionError("answer.field", because(
                "no field is asked about any more, not even {got}", got=Field(field_name)))
        if now.field != field_name:
            raise QuestionError("answer.field", because(
                "the question is about {wanted}, not {got}", wanted=Field(now.field),
                got=Field(field_name)))
        if isinstance(skitts, bool) or not isinstance(skitts, int) \
                or skitts not in now.choices:
            offered = ", ".join(str(c) for c in now.choices)
            raise QuestionError("answer.skitts", because(
                "expected one of {offered}, got {got}", offered=offered, got=repr(skitts)))
        return replace(self, answers={**self.answers, field_name: skitts})

    def completed(self) -> Shot:
        """The shot with every answer in its ``delta`` (call once :attr:`open` is None)."""
        if self.open is not None:
            raise QuestionError("answer.field", because(
                "{field} is not answered yet", field=Field(self.open.field)))
        asked = {q.field for q in self.asked}
        delta = {k: v for k, v in self.shot.delta.items() if k not in asked}
        delta.update({k: v for k, v in self.answers.items() if v})
        return replace(self.shot, delta=delta)

    def to_json(self) -> dict[str, Any]:
        now = self.open
        return {"by": self.shot.by, "field": None if now is None else now.field,
                "open": None if now is None else now.to_json(),
                "asked": [q.field for q in self.asked], "answers": dict(self.answers)}


def full_fields(reading: BoardReading) -> tuple[str, ...]:
    """Fields whose sensed count is at what their sensors can tell apart."""
    return tuple(name for name in reading.counts if reading.saturated(name))


def question_for(
    shot: Shot, reading: BoardReading, before: Mapping[str, int]
) -> Question | None:
    """The question a sensed ``shot`` raises, or None when every field it could have
    changed is counted exactly. ``reading`` is the board after the shot, ``before`` the
    counts the match had before it.

    A field below its capacity after the shot is counted exactly, whatever it held before
    (skitts knocked off a full field show once it is below capacity again)."""
    asked = tuple(
        FieldQuestion(name, int(before.get(name, 0)), int(reading.capacity[name]))
        for name in full_fields(reading)
    )
    return Question(shot, asked) if asked else None
