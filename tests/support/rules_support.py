"""Helpers for the rules tests: set up a position like a scenario file, play steps, and
check that a refused step changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.errors import IllegalEventError
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup

CENTER = {"black": "center", "white": "center"}


def game(rules: dict[str, Any] | None = None, first: str | None = "black",
         big: dict[str, str] | None = CENTER, **setup: Any) -> Match:
    """A match in a position: both big skitts placed unless told otherwise."""
    return Match(Rules(**(rules or {})), Setup(first=first, big=big, **setup))  # type: ignore[arg-type]


def trio(**setup: Any) -> Match:
    """A Trio match (no big skitts)."""
    rules = {"variant": "trio", **setup.pop("rules", {})}
    return Match(Rules(**rules), Setup(first=setup.pop("first", "black"), **setup))


def shot(by: str, **kw: Any) -> dict[str, Any]:
    """A ``{"shot": ...}`` step."""
    return {"shot": {"by": by, **kw}}


def play(match: Match, *steps: dict[str, Any]) -> Match:
    for step in steps:
        match.apply(step)
    return match


def refused(match: Match, step: dict[str, Any], *, key: str | None, rule: str | None) -> str:
    """Assert ``step`` is refused for ``key`` (the input at fault, None when no one key is) by
    ``rule`` (the rulings that refuse it, "R11, R12"; None for an input wrong in itself, which
    no ruling refuses), and that nothing changed; return the message for any further check of
    its words."""
    before, logged = match.state, len(match.events)
    with pytest.raises(IllegalEventError) as info:
        match.apply(step)
    assert match.state is before
    assert len(match.events) == logged
    message = str(info.value)
    assert info.value.key == key, f"refused for {info.value.key!r}, not {key!r}: {message}"
    assert info.value.rules == (tuple(rule.split(", ")) if rule else ()), (
        f"refused by {info.value.rules or 'no ruling'}, not {rule or 'no ruling'}: {message}")
    assert info.value.rule == (rule.split(", ")[0] if rule else None)
    if rule is not None:
        assert f"({rule})" in message, f"the message does not cite {rule}: {message}"
    return message


def score(match: Match) -> tuple[int, int]:
    """(black, white)."""
    return match.state.score["black"], match.state.score["white"]
