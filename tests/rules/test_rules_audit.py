"""Rulings the referee audit found the engine getting wrong, each pinned by a test."""

import pytest
from rules_support import game, play, score, shot

pytestmark = pytest.mark.unit


def test_opponent_may_push_back_late_when_the_shooters_red_point_is_fixed():
    """R4: "until the next shot the scorer may change a point to back". The shooter's red
    point against a player at −1 cannot change, so the opponent's own-goal point on red
    stays open for the opponent."""
    m = play(game(board={"white.red": 2, "black.red": 2, "minus": 1},
                  score={"black": 0, "white": -1}),
             shot("black", delta={"white.red": 1, "black.red": 1, "minus": -1}))
    assert score(m) == (1, 0)
    pending = m.state.to_json()["pending"]["red"]
    assert pending == [{"player": "white", "choices": ["advance"], "changeable": [True]}]
    m.apply({"decide": {"by": "white", "red": ["back"]}})
    assert score(m) == (0, -1)


def test_shot_with_off_board_keeps_the_opponents_red_point_open():
    """R4 with R6 (a penalty in the same shot): same as above."""
    m = play(game(board={"white.red": 2, "black.red": 2, "minus": 2},
                  score={"black": 1, "white": -1}),
             shot("black", delta={"white.red": 1, "black.red": 1, "minus": -2}, off_board=1))
    assert score(m) == (1, 0)
    assert [p.player for p in m.state.pending_red] == ["white"]


def test_opponent_may_push_back_late_for_a_gift_on_red_after_a_fixed_red_point():
    """R4 with R12 (the full resolution): black's red point against white at −1 is fixed;
    the gift skitt on black's red field gives white a point white may still push back."""
    m = play(game(board={"white.red": 2, "black.red": 2}, score={"black": 0, "white": -1}),
             shot("black", delta={"white.red": 1}, knocked_big="white.red"))
    assert score(m) == (1, 0)
    m.apply({"decide": {"by": "white", "red": ["back"]}})
    assert score(m) == (0, -1)
