"""What the scorekeeper refuses, and why.

Our exception hierarchy::

    ScorekeeperError(Exception)
     └── IllegalEventError(ScorekeeperError, ValueError)
          ├── MalformedEventError       a step, option or setup with a wrong key, type or name
          └── NothingToUndoError        an undo with no step left to take back

Every refusal leaves the match exactly as it was. A refusal is data: the key of the input at
fault (``err.key``: ``shot.delta``, ``correct.reason``...), the rulings it enforces
(``err.rule``: ``R19``) and what it says (``err.why``: an English sentence with
``{placeholders}`` and the values that fill them: players, fields, numbers). The English
message (``str(err)``, for logs and the API's ``detail``) is made from them, with the key in
front and, where a state is involved, a short summary of it at the end (whose turn, scores,
pot); a page makes its own words from the same data in the reader's language
(:func:`scorekeeper.words.refusal`), so nothing is ever read back out of the English text.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Self

from scorekeeper.phrases import field_slot, literal, slot


class ScorekeeperError(Exception):
    """Base of every error the scorekeeper raises on purpose."""


class Player(str):
    """A player id (``black``) among a refusal's values: words name the player."""


class Field(str):
    """A field id (``white.red``, ``minus``) among a refusal's values: words say the field."""


class Fields(tuple[str, ...]):
    """Field ids among a refusal's values, said as a list (``white.red, white.blue``)."""

    def __str__(self) -> str:
        return ", ".join(self)


@dataclass(frozen=True)
class Why:
    """What a refusal says: ``template`` is the English sentence with ``{placeholders}`` (the
    msgid a catalog translates), ``values`` fill them (a :class:`Player`, :class:`Field`,
    :class:`Fields`, a number, a nested :class:`Why`, or an input's text as it was given), and
    ``rules`` are the rulings it enforces (``("R2", "R19")``), kept out of the sentence."""

    template: str
    values: Mapping[str, object] = field(default_factory=dict)
    rules: tuple[str, ...] = ()

    def english(self) -> str:
        """The sentence in the rules' own words: ids as they are, the rulings in brackets (a
        template without values is said as it is: it may hold an input's braces)."""
        text = self.template.format_map({
            k: v.english() if isinstance(v, Why) else str(v) for k, v in self.values.items()
        }) if self.values else self.template
        return f"{text} ({', '.join(self.rules)})" if self.rules else text

    def to_json(self) -> dict[str, object]:
        """The refusal as JSON a page can word again (:meth:`from_json`): each value tagged
        with what it is, so a player is named and a field said, never guessed from text."""
        return {"template": self.template, "rules": list(self.rules),
                "values": {k: _value_json(v) for k, v in self.values.items()}}

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Why:
        """A refusal from :meth:`to_json`'s JSON."""
        values = data.get("values")
        rules = data.get("rules")
        values = values if isinstance(values, Mapping) else {}
        rules = rules if isinstance(rules, (list, tuple)) else ()
        return cls(str(data.get("template", "")),
                   {str(k): _value_from_json(v) for k, v in values.items()},
                   tuple(str(r) for r in rules))

    def phrase(self) -> str:
        """The sentence as a rules phrase (:mod:`scorekeeper.phrases`): its players and fields
        left as places for names, any other value kept as given, the rulings in brackets.
        An effect quoting a refusal's reason (an invalid shot's) then reads in names."""
        def place(value: object) -> str:
            if isinstance(value, Why):
                return value.phrase()
            if isinstance(value, Player):
                return slot(value)
            if isinstance(value, Field):
                return field_slot(value)
            if isinstance(value, Fields):
                return ", ".join(field_slot(f) for f in value)
            return literal(str(value))

        text = (self.template.format_map({k: place(v) for k, v in self.values.items()})
                if self.values else literal(self.template))
        return f"{text} ({', '.join(self.rules)})" if self.rules else text


def _value_json(value: object) -> dict[str, object]:
    if isinstance(value, Why):
        return {"why": value.to_json()}
    if isinstance(value, Player):
        return {"player": str(value)}
    if isinstance(value, Field):
        return {"field": str(value)}
    if isinstance(value, Fields):
        return {"fields": list(value)}
    if isinstance(value, int) and not isinstance(value, bool):
        return {"number": value}
    return {"text": str(value)}


def _value_from_json(data: object) -> object:
    if not isinstance(data, Mapping):
        return str(data)
    if "why" in data:
        return Why.from_json(data["why"])
    if "player" in data:
        return Player(data["player"])
    if "field" in data:
        return Field(data["field"])
    if "fields" in data:
        return Fields(str(f) for f in data["fields"])
    if "number" in data:
        return int(data["number"])
    return str(data.get("text", ""))


def because(template: str, *, rule: str | tuple[str, ...] | None = None,
            **values: object) -> Why:
    """A refusal's :class:`Why` (``rule``: one ruling or several)."""
    rules = (rule,) if isinstance(rule, str) else tuple(rule or ())
    return Why(template, values, rules)


class IllegalEventError(ScorekeeperError, ValueError):
    """A step the rules refuse: out of turn, an impossible reading (R2), an unknown field,
    a choice without a right, a correction outside R19's limits, and so on."""

    def __init__(self, message: str, *, key: str | None = None, why: Why | None = None) -> None:
        super().__init__(message)
        self.key = key
        """The key path of the input at fault (``shot.delta``), or None when no one key is."""
        self.why = why if why is not None else Why(message)
        """What the refusal says, as data (a message given only as text is its own sentence)."""

    @property
    def rules(self) -> tuple[str, ...]:
        """Every ruling the refusal enforces (``("R11", "R12")``), none for a malformed input."""
        return self.why.rules

    @property
    def rule(self) -> str | None:
        """The ruling that refused (the first, where several did), or None."""
        return self.why.rules[0] if self.why.rules else None

    @classmethod
    def at(cls, key: str, template: str | Why, *, rule: str | tuple[str, ...] | None = None,
           summary: str = "", **values: object) -> Self:
        """The refusal of ``key``, told as ``key: why [summary]`` (``template`` and the values,
        or a :class:`Why` made before)."""
        why = template if isinstance(template, Why) else because(template, rule=rule, **values)
        text = f"{key}: {why.english()}"
        return cls(f"{text} {summary}" if summary else text, key=key, why=why)

    def told(self, message: str) -> Self:
        """The same refusal of the same key in other words (a step number or the position
        added by a caller that knows them)."""
        return type(self)(message, key=self.key, why=self.why)


def refused(key: str, template: str, *, rule: str | tuple[str, ...] | None = None,
            **values: object) -> IllegalEventError:
    """A refusal by the rules of ``key`` (what :func:`web_common.catalogs` extracts as words)."""
    return IllegalEventError.at(key, template, rule=rule, **values)


class MalformedEventError(IllegalEventError):
    """A step, option or setup object that is wrong in itself: an unknown key, a wrong type,
    an unknown name or a value out of range. It is a refusal like any other (docs/scenarios.md)."""


class NothingToUndoError(IllegalEventError):
    """An undo when every step has already been taken back (R19)."""
