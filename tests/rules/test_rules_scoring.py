"""R3 Scoring, R4 Hit on Red, R5 Clearing, R6 Penalties, R7 Own goals."""

import pytest
from rules_support import game, play, refused, score, shot

from scorekeeper.effects import Reason
from scorekeeper.rules.scoring import points_for

pytestmark = pytest.mark.unit

# -- R3 Scoring -------------------------------------------------------------------------


@pytest.mark.parametrize(("n0", "n1", "points"), [
    (0, 1, 0), (1, 2, 0), (2, 3, 1), (0, 3, 1), (1, 4, 2), (3, 5, 2), (4, 4, 0), (5, 3, 0),
])
def test_points_are_skitts_beyond_the_second(n0, n1, points):
    assert points_for(n0, n1) == points


def test_first_two_skitts_on_a_field_score_nothing():
    m = play(game(), shot("black", delta={"white.yellow": 1}), shot("white", delta={}),
             shot("black", delta={"white.yellow": 1}))
    assert score(m) == (0, 0)


def test_third_skitt_scores_one_point():
    m = play(game(board={"white.yellow": 2}), shot("black", delta={"white.yellow": 1}))
    assert score(m) == (1, 0)


def test_effect_names_the_skitt_and_the_field():
    effects = game(board={"white.yellow": 2}).apply(shot("black", delta={"white.yellow": 1}))
    assert [e.text for e in effects] == ["black +1: third skitt on white's yellow field"]
    assert effects[0].reason is Reason.SCORING
    assert effects[0].to_json()["reason"] == "R3"


def test_field_that_lost_skitts_scores_nothing():
    m = play(game(board={"white.yellow": 4}), shot("black", delta={"white.yellow": -1}))
    assert score(m) == (0, 0)


# -- R4 Hit on Red ----------------------------------------------------------------------


def test_red_point_advances_by_default():
    m = play(game(board={"white.red": 2}), shot("black", delta={"white.red": 1}))
    assert score(m) == (1, 0)


def test_red_point_back_sets_the_other_player_back():
    m = game(board={"white.red": 2}, score={"white": 3})
    play(m, shot("black", delta={"white.red": 1}, red=["back"]))
    assert score(m) == (0, 2)


def test_red_choices_apply_point_by_point():
    m = game(board={"white.red": 2, "white.blue": 1}, score={"white": 3})
    play(m, shot("black", delta={"white.red": 2, "white.blue": -1}, red=["back", "advance"]))
    assert score(m) == (1, 2)


def test_back_is_not_possible_against_a_player_at_minus_one():
    m = game(board={"white.red": 2}, score={"white": -1})
    play(m, shot("black", delta={"white.red": 1}, red=["back"]))
    assert score(m) == (1, -1)


def test_red_point_stays_open_for_back_until_the_next_shot():
    m = play(game(board={"white.red": 2}), shot("black", delta={"white.red": 1}))
    pending = m.state.to_json()["pending"]["red"]
    assert pending == [{"player": "black", "choices": ["advance"], "changeable": [True]}]


def test_late_back_decision_rescores_the_point():
    m = play(game(board={"white.red": 2}, score={"white": 2}),
              shot("black", delta={"white.red": 1}),
              {"decide": {"by": "black", "red": ["back"]}})
    assert score(m) == (0, 1)
    assert m.state.pending_red == ()


def test_late_decision_by_the_other_player_is_refused():
    m = play(game(board={"white.red": 2}), shot("black", delta={"white.red": 1}))
    assert "black's" in refused(m, {"decide": {"by": "white", "red": ["back"]}},
                                key="decide.by", rule="R4")


def test_late_red_choice_lapses_with_the_next_shot():
    m = play(game(board={"white.red": 2}), shot("black", delta={"white.red": 1}),
              shot("white", delta={}))
    refused(m, {"decide": {"by": "black", "red": ["back"]}}, key="decide", rule="R4, R16")


def test_late_decision_cannot_turn_back_into_advance():
    m = play(game(board={"white.red": 2, "minus": 1}, score={"white": 2}),
              shot("black", delta={"white.red": 2, "minus": -1}, red=["back"]))
    assert "only be changed to back" in refused(m, {"decide": {"by": "black",
                                                               "red": ["advance", "back"]}},
                                                key="decide.red[0]", rule="R4")


