"""R11 Opening move and R12 Dislodged big skitt."""

import pytest
from rules_support import game, play, refused, score, shot

pytestmark = pytest.mark.unit

# -- R11 Opening move -------------------------------------------------------------------


def test_both_big_skitts_start_in_hand():
    m = game(big=None)
    assert dict(m.state.big) == {"black": "hand", "white": "hand"}
    assert m.state.must_place_big


def test_ordinary_shot_with_the_big_skitt_in_hand_is_refused():
    assert "big skitt first" in refused(game(big=None), shot("black", delta={}),
                                        key="shot.big", rule="R11, R12")


def test_big_skitt_placed_sticks_in_the_centre():
    m = play(game(big=None), shot("black", big="placed"))
    assert m.state.big["black"] == "center" and m.state.turn == "white"


def test_missed_big_skitt_stays_in_hand():
    m = play(game(big=None), shot("black", big="missed"))
    assert m.state.big["black"] == "hand" and m.state.turn == "white"


def test_big_skitt_shot_takes_nothing_from_the_pot():
    m = play(game(big=None), shot("black", big="placed"))
    assert m.state.pot == 20


def test_big_skitt_on_a_colour_field_gives_the_opponent_a_skitt():
    m = play(game(big=None), shot("black", big="white.yellow"))
    assert m.state.board["black.yellow"] == 1
    assert m.state.big["black"] == "hand"
    assert m.state.pot == 19


def test_gift_skitt_scores_for_the_opponent_like_an_own_goal():
    m = play(game(big=None, board={"black.yellow": 2}), shot("black", big="white.yellow"))
    assert score(m) == (0, 1)


def test_gift_skitt_asks_for_the_board_to_be_set_by_hand():
    m = play(game(big=None), shot("black", big="white.yellow"))
    assert m.state.board_must_change


def test_big_skitt_shot_while_it_is_in_the_centre_is_refused():
    assert "not in hand" in refused(game(), shot("black", big="placed"), key="shot.big", rule="R11")


def test_minus_is_not_a_landing_field_for_a_big_skitt():
    assert "placed" in refused(game(big=None), shot("black", big="minus"),
                               key="shot.big", rule="R20")


def test_new_round_puts_both_big_skitts_back_in_hand():
    m = play(game(board={"white.red": 2}, score={"black": 4}),
             shot("black", delta={"white.red": 1}))
    assert dict(m.state.big) == {"black": "hand", "white": "hand"}


# -- R12 Dislodged big skitt ------------------------------------------------------------


def test_knocking_a_big_skitt_loose_puts_the_shooters_in_hand():
    m = play(game(), shot("black", delta={}, knocked_big="loose"))
    assert dict(m.state.big) == {"black": "hand", "white": "center"}


def test_shooter_spends_the_next_turn_re_placing_it():
    m = play(game(), shot("black", delta={}, knocked_big="loose"), shot("white", delta={}))
    assert m.state.must_place_big
    refused(m, shot("black", delta={}), key="shot.big", rule="R11, R12")


def test_knocked_big_skitt_on_a_colour_field_gives_the_opponent_a_skitt():
    m = play(game(board={"black.blue": 2}),
             shot("black", delta={"white.red": 1}, knocked_big="white.blue"))
    assert m.state.board["black.blue"] == 3 and score(m) == (0, 1)


def test_other_effects_of_the_shot_count_as_usual():
    m = play(game(board={"white.red": 2}), shot("black", delta={"white.red": 1},
                                                   knocked_big="loose"))
    assert score(m) == (1, 0)


def test_no_big_skitt_to_knock_loose_when_both_are_in_hand():
    refused(game(big=None), shot("black", big="missed", knocked_big="loose"),
            key="shot.knocked_big", rule="R12")


def test_big_skitt_knocked_onto_minus_is_loose_not_minus():
    refused(game(), shot("black", delta={}, knocked_big="minus"),
            key="shot.knocked_big", rule="R20")


def test_big_shot_knocking_the_other_big_skitt_changes_nobodys_big_skitt():
    m = play(game(big={"black": "hand", "white": "center"}),
             shot("black", big="missed", knocked_big="loose"))
    assert dict(m.state.big) == {"black": "hand", "white": "center"}
