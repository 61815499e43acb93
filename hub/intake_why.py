"""What the hub accepts as a board's refusal in data (``why`` in a command's answer).

The board sends the rules' refusal as :meth:`scorekeeper.errors.Why.to_json` beside its
English ``message``, so the hub can word it in its pages' languages. It is input from the
network like the rest of the answer (``hub.intake``): bounded in size and
depth, every value tagged with a kind the rules use, a player one the rules know, and the
sentence one its values fill. A ``why`` that fails is dropped; the English ``message`` stays.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter
from typing import Any

from scorekeeper import checks
from scorekeeper.errors import ScorekeeperError, Why
from tournament_wire import wire

MAX_TEMPLATE = 400
"""Characters of a refusal's sentence (the longest the rules write is about 200)."""
MAX_VALUES = 12
MAX_RULES = 8
MAX_FIELDS = 32
MAX_DEPTH = 3
"""Refusals nested in a refusal (the rules nest one)."""
MAX_TEXT = 1000
"""Characters of an input quoted in a refusal (a reason is at most 500)."""
MAX_ID = 64


def _text(value: Any, key: str, limit: int) -> str:
    if not isinstance(value, str):
        raise wire.WireError(f"{key}: expected a text, got {checks.show(value)}")
    if len(value) > limit:
        raise wire.WireError(f"{key}: longer than {limit} characters")
    return value


def _value(value: Any, key: str, depth: int) -> dict[str, Any]:
    if not isinstance(value, Mapping) or len(value) != 1:
        raise wire.WireError(f"{key}: expected one tagged value")
    ((kind, inner),) = value.items()
    if kind == "why":
        return {"why": _checked(inner, key, depth + 1)}
    if kind == "player":
        try:
            return {"player": str(checks.player(inner, key))}
        except ScorekeeperError as exc:
            raise wire.WireError(str(exc)) from None
    if kind == "field":
        return {"field": _text(inner, key, MAX_ID)}
    if kind == "fields":
        if not isinstance(inner, list) or len(inner) > MAX_FIELDS:
            raise wire.WireError(f"{key}: expected at most {MAX_FIELDS} fields")
        return {"fields": [_text(f, key, MAX_ID) for f in inner]}
    if kind == "number":
        try:
            return {"number": checks.integer(inner, key, -checks.MAX_INT, checks.MAX_INT)}
        except ScorekeeperError as exc:
            raise wire.WireError(str(exc)) from None
    if kind == "text":
        return {"text": _text(inner, key, MAX_TEXT)}
    raise wire.WireError(f"{key}: unknown kind of value {checks.show(kind)}")


def _checked(data: Any, key: str, depth: int) -> dict[str, Any]:
    if depth > MAX_DEPTH:
        raise wire.WireError(f"{key}: refusals nested deeper than {MAX_DEPTH}")
    if not isinstance(data, Mapping):
        raise wire.WireError(f"{key}: expected an object, got {checks.show(data)}")
    template = _text(data.get("template"), f"{key}.template", MAX_TEMPLATE)
    rules, values = data.get("rules", []), data.get("values", {})
    if not isinstance(rules, list) or len(rules) > MAX_RULES:
        raise wire.WireError(f"{key}.rules: expected at most {MAX_RULES} rulings")
    if not isinstance(values, Mapping) or len(values) > MAX_VALUES:
        raise wire.WireError(f"{key}.values: expected at most {MAX_VALUES} values")
    if values:  # each place a plain name of a value: never an attribute, index or position
        places = [f for _, f, _, _ in Formatter().parse(template) if f is not None]
        if any(not p.isidentifier() or p not in values for p in places):
            raise wire.WireError(f"{key}.template: a place its values do not fill")
    return {"template": template,
            "rules": [_text(r, f"{key}.rules", MAX_ID) for r in rules],
            "values": {_text(k, f"{key}.values", MAX_ID): _value(v, f"{key}.values.{k}", depth)
                       for k, v in values.items()}}


def refusal_why(data: Any) -> dict[str, Any] | None:
    """The board's ``why`` as the hub keeps it, or None (none sent, or not one the hub can
    word: then only the English ``message`` shows)."""
    if data is None:
        return None
    try:
        checked = _checked(data, "why", 0)
        Why.from_json(checked).english()  # its sentence takes exactly these values
    except (wire.WireError, KeyError, IndexError, ValueError, AttributeError, TypeError):
        return None
    return checked
