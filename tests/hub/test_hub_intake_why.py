"""A board's refusal in data is checked before the hub keeps it; a wrong one is dropped."""

from __future__ import annotations

from typing import Any

import pytest

from hub.intake import command_result
from scorekeeper.errors import Field, Player, because

WHY = because("{who}'s score {n} is outside {low}..{high} (a score of {target} ends the round)",
              rule="R19", who=Player("black"), n=5, low=-1, high=4, target=5).to_json()


def answer(why: Any) -> dict[str, Any]:
    return {"id": "c1", "kind": "correct", "ok": False, "message": "correct.score: (R19)",
            "result": {}, "why": why, "at": 1.0}


def test_a_refusal_as_the_rules_make_it_is_kept() -> None:
    assert command_result(answer(WHY))["why"] == WHY
    nested = because("a shot is refused: {reason}", reason=because(
        "{field} is not on this board", field=Field("white.red"))).to_json()
    assert command_result(answer(nested))["why"] == nested


@pytest.mark.parametrize("why", [
    "black's score",  # not an object
    {**WHY, "template": "x" * 401},  # too long
    {**WHY, "values": {**WHY["values"], "who": {"player": "nobody"}}},  # no such player
    {**WHY, "values": {**WHY["values"], "n": {"number": 2**60}}},  # not a safe integer
    {**WHY, "values": {**WHY["values"], "n": {"html": "<b>"}}},  # an unknown kind
    {**WHY, "values": {"who": {"player": "black"}}},  # the sentence wants more values
    {**WHY, "template": "{who.__class__}"},  # not a plain place
    {**WHY, "rules": ["R1"] * 9},  # too many rulings
])
def test_a_wrong_refusal_is_dropped_and_the_english_kept(why: Any) -> None:
    kept = command_result(answer(why))
    assert kept["why"] is None and kept["message"] == "correct.score: (R19)"


def test_refusals_nested_too_deep_are_dropped() -> None:
    why: Any = WHY
    for _ in range(5):
        why = because("again: {reason}", reason=why).to_json()
    assert command_result(answer(why))["why"] is None
