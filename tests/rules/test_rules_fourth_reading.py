"""The rulings of the fourth reading of the rulebook (2026-12-03). Each test is named after
its ruling; each ruling has a scenario in ``tests/scenarios/`` (named in the test's doc)."""

from pathlib import Path

import pytest
from rules_support import game, play, refused, score, shot

from scorekeeper.effects import EffectKind
from scorekeeper.scenarios import run_scenario_file

pytestmark = pytest.mark.unit

SCENARIOS = Path(__file__).parents[1] / "scenarios"


def passes(name: str) -> None:
    result = run_scenario_file(SCENARIOS / name)
    assert result.passed, result.line


def order_notes(m):
    return [e.text for e in m.state.last_effects if e.kind is EffectKind.ORDER]


# -- R10: the order best for the shooter ------------------------------------------------------


def two_gifts_one_skitt_left():
    """Black's big skitt lands on white's red field and knocks white's big skitt onto white's
    yellow field: two gifts for white, on black's red (2 skitts: a point) and black's yellow
    (empty: none); the pot holds one skitt. Black leads 4 to 3."""
    return game(rules={"pot": 10}, big={"black": "hand", "white": "center"},
                board={"black.red": 2, "minus": 7}, score={"black": 4, "white": 3})


def test_r10_two_gifts_for_the_last_skitt_the_shooter_gives_the_harmless_one_first():
    m = play(two_gifts_one_skitt_left(), shot("black", big="white.red",
                                              knocked_big="white.yellow"))
    # The yellow gift takes the last skitt; the red one cannot be supplied; the empty pot
    # ends the round on points, and black has more.
    assert m.state.rounds == ("black",)
    assert m.state.round_wins["black"] == 1 and m.state.turn == "white"
    passes("r10-best-order-two-gifts-one-skitt.json")


def test_r10_the_log_says_which_order_was_taken_when_it_is_not_the_default():
    m = play(two_gifts_one_skitt_left(), shot("black", big="white.red",
                                              knocked_big="white.yellow"))
    assert order_notes(m) == [
        "the order best for black was taken: the gift skitt on black's yellow field, then the "
        "gift skitt on black's red field"]


def test_r10_a_gift_the_empty_pot_cannot_supply_comes_before_the_clearing_that_refills_it():
    """Black's shot takes the pot's last skitt, clears yellow (4 skitts back to the pot) and
    knocks white's big skitt onto white's red field: given after the clearing the gift would
    make white's fifth point; given first, the pot is empty and it is not given."""
    m = game(rules={"pot": 10}, score={"white": 4},
             board={"white.yellow": 1, "black.yellow": 2, "black.red": 2, "minus": 4})
    play(m, shot("black", delta={"white.yellow": 1}, knocked_big="white.red"))
    assert m.state.rounds == () and score(m) == (0, 4) and m.state.pot == 4
    assert m.state.board["black.red"] == 2
    assert order_notes(m) == ["the order best for black was taken: the gift skitt on black's "
                              "red field, then clearing yellow"]
    passes("r10-best-order-gift-before-clearing.json")


def test_r10_when_the_order_changes_nothing_the_default_is_kept_and_not_mentioned():
    m = game(board={"black.red": 2})
    play(m, shot("black", delta={"white.yellow": 1}, knocked_big=["white.red", "white.blue"]))
    assert score(m) == (0, 1) and order_notes(m) == []


def test_r10_penalties_and_own_goals_keep_their_place_even_when_the_round_is_lost_anyway():
    """Only the pot's supply is ordered: a penalty still comes before the opponent's own-goal
    point that wins the round (the round is the opponent's either way)."""
    m = game(score={"black": 0, "white": 4}, board={"black.red": 2})
    play(m, shot("black", delta={"black.red": 1}, off_board=1))
    assert m.state.rounds == ("white",)
    assert order_notes(m) == []


def test_r10_the_best_order_is_taken_again_when_the_shot_is_undone_and_replayed():
    m = play(two_gifts_one_skitt_left(), shot("black", big="white.red",
                                              knocked_big="white.yellow"), {"undo": True})
    assert m.state.pot == 1 and score(m) == (4, 3)
    play(m, shot("black", big="white.red", knocked_big="white.yellow"))
    assert m.state.rounds == ("black",)


# -- R7: own goals counted like gifts, on the live board --------------------------------------


