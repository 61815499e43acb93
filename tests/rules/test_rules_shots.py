"""R8 Invalid shots, R9 Losses without effect, R10 Order of effects."""

import pytest
from rules_support import game, play, score, shot

from scorekeeper.effects import Reason

pytestmark = pytest.mark.unit

# -- R8 Invalid shots -------------------------------------------------------------------


def test_shot_taking_a_skitt_off_a_home_field_has_no_effect():
    m = game(board={"black.red": 1, "white.yellow": 2})
    before = m.state
    play(m, shot("black", delta={"black.red": -1, "white.yellow": 1}))
    assert m.state.board == before.board and score(m) == (0, 0) and m.state.pot == before.pot


def test_invalid_shot_passes_the_turn():
    m = play(game(board={"black.red": 1}), shot("black", delta={"black.red": -1}))
    assert m.state.turn == "white"


def test_invalid_shot_asks_for_the_board_to_be_restored():
    effects = game(board={"black.red": 1}).apply(shot("black", delta={"black.red": -1}))
    assert effects[0].reason is Reason.INVALID
    assert "restore" in effects[0].text


def test_referee_may_declare_any_shot_invalid():
    m = play(game(board={"white.yellow": 2}),
             shot("black", delta={"white.yellow": 1}, invalid=True))
    assert score(m) == (0, 0) and m.state.board["white.yellow"] == 2


# -- R9 Losses without effect -----------------------------------------------------------


def test_skitts_knocked_off_opposite_fields_cost_nothing():
    m = play(game(board={"white.yellow": 3}), shot("black", delta={"white.yellow": -2}))
    assert score(m) == (0, 0)


def test_moved_skitt_counts_where_it_lands():
    m = play(game(board={"white.yellow": 1, "white.blue": 2}),
             shot("black", delta={"white.yellow": -1, "white.blue": 2}))
    assert score(m) == (2, 0)


# -- R10 Order of effects ---------------------------------------------------------------


def test_shooters_points_come_before_the_opponents():
    m = game(board={"white.yellow": 2, "black.yellow": 2, "white.blue": 1},
             score={"black": 4, "white": 4})
    play(m, shot("black", delta={"white.yellow": 1, "black.yellow": 1, "white.blue": -1}))
    assert m.state.rounds == ("black",)


def test_rest_of_the_shot_is_void_once_the_round_is_won():
    m = game(board={"white.yellow": 2}, score={"black": 4})
    effects = m.apply(shot("black", delta={"white.yellow": 1}, off_board=1))
    assert [e.kind for e in effects] == ["point", "round", "turn"]


def test_penalties_come_before_the_opponents_points():
    m = game(board={"black.yellow": 2, "white.blue": 1}, score={"black": 1, "white": 1})
    effects = m.apply(shot("black", delta={"black.yellow": 1, "white.blue": -1}, off_board=1))
    assert [e.kind for e in effects] == ["penalty", "point"]


def test_points_on_fields_come_in_colour_order():
    m = game(board={"white.red": 2, "white.blue": 2, "white.yellow": 1})
    effects = m.apply(shot("black", delta={"white.blue": 1, "white.red": 1,
                                           "white.yellow": -1}))
    assert [e.text.split(" on ", 1)[1] for e in effects] == [
        "white's red field (Hit on Red: advance)", "white's blue field"]
