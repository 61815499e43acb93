"""R13 Rounds and the game, R14 Shoot-off, R17 Trio, R18 Handicaps."""

import pytest
from rules_support import game, play, refused, score, shot, trio

from scorekeeper.errors import IllegalEventError
from scorekeeper.match import Match
from scorekeeper.options import Handicap, Rules, Setup

pytestmark = pytest.mark.unit

# -- R13 Rounds and the game ------------------------------------------------------------


def test_five_points_win_the_round_at_once():
    m = play(game(board={"white.red": 2}, score={"black": 4}),
             shot("black", delta={"white.red": 1}))
    assert m.state.rounds == ("black",) and m.state.round_wins["black"] == 1


def test_new_round_clears_the_board_and_the_scores():
    m = play(game(board={"white.red": 2, "black.blue": 1}, score={"black": 4, "white": 3}),
             shot("black", delta={"white.red": 1}))
    assert sum(m.state.board.values()) == 0 and score(m) == (0, 0) and m.state.round == 2


def test_loser_of_the_round_starts_the_next():
    m = play(game(board={"white.red": 2}, score={"black": 4}),
             shot("black", delta={"white.red": 1}))
    assert m.state.turn == "white"


def test_round_target_is_an_option():
    m = play(game(rules={"points_to_win_round": 2}, board={"white.red": 2}, score={"black": 1}),
             shot("black", delta={"white.red": 1}))
    assert m.state.rounds == ("black",)


def test_game_target_round_win_ends_the_game():
    m = play(game(rules={"rounds_to_win_game": 3}, board={"white.red": 2}, score={"black": 4},
                  round_wins={"black": 2}),
             shot("black", delta={"white.red": 1}))
    assert (m.state.phase, m.state.winner, m.state.turn) == ("game_over", "black", None)


def test_game_end_keeps_the_deciding_scores_and_clears_the_board():
    m = play(game(rules={"rounds_to_win_game": 3}, board={"white.red": 2}, score={"black": 4},
                  round_wins={"black": 2}),
             shot("black", delta={"white.red": 1}))
    assert score(m) == (5, 0) and m.state.round == 3 and sum(m.state.board.values()) == 0


def test_finished_game_accepts_no_shot():
    m = play(game(rules={"rounds_to_win_game": 1}, board={"white.red": 2}, score={"black": 4}),
             shot("black", delta={"white.red": 1}))
    assert "game is over" in refused(m, shot("white", delta={}), key="shot.by",
                                     rule="R13")


def test_tie_before_the_final_round_starts_with_a_shootoff():
    m = play(game(board={"white.red": 2}, score={"black": 4},
                  round_wins={"black": 3, "white": 4}),
             shot("black", delta={"white.red": 1}))
    assert m.state.phase == "shootoff" and m.state.turn is None


# -- R14 Shoot-off ----------------------------------------------------------------------


def test_game_without_a_first_player_starts_with_a_shootoff():
    m = game(first=None)
    assert m.state.shootoff_due and m.state.to_json()["shootoff_due"] is True


def test_nearer_to_space_five_starts():
    m = play(game(first=None), {"shootoff": {"black": 3, "white": 6}})
    assert m.state.turn == "white" and m.state.phase == "playing"


def test_equal_distance_shoots_again():
    m = play(game(first=None), {"shootoff": {"black": 3, "white": 7}})
    assert m.state.phase == "shootoff"


def test_off_the_track_is_minus_one():
    m = play(game(first=None), {"shootoff": {"black": -1, "white": 11}})
    assert m.state.phase == "shootoff"


def test_shootoff_value_below_minus_one_is_refused():
    refused(game(first=None), {"shootoff": {"black": -2, "white": 3}}, key="shootoff.black",
            rule=None)


def test_shootoff_when_none_is_due_is_refused():
    assert "no shoot-off" in refused(game(), {"shootoff": {"black": 5, "white": 3}},
                                     key="shootoff", rule="R14")


