"""A validation error's words in the reader's language, made from pydantic's error data.

FastAPI's 422 ``detail`` lists pydantic's errors, each with an English ``msg``. A page shows
``loc: msg`` to the person who filled in the form, so the ``msg`` is worded here from the
error's ``type`` and its ``ctx`` values (a limit, the values allowed), in the language of
the request. A type not listed keeps pydantic's English ``msg`` (it may carry a check's own
sentence, as a ``value_error`` does).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from scorekeeper.words import Words

Worder = Callable[[Words, Mapping[str, Any]], str]

_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\d+|True|False|None")


def _count(ctx: Mapping[str, Any], key: str) -> int:
    value = ctx.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _number(t: Words, value: Any) -> str:
    """A limit as the reader writes numbers (``0,5`` in German)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return t.number(value)
    return str(value)


def _choices(t: Words, expected: Any) -> str:
    """The values allowed (pydantic's ``'a', 'b' or 'c'``) joined in the reader's words."""
    text = str(expected)
    items = _QUOTED.findall(text)
    if len(items) < 2 or ", ".join(items[:-1]) + " or " + items[-1] != text:
        return text
    return t.gettext("{first} or {last}").format(first=", ".join(items[:-1]), last=items[-1])


WORDERS: dict[str, Worder] = {
    "missing": lambda t, c: t.gettext("Field required"),
    "extra_forbidden": lambda t, c: t.gettext("Extra inputs are not permitted"),
    "int_type": lambda t, c: t.gettext("Input should be a valid integer"),
    "int_parsing": lambda t, c: t.gettext("Input should be a valid integer"),
    "int_from_float": lambda t, c: t.gettext(
        "Input should be a whole number, not one with a fractional part"),
    "float_type": lambda t, c: t.gettext("Input should be a valid number"),
    "float_parsing": lambda t, c: t.gettext("Input should be a valid number"),
    "bool_type": lambda t, c: t.gettext("Input should be true or false"),
    "bool_parsing": lambda t, c: t.gettext("Input should be true or false"),
    "string_type": lambda t, c: t.gettext("Input should be a text"),
    "dict_type": lambda t, c: t.gettext("Input should be an object"),
    "model_type": lambda t, c: t.gettext("Input should be an object"),
    "model_attributes_type": lambda t, c: t.gettext("Input should be an object"),
    "list_type": lambda t, c: t.gettext("Input should be a list"),
    "string_too_short": lambda t, c: t.ngettext(
        "Text should have at least {n} character", "Text should have at least {n} characters",
        _count(c, "min_length")).format(n=_count(c, "min_length")),
    "string_too_long": lambda t, c: t.ngettext(
        "Text should have at most {n} character", "Text should have at most {n} characters",
        _count(c, "max_length")).format(n=_count(c, "max_length")),
    "too_short": lambda t, c: t.ngettext(
        "Should have at least {n} item, not {actual}",
        "Should have at least {n} items, not {actual}",
        _count(c, "min_length")).format(n=_count(c, "min_length"),
                                        actual=_count(c, "actual_length")),
    "too_long": lambda t, c: t.ngettext(
        "Should have at most {n} item, not {actual}",
        "Should have at most {n} items, not {actual}",
        _count(c, "max_length")).format(n=_count(c, "max_length"),
                                        actual=_count(c, "actual_length")),
    "greater_than": lambda t, c: t.gettext("Input should be greater than {limit}").format(
        limit=_number(t, c.get("gt"))),
    "greater_than_equal": lambda t, c: t.gettext(
        "Input should be greater than or equal to {limit}").format(limit=_number(t, c.get("ge"))),
    "less_than": lambda t, c: t.gettext("Input should be less than {limit}").format(
        limit=_number(t, c.get("lt"))),
    "less_than_equal": lambda t, c: t.gettext(
        "Input should be less than or equal to {limit}").format(limit=_number(t, c.get("le"))),
    "literal_error": lambda t, c: t.gettext("Input should be {expected}").format(
        expected=_choices(t, c.get("expected"))),
    "enum": lambda t, c: t.gettext("Input should be {expected}").format(
        expected=_choices(t, c.get("expected"))),
    "string_pattern_mismatch": lambda t, c: t.gettext(
        "Text should match the pattern {pattern}").format(pattern=c.get("pattern", "")),
    "json_invalid": lambda t, c: t.gettext("JSON decode error: {error}").format(
        error=c.get("error", "not JSON")),
}


def validation_message(error: Mapping[str, Any], t: Words) -> str:
    """One pydantic error's ``msg`` in the language ``t``, else pydantic's English ``msg``
    for a type without words here."""
    worder = WORDERS.get(str(error.get("type", "")))
    ctx = error.get("ctx")
    if worder is None:
        return str(error.get("msg", ""))
    try:
        return worder(t, ctx if isinstance(ctx, Mapping) else {})
    except (KeyError, ValueError, IndexError):  # a catalog's placeholders gone wrong
        return str(error.get("msg", ""))
