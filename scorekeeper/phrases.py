"""Rules sentences with their players and fields left open, so words come in names.

The rules write ``{black} +1: third skitt on {white}'s yellow field``: a phrase. Filled with
the side ids it is the referee's exact log text (``black +1: ...``); filled with the players'
names it is what a page shows (``Al +1: ... Bo's yellow field``). Nothing is ever searched
for side ids afterwards, so a person's own words put into a phrase (:func:`literal`, e.g. a
correction's reason) are shown exactly as typed.
"""

from __future__ import annotations

import re
from collections.abc import Callable


def slot(player: str) -> str:
    """The place of a player in a phrase: ``{white}``."""
    return "{" + player + "}"


def field_slot(name: str) -> str:
    """The place of a field by its id in a phrase: ``{white.red}`` (``Bo's red``)."""
    return "{" + name + "}"


def literal(text: str) -> str:
    """A person's text put into a phrase, shown as typed (braces and all)."""
    return text.replace("{", "{{").replace("}", "}}")


_PLACE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")
"""A place in a phrase (``{white}``, ``{white.red}``) or an escaped brace (``{{``, ``}}``)."""


def fill(phrase: str, player: Callable[[str], str], field: Callable[[str], str]) -> str:
    """``phrase`` with each player's and field's place filled by ``player``/``field`` (one
    regular-expression pass: every published state words its log's tail this way)."""

    def one(m: re.Match[str]) -> str:
        name = m.group(1)
        if name is None:
            return m.group(0)[0]
        return field(name) if "." in name else player(name)

    return _PLACE.sub(one, phrase)


def _same(word: str) -> str:
    return word


def plain(phrase: str) -> str:
    """The phrase with side and field ids: the rules' log text."""
    return fill(phrase, _same, _same)
