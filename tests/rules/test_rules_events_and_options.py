"""The vocabulary of the engine: options, setups, events and effects as JSON."""

import pytest
from rules_support import game

from scorekeeper.effects import Effect, EffectKind, Reason
from scorekeeper.errors import IllegalEventError, MalformedEventError, ScorekeeperError
from scorekeeper.events import (
    Correction,
    Decision,
    ShootOff,
    ShotEvent,
    Undo,
    parse_event,
)
from scorekeeper.options import Rules, Setup
from scorekeeper.state import initial_state

pytestmark = pytest.mark.unit

STEPS = [
    {"shot": {"by": "black", "delta": {"white.red": 1}}},
    {"shot": {"by": "white", "delta": {"white.red": 0}}},
    {"shot": {"by": "black", "big": "placed"}},
    {"shot": {"by": "white", "delta": {"black.red": 1}, "off_board": 1, "knocked_big": "loose",
              "red": ["back"], "opponent_red": ["advance"], "unblock": "black.blue",
              "invalid": True}},
    {"shot": {"by": "black", "delta": {}, "chain": ["white.red", "white.blue"],
              "blockade": {"from": "white.yellow", "to": "off"}}},
    {"shootoff": {"black": -1, "white": 5}},
    {"correct": {"score": {"black": 2}, "board": {"minus": 1}, "blocked": ["white.red"],
                 "round_wins": {"white": 1}, "turn": "white", "reason": "why"}},
    {"correct": {}},
    {"undo": True},
    {"decide": {"by": "black", "red": ["back"]}},
    {"decide": {"by": "white", "unblock": "black.red"}},
]


@pytest.mark.parametrize("step", STEPS)
def test_event_to_json_gives_back_the_step(step):
    assert parse_event(step).to_json() == step


@pytest.mark.parametrize("step", STEPS)
def test_parsed_event_round_trips_to_an_equal_event(step):
    event = parse_event(step)
    assert parse_event(event.to_json()) == event
    assert hash(event) == hash(parse_event(event.to_json()))


def test_parse_event_accepts_an_event():
    event = Undo()
    assert parse_event(event) is event


def test_event_types():
    kinds = [type(parse_event(s)) for s in STEPS]
    assert {ShotEvent, ShootOff, Correction, Undo, Decision} == set(kinds)


@pytest.mark.parametrize(("step", "named"), [
    ({"shot": {"delta": {}}}, "shot.by"),
    ({"shot": {"by": "grey"}}, "shot.by"),
    ({"shot": {"by": "black", "delta": {"white.red": "1"}}}, "shot.delta.white.red"),
    ({"shot": {"by": "black", "delta": {"white.red": True}}}, "shot.delta.white.red"),
    ({"shot": {"by": "black", "speed": 3}}, "speed"),
    ({"shot": {"by": "black", "off_board": -1}}, "shot.off_board"),
    ({"shot": {"by": "black", "chain": ["white.red"]}}, "shot.chain"),
    ({"shot": {"by": "black", "red": ["forward"]}}, "shot.red[0]"),
    ({"shot": {"by": "black", "blockade": {"from": "white.red"}}}, "shot.blockade.to"),
    ({"shot": {"by": "black", "invalid": "yes"}}, "shot.invalid"),
    ({"shootoff": {"black": 1}}, "shootoff.white"),
    ({"shootoff": {"black": 1.5, "white": 2}}, "shootoff.black"),
    ({"correct": {"score": {"grey": 1}}}, "correct.score"),
    ({"correct": {"blocked": ["white.red", "white.red"]}}, "correct.blocked"),
    ({"correct": {"colour": 1}}, "colour"),
    ({"undo": False}, "undo"),
    ({"decide": {"by": "black"}}, "decide"),
    ({"expect": {}}, "expect"),
    ({"shot": {}, "undo": True}, "exactly one"),
    ([1, 2], "expected an object"),
])
def test_malformed_step_is_refused_naming_the_key(step, named):
    with pytest.raises(MalformedEventError) as info:
        parse_event(step)
    assert named in str(info.value)


def test_errors_are_value_errors_and_scorekeeper_errors():
    assert issubclass(IllegalEventError, ValueError)
    assert issubclass(IllegalEventError, ScorekeeperError)
    assert issubclass(MalformedEventError, IllegalEventError)


# -- Rules and Setup --------------------------------------------------------------------


def test_rules_json_round_trip():
    rules = Rules(variant="classic", flipping=True, points_to_win_round=3,
                  rounds_to_win_game=3, pot=15, colors=("red", "green", "white"))
    assert Rules.from_json(rules.to_json()) == rules


