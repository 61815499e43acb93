"""The review's words come from the events themselves, and an amend builds the shot itself.

``step_words`` describes a step from its event (as the table's own path does), never from
its JSON; ``amended_shot`` keeps the shot's values and parses only what a person adds.
"""

from __future__ import annotations

import pytest

from scorekeeper.errors import IllegalEventError
from scorekeeper.events import Correction, ShotEvent, Undo, parse_event
from web.table.match_log import amended_shot
from web.table.review import step_words

pytestmark = pytest.mark.unit

NAMES = {"black": "Ann", "white": "Bo"}


def shot(**fields: object) -> ShotEvent:
    event = parse_event({"shot": {"by": "black", **fields}})
    assert isinstance(event, ShotEvent)
    return event


def test_a_shot_is_told_from_its_event_in_the_players_words() -> None:
    event = shot(delta={"white.red": -1, "white.yellow": 1, "minus": 1}, off_board=2,
                 chain=["black.red", "white.blue"], invalid=True)
    assert step_words(event, NAMES) == (
        "Ann: +1 skitt on Bo's yellow, +1 skitt on the minus field, 1 skitt off Bo's red, "
        "2 skitts off the board, chain Ann's red to Bo's blue, declared invalid"
    )
    assert step_words(shot(big="white.yellow", knocked_big="loose"), NAMES) == (
        "Ann: big skitt on Bo's yellow, knocked a big skitt loose"
    )
    assert step_words(shot(delta={}, knocked_big=["loose", "white.red"]), NAMES) == (
        "Ann: knocked both big skitts loose"
    )
    assert step_words(shot(delta={}), NAMES) == "Ann: nothing changed"


def test_other_steps_are_told_by_their_kind() -> None:
    assert step_words(Undo(), NAMES) == "undo"
    assert step_words(Correction(reason="set up"), NAMES) == "correct"


def test_an_amend_keeps_the_shot_and_adds_only_what_a_person_gives() -> None:
    before = shot(delta={"white.red": 1}, off_board=1, red=["back"])
    after = amended_shot(before, {"chain": ["black.red", "white.blue"], "off_board": None})
    assert after.shot.delta == before.shot.delta and after.shot.red == ("back",)
    assert after.shot.chain == ("black.red", "white.blue")
    assert after.shot.off_board == 0
    assert after == parse_event({"shot": {"by": "black", "delta": {"white.red": 1},
                                          "red": ["back"], "chain": ["black.red", "white.blue"]}})


def test_an_amend_refuses_a_key_or_a_value_naming_it() -> None:
    with pytest.raises(ValueError, match="delta: not something to add to a shot"):
        amended_shot(shot(delta={}), {"delta": {"minus": 1}})
    with pytest.raises(IllegalEventError) as refused:
        amended_shot(shot(delta={}), {"red": ["sideways"]})
    assert refused.value.key == "shot.red[0]"
