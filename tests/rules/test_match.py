"""The match: a fold of its events, with undo, replay and the JSON the UI shows."""

import pytest
from rules_support import CENTER, game, play, refused, shot

from scorekeeper.errors import IllegalEventError, MalformedEventError, NothingToUndoError
from scorekeeper.events import ShotEvent, Undo, parse_event
from scorekeeper.match import CHECKPOINT_EVERY, Match
from scorekeeper.options import Rules, Setup

pytestmark = pytest.mark.unit


def test_apply_accepts_a_step_object_or_an_event():
    m = game()
    m.apply(shot("black", delta={}))
    m.apply(parse_event(shot("white", delta={})))
    assert m.state.turn == "black"


def test_events_hold_every_accepted_step_undos_included():
    m = play(game(), shot("black", delta={}), {"undo": True})
    assert m.events == (parse_event(shot("black", delta={})), Undo())


def test_refused_step_is_not_logged():
    m = game()
    refused(m, shot("white", delta={}), key="shot.by", rule="R1")
    assert m.events == ()


def test_can_undo_follows_the_steps_left():
    m = game()
    assert not m.can_undo
    play(m, shot("black", delta={}))
    assert m.can_undo
    play(m, {"undo": True})
    assert not m.can_undo


def test_undo_with_nothing_left_raises_nothing_to_undo():
    with pytest.raises(NothingToUndoError):
        game().apply({"undo": True})


def test_undo_returns_an_effect_naming_the_step():
    m = play(game(), shot("black", delta={}))
    (effect,) = m.apply({"undo": True})
    assert effect.text == "took back black's shot" and effect.reason.clause == "R19"


def test_undo_across_many_steps_restores_every_earlier_state():
    m = game(rules={"pot": 200})
    states = [m.state]
    for i in range(3 * CHECKPOINT_EVERY + 5):
        by = m.state.turn
        m.apply(shot(by, delta={"minus": 1} if i % 7 == 0 else {}))
        states.append(m.state)
    for expected in reversed(states[:-1]):
        m.apply({"undo": True})
        assert m.state == expected


def test_a_frozen_copy_stays_as_it_was_while_the_match_goes_on_and_back():
    m = game(rules={"pot": 200})
    for _ in range(CHECKPOINT_EVERY + 3):
        m.apply(shot(m.state.turn, delta={}))
    frozen = m.frozen()
    state, events, last = m.state, m.events, m.last_standing
    for _ in range(CHECKPOINT_EVERY + 2):  # back past a kept state, then on again
        m.apply({"undo": True})
    m.apply(shot(m.state.turn, delta={}))
    assert (frozen.state, frozen.events, frozen.last_standing) == (state, events, last)
    assert not any(frozen.taken_back(i) for i in range(len(events)))
    frozen.apply({"undo": True})  # and it goes on by itself, the original untouched
    assert frozen.taken_back(len(events) - 1) and not m.taken_back(0)


def test_replay_rebuilds_the_match_exactly():
    m = play(game(board={"white.red": 2}), shot("black", delta={"white.red": 1}),
             {"decide": {"by": "black", "red": ["back"]}}, shot("white", delta={}),
             {"undo": True}, {"correct": {"score": {"white": 3}, "reason": "r"}})
    again = Match.replay(m.rules, m.setup, [e.to_json() for e in m.events])
    assert again.state == m.state and again.events == m.events


def test_replay_names_the_refused_step():
    with pytest.raises(IllegalEventError, match="step 2"):
        Match.replay(Rules(), Setup(first="black", big=CENTER),
                     [shot("black", delta={}), shot("black", delta={})])


def test_replay_of_an_undo_with_nothing_to_undo_is_refused():
    with pytest.raises(NothingToUndoError, match="step 1"):
        Match.replay(Rules(), Setup(), [{"undo": True}])


def test_replay_of_a_long_log_ends_where_playing_it_did():
    # Speed is measured by bench/, not here; this checks the long log replays exactly.
    steps = [ShotEvent(parse_event(shot("black", delta={})).shot),
             ShotEvent(parse_event(shot("white", delta={})).shot)] * 10_000
    played = Match(Rules(), Setup(first="black", big=CENTER))
    for step in steps:
        played.apply(step)
    replayed = Match.replay(Rules(), Setup(first="black", big=CENTER), steps)
    assert replayed.state == played.state
    assert len(replayed.events) == 20_000


