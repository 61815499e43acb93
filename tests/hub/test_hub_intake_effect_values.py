"""The hub keeps the values a board sends with each effect (issue 26: fields, the other
player, the Hit on Red choice), checked as strictly as the rest, so its overlay words them
in another language from the values; an older board's effects without them still pass."""

from __future__ import annotations

import pytest

from hub import intake
from scorekeeper.events import parse_event
from scorekeeper.stream_words import last_shot_line
from tournament_wire import wire
from web_common.i18n import language

pytestmark = pytest.mark.unit

POINT = {"kind": "point", "player": "black", "amount": 1, "reason": "R3",
         "text": "black scores", "fields": ["white.yellow"], "who": "white", "red": "advance"}


def test_the_values_of_an_effect_are_kept() -> None:
    kept = intake.match_state({"last_effects": [POINT]})
    assert kept is not None
    (effect,) = kept["last_effects"]
    assert (effect["reason"], effect["fields"], effect["who"], effect["red"]) == ("R3",
        ["white.yellow"], "white", "advance")
    line = last_shot_line(parse_event({"shot": {"by": "black", "delta": {}}}),
                          kept["last_effects"], {"black": "Al", "white": "Bo"},
                          t=language("de"))
    assert line == "Schuss von Al: Al +1: Wertung, Gelb bei Bo"  # the ruling kept, named


def test_an_older_boards_effect_without_them_passes_unchanged() -> None:
    old = {k: POINT[k] for k in ("kind", "player", "amount", "reason", "text")}
    kept = intake.match_state({"last_effects": [old]})
    assert kept is not None and kept["last_effects"] == [old]


@pytest.mark.parametrize(("key", "value"), [
    ("fields", "white.yellow"), ("fields", ["x" * 65]), ("fields", ["white.red"] * 17),
    ("who", "grey"), ("red", "sideways"), ("red", None), ("reason", 3), ("reason", "R" * 65),
])
def test_a_bad_value_is_refused_naming_its_key(key: str, value: object) -> None:
    with pytest.raises(wire.WireError, match=rf"last_effects\[0\]\.{key}"):
        intake.match_state({"last_effects": [{**POINT, key: value}]})
