"""R1 Turns and R2 Pot."""

import pytest
from rules_support import game, play, refused, score, shot

pytestmark = pytest.mark.unit

# -- R1 Turns ---------------------------------------------------------------------------


def test_players_alternate_one_shot_a_turn():
    m = play(game(), shot("black", delta={}))
    assert m.state.turn == "white"


def test_shot_out_of_turn_is_refused_and_names_who_is_due():
    message = refused(game(), shot("white", delta={}), key="shot.by", rule="R1")
    assert "out of turn" in message and "black is due" in message


def test_refusal_message_summarises_the_state():
    message = refused(game(), shot("white", delta={}), key="shot.by", rule="R1")
    assert "[round 1, black to shoot, score black 0 white 0, pot 20]" in message


# -- R2 Pot -----------------------------------------------------------------------------


def test_setup_skitts_come_out_of_the_pot():
    assert game(board={"white.red": 2, "minus": 1}).state.pot == 17


def test_a_skitt_that_stays_on_the_board_leaves_the_pot():
    m = play(game(), shot("black", delta={"white.red": 1}))
    assert m.state.pot == 19


def test_a_loose_skitt_goes_back_to_the_pot():
    m = play(game(), shot("black", delta={}))
    assert m.state.pot == 20


def test_skitts_knocked_off_the_board_go_back_to_the_pot():
    m = play(game(board={"white.red": 2}), shot("black", delta={"white.red": -2}))
    assert m.state.pot == 20


def test_reading_adding_two_skitts_is_refused():
    assert "at most one skitt" in refused(
        game(), shot("black", delta={"white.red": 1, "white.blue": 1}), key="shot.delta", rule="R2")


def test_reading_leaving_a_field_below_zero_is_refused():
    assert "shot.delta.white.red" in refused(game(), shot("black", delta={"white.red": -1}),
                                             key="shot.delta.white.red", rule="R2")


def test_chain_counts_its_skitt_in_the_consistency_check():
    refused(game(), shot("black", delta={"minus": 1}, chain=["white.red", "white.blue"]),
            key="shot.delta", rule="R2")


def test_big_skitt_shot_adds_no_skitt_to_the_board():
    m = game(big=None, board={"white.red": 1})
    refused(m, shot("black", big="placed", delta={"white.blue": 1}), key="shot.delta", rule="R2")


def test_more_skitts_off_the_board_than_were_in_play_is_refused():
    assert "shot.off_board" in refused(game(), shot("black", off_board=2),
                                       key="shot.off_board", rule="R2")


def test_unknown_field_in_a_shot_is_refused_naming_it():
    assert "white.green" in refused(game(), shot("black", delta={"white.green": 1}),
                                    key="shot.delta", rule=None)


def test_empty_pot_ends_the_round_for_the_player_with_more_points():
    m = game(rules={"pot": 10}, board={"minus": 9}, score={"black": 2, "white": 1})
    play(m, shot("black", delta={"white.yellow": 1}))
    assert m.state.rounds == ("black",)
    assert m.state.turn == "white"


def test_empty_pot_with_equal_points_draws_the_round_and_calls_a_shootoff():
    m = game(rules={"pot": 10}, board={"minus": 9}, score={"black": 1, "white": 0})
    play(m, shot("black", delta={"minus": 1}))
    assert m.state.rounds == (None,)
    assert m.state.phase == "shootoff"
    assert dict(m.state.round_wins) == {"black": 0, "white": 0}


def test_pot_count_holds_after_a_round_win():
    m = game(board={"white.red": 2}, score={"black": 4})
    play(m, shot("black", delta={"white.red": 1}))
    assert m.state.pot == 19  # the winner's round counter holds one skitt
    assert score(m) == (0, 0)
