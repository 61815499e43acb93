"""R15 Chains and R16 Flipping."""

import pytest
from rules_support import game, play, refused, score, shot

pytestmark = pytest.mark.unit

FLIP = {"flipping": True}

# -- R15 Chains -------------------------------------------------------------------------


def test_chain_scores_on_both_fields_holding_two():
    m = play(game(board={"white.red": 2, "white.blue": 2}),
             shot("black", chain=["white.red", "white.blue"]))
    assert score(m) == (2, 0)


def test_chain_skitt_goes_back_to_the_pot():
    m = play(game(board={"white.red": 2, "white.blue": 2}),
             shot("black", chain=["white.red", "white.blue"]))
    assert m.state.pot == 16 and m.state.board_must_change


def test_chain_field_at_one_clears_when_the_home_field_holds_two():
    m = play(game(board={"white.yellow": 1, "black.yellow": 2}),
             shot("black", chain=["white.yellow", "white.red"]))
    assert m.state.board["white.yellow"] == 0 and m.state.board["black.yellow"] == 0


def test_chain_field_at_one_otherwise_does_nothing():
    m = play(game(board={"white.yellow": 1}), shot("black", chain=["white.yellow", "white.red"]))
    assert score(m) == (0, 0) and m.state.board["white.yellow"] == 1


def test_chain_point_on_red_takes_the_hit_on_red_choice():
    m = play(game(board={"white.red": 2}, score={"white": 2}),
             shot("black", chain=["white.red", "white.blue"], red=["back"]))
    assert score(m) == (0, 1)


def test_chain_must_join_two_different_opposite_fields():
    refused(game(), shot("black", chain=["white.red", "white.red"]), key="shot.chain", rule="R15")
    refused(game(), shot("black", chain=["white.red", "black.red"]), key="shot.chain", rule="R15")


def test_blocked_field_in_a_chain_is_a_penalty():
    m = play(game(rules=FLIP, blocked=["white.red"], score={"black": 1}),
             shot("black", chain=["white.red", "white.blue"]))
    assert score(m) == (0, 0) and not m.state.blocked


# -- R16 Flipping -----------------------------------------------------------------------


def test_clearing_blocks_both_fields_with_flipping():
    m = play(game(rules=FLIP, board={"white.yellow": 1, "black.yellow": 2}),
             shot("black", delta={"white.yellow": 1}))
    assert m.state.blocked == {"white.yellow", "black.yellow"}
    assert m.state.pot == 18


def test_clearing_blocks_nothing_without_flipping():
    m = play(game(board={"white.yellow": 1, "black.yellow": 2}),
             shot("black", delta={"white.yellow": 1}))
    assert not m.state.blocked


def test_skitt_on_a_blocked_field_is_a_penalty_and_lifts_the_blockade():
    m = play(game(rules=FLIP, blocked=["white.yellow"], score={"black": 1}),
             shot("black", delta={"white.yellow": 1}))
    assert score(m) == (0, 0)
    assert not m.state.blocked and m.state.board["white.yellow"] == 0 and m.state.pot == 20


def test_skitt_on_a_blocked_field_scores_nothing():
    m = play(game(rules=FLIP, blocked=["white.yellow"], board={"white.yellow": 2}),
             shot("black", delta={"white.yellow": 1}))
    assert score(m) == (-1, 0)


def test_hit_elsewhere_earns_the_right_to_unblock():
    m = play(game(rules=FLIP, blocked=["white.yellow"]),
             shot("black", delta={"white.red": 1}, unblock="white.yellow"))
    assert not m.state.blocked


def test_unblock_right_stays_open_until_the_next_shot():
    m = play(game(rules=FLIP, blocked=["white.yellow"]), shot("black", delta={"white.red": 1}))
    assert m.state.to_json()["pending"]["unblock"] == {"player": "black",
                                                        "fields": ["white.yellow"]}
    play(m, {"decide": {"by": "black", "unblock": "white.yellow"}})
    assert not m.state.blocked and m.state.pending_unblock is None


def test_unblock_right_lapses_with_the_next_shot():
    m = play(game(rules=FLIP, blocked=["white.yellow"]), shot("black", delta={"white.red": 1}),
             shot("white", delta={}))
    refused(m, {"decide": {"by": "black", "unblock": "white.yellow"}}, key="decide", rule="R4, R16")


def test_unblock_without_a_right_is_refused():
    assert "no unblock right" in refused(game(rules=FLIP, blocked=["white.yellow"]),
                                         shot("black", delta={}, unblock="white.yellow"),
                                         key="shot.unblock", rule="R16")


def test_increase_on_a_field_the_shot_clears_earns_the_right():
    m = play(game(rules=FLIP, blocked=["white.red"], board={"white.yellow": 1,
                                                           "black.yellow": 2}),
             shot("black", delta={"white.yellow": 1}, unblock="white.red"))
    assert m.state.blocked == {"white.yellow", "black.yellow"}


def test_unblock_of_a_home_field_is_refused():
    refused(game(rules=FLIP, blocked=["black.yellow"]),
            shot("black", delta={"white.red": 1}, unblock="black.yellow"),
            key="shot.unblock", rule="R16")


def test_chain_point_earns_the_unblock_right():
    m = play(game(rules=FLIP, blocked=["white.yellow"], board={"white.red": 2}),
             shot("black", chain=["white.red", "white.blue"], unblock="white.yellow"))
    assert not m.state.blocked


def test_blockade_knocked_onto_an_empty_field_blocks_it():
    m = play(game(rules=FLIP, blocked=["white.yellow"]),
             shot("black", delta={}, blockade={"from": "white.yellow", "to": "black.red"}))
    assert m.state.blocked == {"black.red"} and m.state.pot == 19


def test_blockade_knocked_onto_skitts_takes_one_to_the_pot():
    m = play(game(rules=FLIP, blocked=["white.yellow"], board={"black.red": 2}),
             shot("black", delta={}, blockade={"from": "white.yellow", "to": "black.red"}))
    assert not m.state.blocked and m.state.board["black.red"] == 1 and m.state.pot == 19


def test_blockade_knocked_off_the_board_goes_to_the_pot_without_penalty():
    m = play(game(rules=FLIP, blocked=["white.yellow"]),
             shot("black", delta={}, blockade={"from": "white.yellow", "to": "off"}))
    assert not m.state.blocked and score(m) == (0, 0) and m.state.pot == 20


def test_field_whose_blockade_was_knocked_loose_scores_normally():
    m = play(game(rules=FLIP, blocked=["white.yellow"], board={"white.yellow": 2}),
             shot("black", delta={"white.yellow": 1},
                  blockade={"from": "white.yellow", "to": "off"}))
    assert score(m) == (1, 0)


def test_blockade_must_come_from_a_blocked_field():
    refused(game(rules=FLIP), shot("black", delta={}, blockade={"from": "white.red",
                                                                "to": "off"}),
            key="shot.blockade.from", rule="R16")


def test_player_due_with_all_opposite_fields_blocked_loses_at_once():
    m = game(rules=FLIP, first="white", board={"black.blue": 1, "white.blue": 2},
             blocked=["white.red", "white.yellow"])
    play(m, shot("white", delta={"black.blue": 1}))
    assert m.state.phase == "game_over" and m.state.winner == "white"


def test_blockades_without_flipping_are_refused():
    refused(game(), {"correct": {"blocked": ["white.red"]}}, key="correct.blocked", rule="R16, R20")