def test_to_json_adds_names_and_can_undo():
    m = Match(Rules(), Setup(first="black"), names={"black": "Ada", "white": "Bo"})
    data = m.to_json()
    assert data["names"] == {"black": "Ada", "white": "Bo"}
    assert data["can_undo"] is False and data["turn"] == "black"


def test_names_must_be_for_the_two_players():
    with pytest.raises(MalformedEventError, match="names"):
        Match(names={"grey": "X"})  # type: ignore[dict-item]


def test_setup_refused_by_the_rules_raises():
    with pytest.raises(IllegalEventError, match=r"\(R19\)") as refused_setup:
        Match(Rules(), Setup(score={"black": 9}))
    assert refused_setup.value.key == "setup.score.black"


def test_last_effects_are_the_last_steps_effects():
    m = game(board={"white.red": 2})
    effects = m.apply(shot("black", delta={"white.red": 1}))
    assert m.state.last_effects == effects
    assert m.to_json()["last_effects"][0]["reason"] == "R3"


def test_a_hand_made_shot_with_lists_counts_like_a_parsed_one():
    from scorekeeper.shot import Shot
    m = game(board={"white.red": 2}, score={"white": 2})
    m.apply(Shot(by="black", delta={"white.red": 1}, red=["back"]))  # type: ignore[arg-type]
    assert (m.state.score["black"], m.state.score["white"]) == (0, 1)
    assert m.events[0].to_json() == shot("black", delta={"white.red": 1}, red=["back"])


def test_the_match_tells_which_steps_an_undo_took_back():
    # R19: an undo takes back the newest step still standing; undos in a row go further back.
    m = play(game(), shot("black", delta={}), shot("white", delta={}), {"undo": True},
             shot("white", delta={}), {"undo": True}, {"undo": True})
    assert [m.taken_back(i) for i in range(len(m.events))] == [
        True, True, False, True, False, False]
    assert m.last_standing is None
    play(m, shot("black", delta={}))
    assert m.last_standing == 6 and not m.taken_back(6)


def test_the_standing_steps_survive_undos_across_kept_states():
    m = game(rules={"pot": 200})
    for _ in range(2 * CHECKPOINT_EVERY + 3):
        m.apply(shot(m.state.turn, delta={}))
    for _ in range(CHECKPOINT_EVERY + 5):
        m.apply({"undo": True})
    standing = CHECKPOINT_EVERY - 2
    assert m.last_standing == standing - 1
    assert [m.taken_back(i) for i in range(2 * CHECKPOINT_EVERY + 3)] == (
        [False] * standing + [True] * (CHECKPOINT_EVERY + 5))


@pytest.mark.parametrize(("step", "key"), [
    ({"shot": {"by": "black", "delta": {"white.red": "one"}}}, "shot.delta.white.red"),
    ({"shot": {"by": "black", "blockade": {"from": "white.red"}}}, "shot.blockade.to"),
    ({"correct": {"score": {"grey": 1}}}, "correct.score"),
    ({"decide": {"by": "black", "red": ["sideways"]}}, "decide.red[0]"),
    ({"shot": {"by": "white", "delta": {}}}, "shot.by"),
    ({"shot": {"by": "black", "delta": {"white.purple": 1}}}, "shot.delta"),
    ({"correct": {"score": {"black": 99}}}, "correct.score.black"),
    ({"undo": True}, "undo"),
])
def test_a_refusal_names_the_key_at_fault_apart_from_its_words(step, key):
    with pytest.raises(IllegalEventError) as err:
        game().apply(step)
    assert err.value.key == key
    assert str(err.value).startswith(key)


def test_a_replay_keeps_the_key_when_it_adds_the_step_number():
    with pytest.raises(IllegalEventError, match=r"^step 2: shot\.by") as err:
        Match.replay(Rules(), Setup(first="black", big=CENTER),
                     [shot("black", delta={}), shot("black", delta={})])
    assert err.value.key == "shot.by"
    with pytest.raises(MalformedEventError, match=r"^step 1: step: not JSON") as bad:
        Match.replay_json(Rules(), Setup(first="black"), ["{"])
    assert bad.value.key == "step"