def test_shootoff_target_is_space_five_whatever_the_round_target():
    m = play(game(first=None, rules={"points_to_win_round": 3}),
             {"shootoff": {"black": 5, "white": 3}})
    assert m.state.turn == "black"


# -- R17 Trio ---------------------------------------------------------------------------


def test_trio_point_for_a_skitt_on_each_opposite_field():
    m = play(trio(board={"white.red": 1, "white.yellow": 1}),
             shot("black", delta={"white.blue": 1}))
    assert score(m) == (1, 0) and sum(m.state.board.values()) == 0


def test_trio_opponent_point_lets_the_shooter_start():
    m = play(trio(board={"black.red": 1, "black.yellow": 1}),
             shot("black", delta={"black.blue": 1}))
    assert score(m) == (0, 1) and m.state.turn == "black"


def test_trio_shooter_is_checked_first():
    m = play(trio(board={"black.red": 1, "black.yellow": 1, "white.red": 1, "white.yellow": 1,
                         "white.blue": 1}),
             shot("black", delta={"black.blue": 1}))
    assert score(m) == (1, 0) and m.state.turn == "white"


def test_trio_minus_field_is_cleared_above_three():
    m = play(trio(board={"minus": 3}), shot("black", delta={"minus": 1}))
    assert m.state.board["minus"] == 0 and score(m) == (0, 0)


def test_trio_minus_skitts_stay_up_to_three():
    m = play(trio(board={"minus": 2}), shot("black", delta={"minus": 1}))
    assert m.state.board["minus"] == 3


def test_trio_empty_pot_after_no_point_clears_the_board():
    m = play(trio(rules={"pot": 5}, board={"black.red": 4}), shot("black", delta={"white.red": 1}))
    assert sum(m.state.board.values()) == 0 and m.state.pot == 5


def test_trio_skitts_off_the_board_cost_nothing():
    m = play(trio(board={"white.red": 1}), shot("black", delta={"white.red": -1}, off_board=2))
    assert score(m) == (0, 0)


def test_trio_first_to_five_wins_the_game_with_no_rounds():
    m = play(trio(board={"white.red": 1, "white.yellow": 1}, score={"black": 4}),
             shot("black", delta={"white.blue": 1}))
    assert (m.state.phase, m.state.winner, m.state.round, m.state.rounds) == (
        "game_over", "black", 1, ())


def test_trio_shows_no_big_skitts():
    assert trio().state.to_json()["big"] == {"black": None, "white": None}
    assert trio().state.must_place_big is False


def test_trio_refuses_inputs_it_does_not_have():
    m = trio()
    for step, key in ((shot("black", big="placed"), "shot.big"),
                      (shot("black", delta={}, red=["back"]), "shot.red"),
                      (shot("black", chain=["white.red", "white.blue"]), "shot.chain"),
                      (shot("black", delta={}, knocked_big="loose"), "shot.knocked_big"),
                      ({"correct": {"round_wins": {"black": 1}}}, "correct.round_wins.black")):
        assert "Trio" in refused(m, step, key=key, rule="R17")


def test_trio_with_flipping_is_refused():
    with pytest.raises(IllegalEventError, match="rules.flipping"):
        Rules(variant="trio", flipping=True)


# -- R18 Handicaps ----------------------------------------------------------------------


def test_handicaps_are_shown_but_change_no_score():
    steps = [{"shot": {"by": "black", "delta": {"white.red": 1}}}]
    setup = Setup(first="black", big={"black": "center", "white": "center"},
                  board={"white.red": 2})
    plain = Match.replay(Rules(), setup, steps)
    handicapped = Match.replay(Rules(), setup, steps,
                               handicaps={"black": Handicap(line="beginner", finger="different",
                                                            hand="non-dominant")})
    assert handicapped.state == plain.state
    assert handicapped.to_json()["handicaps"] == {
        "black": {"line": "beginner", "finger": "different", "hand": "non-dominant"}}
