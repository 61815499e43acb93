"""R19 Undo and corrections, R20 Small points."""

import pytest
from rules_support import game, play, refused, score, shot

from scorekeeper.errors import IllegalEventError

pytestmark = pytest.mark.unit

# -- R19 Undo and corrections -----------------------------------------------------------


def test_correction_sets_scores_board_round_wins_and_turn():
    m = play(game(), {"correct": {"score": {"black": 3}, "board": {"white.red": 2},
                                  "round_wins": {"white": 1}, "turn": "white",
                                  "reason": "sensor glitch"}})
    s = m.state
    assert (score(m), s.board["white.red"], s.round_wins["white"], s.turn) == (
        (3, 0), 2, 1, "white")
    assert s.pot == 17


def test_correction_reason_is_shown():
    effects = game().apply({"correct": {"score": {"black": 1}, "reason": "missed point"}})
    assert effects[0].text == "referee correction: score black 1 (missed point)"


def test_correction_of_a_score_to_the_round_target_is_refused():
    assert "correct.score.black" in refused(game(), {"correct": {"score": {"black": 5}}},
                                            key="correct.score.black", rule="R19")


def test_correction_of_a_score_below_minus_one_is_refused():
    refused(game(), {"correct": {"score": {"white": -2}}}, key="correct.score.white", rule="R19")


def test_correction_of_round_wins_to_the_game_target_is_refused():
    refused(game(), {"correct": {"round_wins": {"black": 5}}},
            key="correct.round_wins.black", rule="R19")


def test_correction_putting_more_skitts_out_than_the_pot_holds_is_refused():
    assert "pot holds only 20" in refused(game(), {"correct": {"board": {"minus": 21}}},
                                          key="correct", rule="R2, R19")


def test_correction_after_the_game_is_refused():
    m = play(game(rules={"rounds_to_win_game": 1}, board={"white.red": 2}, score={"black": 4}),
             shot("black", delta={"white.red": 1}))
    assert "undo first" in refused(m, {"correct": {"score": {"black": 1}}},
                                   key="correct", rule="R19")


def test_turn_correction_during_a_shootoff_ends_it():
    m = play(game(first=None), {"correct": {"turn": "black"}})
    assert m.state.phase == "playing" and m.state.turn == "black"


def test_correction_closes_open_choices():
    m = play(game(board={"white.red": 2}), shot("black", delta={"white.red": 1}),
             {"correct": {"score": {"white": 1}}})
    assert m.state.pending_red == ()


def test_undo_takes_back_a_shot_completely():
    m = game(board={"white.red": 2})
    before = m.state
    play(m, shot("black", delta={"white.red": 1}), {"undo": True})
    assert m.state == before


def test_undo_takes_back_a_correction():
    m = game()
    before = m.state
    play(m, {"correct": {"score": {"black": 2}}}, {"undo": True})
    assert m.state == before


def test_undos_in_a_row_go_further_back():
    m = game()
    start = m.state
    play(m, shot("black", delta={}), shot("white", delta={}), {"undo": True}, {"undo": True})
    assert m.state == start


def test_undo_with_nothing_to_undo_is_refused():
    assert "nothing to undo" in refused(game(), {"undo": True}, key="undo", rule="R19")


def test_undo_after_the_game_is_over_reopens_it():
    m = play(game(rules={"rounds_to_win_game": 1}, board={"white.red": 2}, score={"black": 4}),
             shot("black", delta={"white.red": 1}), {"undo": True})
    assert m.state.phase == "playing"


def test_undo_and_corrections_stay_in_the_log():
    m = play(game(), {"correct": {"score": {"black": 2}}}, {"undo": True})
    assert [e.to_json() for e in m.events] == [{"correct": {"score": {"black": 2}}},
                                               {"undo": True}]


def test_late_decision_is_undone_like_any_step():
    m = play(game(board={"white.red": 2}, score={"white": 2}),
             shot("black", delta={"white.red": 1}))
    after_shot = m.state
    play(m, {"decide": {"by": "black", "red": ["back"]}}, {"undo": True})
    assert m.state == after_shot


# -- R20 Small points -------------------------------------------------------------------


def test_red_choices_beyond_the_points_scored_are_ignored():
    m = play(game(board={"white.red": 2}, score={"white": 2}),
             shot("black", delta={"white.red": 1}, red=["advance", "back", "back"]))
    assert score(m) == (1, 2)


def test_ordinary_shot_with_an_empty_pot_is_refused():
    # A correction that empties the pot ends the round (R19): an empty pot at a shot is
    # reached only from a setup.
    m = game(board={"minus": 20})
    assert "pot is empty" in refused(m, shot("black", delta={}), key="shot", rule="R20")


def test_gift_skitt_the_pot_cannot_supply_is_not_given():
    m = game(big=None, board={"black.yellow": 2, "minus": 14}, score={"white": 1},
             round_wins={"white": 4})
    effects = m.apply(shot("black", big="white.yellow"))
    assert "no skitt for white" in effects[1].text
    assert score(m) == (0, 1)


def test_blocked_fields_in_a_setup_without_flipping_are_refused():
    with pytest.raises(IllegalEventError, match="flipping"):
        game(blocked=["white.red"])