def test_r7_an_own_goal_on_a_field_a_loose_blockade_took_a_skitt_from_scores_nothing():
    """Black's red holds 2; black's shot knocks the blockade off white's blue onto black's red
    (one of its skitts goes to the pot) and puts black's own skitt there: 2 again, no point."""
    m = game(rules={"flipping": True}, blocked=["white.blue"], board={"black.red": 2})
    play(m, shot("black", delta={"black.red": 1},
                 blockade={"from": "white.blue", "to": "black.red"}))
    assert score(m) == (0, 0) and m.state.board["black.red"] == 2
    passes("r07-own-goal-counted-on-the-live-board.json")


def test_r7_an_own_goal_counts_when_the_loose_blockade_took_its_skitt_elsewhere():
    m = game(rules={"flipping": True}, blocked=["white.blue"],
             board={"black.red": 2, "black.yellow": 1})
    play(m, shot("black", delta={"black.red": 1},
                 blockade={"from": "white.blue", "to": "black.yellow"}))
    assert score(m) == (0, 1) and m.state.board["black.red"] == 3


def test_r7_an_own_goal_and_a_gift_on_the_same_field_each_count_once():
    m = game(board={"black.red": 2})
    play(m, shot("black", delta={"black.red": 1}, knocked_big="white.red"))
    assert score(m) == (0, 2) and m.state.board["black.red"] == 4


def test_r10_the_order_taken_is_told_in_the_players_names_and_in_german():
    from scorekeeper.effect_words import effect_words
    from web_common.i18n import language

    m = play(two_gifts_one_skitt_left(), shot("black", big="white.red",
                                              knocked_big="white.yellow"))
    (note,) = [e for e in m.state.last_effects if e.kind is EffectKind.ORDER]
    names = {"black": "Anna", "white": "Ben"}
    assert effect_words(note, names).startswith("the order best for Anna was taken: the gift "
                                                "skitt on Anna's yellow field")
    assert effect_words(note, names, language("de"), source=False) == (
        "die für Anna beste Reihenfolge der Wirkungen wurde genommen")


# -- R19: what the referee can record; R18: handicaps during the game -------------------------


def test_r19_a_correction_that_empties_the_pot_ends_the_round_on_points():
    m = game(rules={"pot": 10}, board={"minus": 8}, score={"black": 2, "white": 1})
    play(m, {"correct": {"board": {"white.red": 2}, "reason": "missed skitts"}})
    assert m.state.rounds == ("black",) and m.state.turn == "white" and m.state.round == 2
    passes("r19-correction-that-empties-the-pot-ends-the-round.json")


def test_r19_in_trio_a_correction_that_empties_the_pot_leaves_the_next_shot_refused():
    from rules_support import trio
    m = trio(rules={"pot": 10}, board={"minus": 2})
    play(m, {"correct": {"board": {"black.red": 8}, "reason": "fill it"}})
    assert m.state.pot == 0 and m.state.turn == "black"
    refused(m, shot("black", delta={}), key="shot", rule="R20")


def test_r19_the_referee_ends_a_round_with_a_winner_and_the_loser_starts_the_next():
    m = game(score={"black": 3, "white": 1})
    play(m, {"correct": {"end_round": "black", "reason": "white conceded"}})
    assert m.state.rounds == ("black",) and m.state.turn == "white"
    assert score(m) == (0, 0) and m.state.big["black"] == "hand"
    passes("r19-referee-ends-the-round-and-starts-a-shoot-off.json")


def test_r19_a_round_ended_drawn_by_the_referee_is_followed_by_a_shootoff():
    m = play(game(), {"correct": {"end_round": "drawn", "reason": "table knocked"}})
    assert m.state.rounds == (None,) and m.state.shootoff_due


def test_r19_a_round_ended_by_hand_can_win_the_game():
    m = game(round_wins={"black": 4})
    play(m, {"correct": {"end_round": "black", "reason": "white left"}})
    assert m.state.is_game_over and m.state.winner == "black"


def test_r19_ending_a_round_is_refused_during_a_shootoff_and_in_trio():
    from rules_support import trio
    message = refused(game(first=None), {"correct": {"end_round": "black", "reason": "x"}},
                      key="correct.end_round", rule="R19")
    assert "record the shoot-off first" in message
    message = refused(trio(), {"correct": {"end_round": "black", "reason": "x"}},
                      key="correct.end_round", rule="R17")
    assert "set the score instead" in message