def test_point_against_a_player_at_minus_one_is_not_changeable():
    m = play(game(board={"white.red": 2}, score={"white": -1}),
              shot("black", delta={"white.red": 1}))
    assert m.state.pending_red == ()


def test_point_that_ended_the_round_cannot_be_changed():
    m = play(game(board={"white.red": 2}, score={"black": 4}),
              shot("black", delta={"white.red": 1}))
    refused(m, {"decide": {"by": "black", "red": ["back"]}}, key="decide", rule="R4, R16")


# -- R5 Clearing ------------------------------------------------------------------------


def test_second_skitt_facing_a_home_field_of_two_clears_both():
    m = play(game(board={"white.blue": 1, "black.blue": 2}),
             shot("black", delta={"white.blue": 1}))
    assert (m.state.board["white.blue"], m.state.board["black.blue"]) == (0, 0)
    assert m.state.pot == 20


def test_clearing_says_so_in_plain_words():
    effects = game(board={"white.blue": 1, "black.blue": 2}).apply(
        shot("black", delta={"white.blue": 1}))
    assert [e.text for e in effects] == ["cleared blue on both sides"]
    assert game().state.board_must_change is False


def test_clearing_asks_for_the_board_to_be_set_by_hand():
    m = play(game(board={"white.blue": 1, "black.blue": 2}),
             shot("black", delta={"white.blue": 1}))
    assert m.state.board_must_change


def test_points_beyond_the_second_count_before_clearing():
    m = play(game(board={"white.blue": 1, "black.blue": 2, "white.red": 1}),
             shot("black", delta={"white.blue": 2, "white.red": -1}))
    assert score(m) == (1, 0)
    assert m.state.board["white.blue"] == 0


def test_no_clearing_when_the_home_field_holds_fewer_than_two():
    m = play(game(board={"white.blue": 1, "black.blue": 1}),
             shot("black", delta={"white.blue": 1}))
    assert m.state.board["white.blue"] == 2


def test_no_clearing_when_the_field_already_held_two():
    m = play(game(board={"white.blue": 2, "black.blue": 2}),
             shot("black", delta={"white.blue": 1}))
    assert m.state.board["white.blue"] == 3 and score(m) == (1, 0)


# -- R6 Penalties -----------------------------------------------------------------------


def test_skitt_on_the_minus_field_is_a_penalty_point():
    m = play(game(score={"black": 2}), shot("black", delta={"minus": 1}))
    assert score(m) == (1, 0)


def test_skitt_off_the_board_is_a_penalty_point():
    m = play(game(score={"black": 2}), shot("black", off_board=1))
    assert score(m) == (1, 0)


def test_penalty_stops_at_minus_one():
    m = play(game(), shot("black", delta={"minus": 1}))
    assert score(m) == (-1, 0)


def test_penalty_at_minus_one_gives_the_opponent_a_point():
    m = play(game(score={"black": -1}), shot("black", off_board=1))
    assert score(m) == (-1, 1)


def test_penalty_effect_reads_plainly():
    effects = game().apply(shot("black", delta={"minus": 1}))
    assert effects[0].text.startswith("penalty to black: skitt on the minus field")
    assert effects[0].amount == -1


def test_skitts_removed_from_minus_are_no_penalty():
    m = play(game(board={"minus": 2}), shot("black", delta={"minus": -1}))
    assert score(m) == (0, 0)


# -- R7 Own goals -----------------------------------------------------------------------


def test_own_goal_counts_for_the_opponent():
    m = play(game(board={"black.yellow": 2}), shot("black", delta={"black.yellow": 1}))
    assert score(m) == (0, 1)
    assert m.state.board["black.yellow"] == 3


def test_own_goal_on_red_is_the_opponents_choice():
    m = play(game(board={"black.red": 2}, score={"black": 2}),
             shot("black", delta={"black.red": 1}, opponent_red=["back"]))
    assert score(m) == (1, 0)


def test_own_goal_never_clears():
    m = play(game(board={"black.yellow": 1, "white.yellow": 2}),
             shot("black", delta={"black.yellow": 1}))
    assert m.state.board["black.yellow"] == 2


def test_own_goal_on_a_field_the_shot_clears_scores_nothing():
    m = play(game(board={"white.yellow": 1, "black.yellow": 2, "white.blue": 1}),
             shot("black", delta={"white.yellow": 1, "black.yellow": 1, "white.blue": -1}))
    assert score(m) == (0, 0)