def test_rules_defaults():
    assert Rules.from_json({}) == Rules() == Rules.from_json(None)
    assert Rules().to_json()["colors"] == ["red", "yellow", "blue"]


@pytest.mark.parametrize(("obj", "named"), [
    ({"variant": "quad"}, "rules.variant"),
    ({"flipping": 1}, "rules.flipping"),
    ({"points_to_win_round": 0}, "rules.points_to_win_round"),
    ({"rounds_to_win_game": "5"}, "rules.rounds_to_win_game"),
    ({"pot": 3}, "rules.pot"),
    ({"colors": ["blue", "red", "yellow"]}, "rules.colors"),
    ({"colors": ["red", "red", "blue"]}, "rules.colors"),
    ({"colors": ["red", "yellow"]}, "rules.colors"),
    ({"colors": ["red", "minus", "blue"]}, "rules.colors"),
    ({"colours": []}, "colours"),
])
def test_bad_rules_are_refused_naming_the_key(obj, named):
    with pytest.raises(MalformedEventError, match=named.replace(".", r"\.")):
        Rules.from_json(obj)


def test_renamed_colours_name_the_fields():
    m = game(rules={"colors": ["red", "green", "violet"]}, board={"white.green": 2})
    m.apply({"shot": {"by": "black", "delta": {"white.green": 1}}})
    assert m.state.score["black"] == 1
    assert "white.green" in m.state.to_json()["board"]


def test_setup_json_round_trip():
    obj = {"first": "white", "big": {"black": "center"}, "board": {"white.red": 2},
           "blocked": ["white.blue"], "score": {"black": -1}, "round_wins": {"white": 2},
           "round": 4}
    assert Setup.from_json(obj).to_json() == obj


@pytest.mark.parametrize(("obj", "named"), [
    ({"first": "grey"}, "setup.first"),
    ({"big": {"black": "pocket"}}, "setup.big.black"),
    ({"board": {"white.red": -1}}, "setup.board.white.red"),
    ({"score": {"black": "1"}}, "setup.score.black"),
    ({"round": 0}, "setup.round"),
    ({"turn": "black"}, "turn"),
])
def test_bad_setup_is_refused_naming_the_key(obj, named):
    with pytest.raises(MalformedEventError, match=named.replace(".", r"\.")):
        Setup.from_json(obj)


@pytest.mark.parametrize(("setup", "named"), [
    (Setup(board={"white.purple": 1}), "white.purple"),
    (Setup(score={"black": 5}), "setup.score.black"),
    (Setup(round_wins={"black": 5}), "setup.round_wins.black"),
    (Setup(board={"minus": 21}), "pot holds only 20"),
    (Setup(round_wins={"black": 2}, round=2), "setup.round"),
])
def test_setup_that_does_not_fit_the_rules_is_refused(setup, named):
    with pytest.raises(IllegalEventError, match=named):
        initial_state(Rules(), setup)


def test_setup_round_defaults_to_one_plus_round_wins():
    state = initial_state(Rules(), Setup(round_wins={"black": 2, "white": 1}))
    assert state.round == 4 and state.pot == 17


# -- Effects and the state as JSON ------------------------------------------------------


def test_every_reason_cites_its_clause():
    for reason in Reason:
        assert reason.clause.startswith("R")
        assert reason.__doc__ and reason.clause in reason.__doc__


def test_effect_to_json():
    effect = Effect(EffectKind.BACK, "white", -1, Reason.HIT_ON_RED,
                    "{white} \u22121 (back): Hit on Red")
    assert effect.to_json() == {"kind": "back", "player": "white", "amount": -1,
                                "reason": "R4", "text": "white \u22121 (back): Hit on Red",
                                "phrase": "{white} \u22121 (back): Hit on Red"}


def test_state_json_has_what_the_ui_renders():
    data = game().state.to_json()
    assert set(data) == {"rules", "phase", "turn", "winner", "round", "rounds", "score",
                         "round_wins", "board", "blocked", "pot", "kept", "minus_hits", "big",
                         "must_place_big",
                         "shootoff_due", "pending", "last_effects", "board_must_change"}
    assert list(data["board"]) == ["black.red", "black.yellow", "black.blue", "white.red",
                                   "white.yellow", "white.blue", "minus"]
    assert data["pending"] == {"red": [], "unblock": None}


def test_state_is_frozen():
    from dataclasses import FrozenInstanceError
    state = game().state
    with pytest.raises(FrozenInstanceError):
        state.turn = "white"  # type: ignore[misc]
    with pytest.raises(TypeError):
        state.board["white.red"] = 3  # type: ignore[index]