def test_r19_the_referee_starts_a_shootoff_and_it_decides_who_shoots():
    m = play(game(), {"correct": {"shootoff": True, "reason": "who was it?"}},
             {"shootoff": {"black": 1, "white": 5}})
    assert m.state.turn == "white"


def test_r19_fewer_points_to_win_a_round_by_agreement_win_at_the_new_target():
    m = game(board={"white.red": 2}, score={"black": 2})
    play(m, {"correct": {"points_to_win_round": 3, "reason": "short of time"}},
         shot("black", delta={"white.red": 1}))
    assert m.state.rounds == ("black",)
    passes("r19-fewer-points-or-rounds-by-agreement.json")


def test_r19_a_target_at_or_below_what_a_player_has_is_refused_and_says_what_to_do():
    m = game(score={"black": 3}, round_wins={"white": 2})
    message = refused(m, {"correct": {"points_to_win_round": 3, "reason": "x"}},
                      key="correct.points_to_win_round", rule="R19")
    assert "not more than a player already has (3)" in message and "by hand" in message
    refused(m, {"correct": {"rounds_to_win_game": 2, "reason": "x"}},
            key="correct.rounds_to_win_game", rule="R19")
    message = refused(m, {"correct": {"rounds_to_win_game": 6, "reason": "x"}},
                      key="correct.rounds_to_win_game", rule="R19")
    assert "fewer, not more" in message


def test_r18_a_handicap_changed_during_the_game_is_shown_from_then_on_and_undone():
    from scorekeeper.options import Handicap
    m = game(score={"black": 1, "white": 2})
    play(m, {"correct": {"handicaps": {"white": {"line": "semicircle"}},
                         "reason": "moves forward"}})
    assert m.handicaps["white"] == Handicap(line="semicircle")
    assert m.to_json()["handicaps"]["white"]["line"] == "semicircle"
    assert score(m) == (1, 2) and m.state.turn == "black"
    play(m, {"undo": True})
    assert "white" not in m.handicaps
    passes("r18-handicaps-change-during-the-game.json")


# -- What a referee can now say about a shot --------------------------------------------------


def test_r16_several_blockades_knocked_loose_by_one_shot_each_land_where_they_landed():
    m = game(rules={"flipping": True}, board={"black.yellow": 2},
             blocked=["white.red", "white.blue"])
    play(m, shot("black", delta={"white.red": 1},
                 blockade=[{"from": "white.red", "to": "black.yellow"},
                           {"from": "white.blue", "to": "white.yellow"}]))
    assert m.state.blocked == {"white.yellow"} and m.state.board["black.yellow"] == 1
    assert m.events[-1].to_json()["shot"]["blockade"] == [
        {"from": "white.red", "to": "black.yellow"}, {"from": "white.blue", "to": "white.yellow"}]
    passes("r16-several-blockades-knocked-loose-by-one-shot.json")


def test_r16_one_blockade_is_still_written_as_one_object():
    m = game(rules={"flipping": True}, blocked=["white.red"])
    play(m, shot("black", delta={}, blockade={"from": "white.red", "to": "off"}))
    assert m.events[-1].to_json()["shot"]["blockade"] == {"from": "white.red", "to": "off"}


def test_r16_a_blockade_named_twice_is_refused_naming_the_rule():
    m = game(rules={"flipping": True}, blocked=["white.red"])
    message = refused(m, shot("black", delta={}, blockade=[
        {"from": "white.red", "to": "minus"}, {"from": "white.red", "to": "off"}]),
        key="shot.blockade.from", rule="R16")
    assert "name each blockade once" in message


def test_r15_a_chain_made_by_a_skitt_the_shot_moved_judges_both_fields():
    m = game(board={"white.red": 2, "white.yellow": 2, "white.blue": 1})
    play(m, shot("black", delta={"white.red": 1, "white.blue": -1},
                 chain=["white.red", "white.yellow"], chain_from="white.blue"))
    assert score(m) == (3, 0)
    assert any("made by a skitt moved from white's blue field" in e.text
               for e in m.state.last_effects)
    passes("r15-chain-made-by-a-moved-skitt.json")


def test_r15_a_moved_skitts_chain_needs_the_field_it_left_to_fall():
    m = game(board={"white.blue": 1})
    message = refused(m, shot("black", delta={"white.red": 1}, chain=["white.red", "white.yellow"],
                              chain_from="white.blue"), key="shot.chain_from", rule="R15")
    assert "enter the change there too" in message


def test_r6_r12_a_big_skitt_knocked_off_the_board_is_a_penalty_and_is_re_placed():
    m = game(score={"black": 2})
    play(m, shot("black", delta={}, knocked_big="off"))
    assert score(m) == (1, 0) and m.state.big["black"] == "hand"
    passes("r12-r06-big-skitt-off-the-board.json")


def test_r6_r11_a_big_skitt_shot_off_the_board_is_a_penalty_and_stays_in_hand():
    m = game(big={"black": "hand", "white": "center"}, score={"black": -1})
    play(m, shot("black", big="off"))
    assert score(m) == (-1, 1) and m.state.big["black"] == "hand"


def test_r2_a_kept_loose_skitt_is_out_of_the_pot_and_the_next_shot_takes_none():
    m = game()
    play(m, shot("black", delta={}, keep=True))
    assert m.state.pot == 19 and m.state.kept == 1
    play(m, shot("white", delta={"black.red": 1}))
    assert m.state.pot == 19 and m.state.kept == 0
    passes("r02-a-loose-skitt-kept-for-the-next-shot.json")


def test_r2_an_empty_pot_with_a_kept_skitt_does_not_end_the_round_yet():
    m = game(rules={"pot": 10}, board={"minus": 9})
    play(m, shot("black", delta={}, keep=True))
    assert m.state.pot == 0 and m.state.rounds == () and m.state.turn == "white"


def test_r2_keeping_is_refused_when_no_skitt_is_loose():
    m = game(rules={"pot": 10}, board={"minus": 9})
    message = refused(m, shot("black", delta={"white.red": 1}, keep=True), key="shot.keep",
                      rule="R2")
    assert "leave this out" in message


def test_r17_the_minus_field_is_cleared_at_its_fourth_hit_counting_a_skitt_knocked_off_later():
    from rules_support import trio
    m = trio()
    play(m, shot("black", delta={"minus": 1}), shot("white", delta={"minus": 1}),
         shot("black", delta={"minus": -1, "white.red": 1}), shot("white", delta={"minus": 1}))
    assert m.state.board["minus"] == 2 and m.state.minus_hits == 3
    play(m, shot("black", delta={"minus": 1}))
    assert m.state.board["minus"] == 0 and m.state.minus_hits == 0
    passes("r17-trio-minus-cleared-at-its-fourth-hit.json")


def test_r17_a_hit_the_sensors_missed_is_recorded_and_counts():
    from rules_support import trio
    m = trio(board={"minus": 1})
    play(m, shot("black", delta={}, minus_hit=True))
    assert m.state.minus_hits == 2


def test_r17_a_minus_hit_outside_trio_is_refused_naming_what_to_do():
    message = refused(game(), shot("black", delta={}, minus_hit=True), key="shot.minus_hit",
                      rule="R17")
    assert "enter it in the changes" in message


@pytest.mark.parametrize("step", [
    {"shot": {"by": "black", "delta": {}, "blockade": [{"from": "white.red", "to": "minus"},
                                                       {"from": "white.blue", "to": "off"}]}},
    {"shot": {"by": "black", "delta": {"white.blue": -1}, "chain": ["white.red", "white.yellow"],
              "chain_from": "white.blue"}},
    {"shot": {"by": "black", "big": "off", "knocked_big": "off"}},
    {"shot": {"by": "black", "delta": {}, "keep": True, "minus_hit": True}},
    {"correct": {"handicaps": {"white": {"line": "semicircle", "finger": "usual",
                                         "hand": "dominant"}},
                 "points_to_win_round": 3, "rounds_to_win_game": 2, "end_round": "drawn",
                 "reason": "r"}},
    {"correct": {"shootoff": True, "reason": "r"}},
], ids=["blockades", "chain_from", "off", "keep-minus_hit", "records", "shootoff"])
def test_every_new_input_is_written_back_as_it_was_given(step):
    """The match log stores steps as their JSON: each new key reads back the same."""
    import json

    from scorekeeper.events import parse_event, parse_event_json

    assert parse_event(step).to_json() == step
    assert parse_event_json(json.dumps(step)).to_json() == step
