"""The rulings of the third reading of the rulebook (2026-12-01), and the choices a referee
must be able to enter. Each test is named after its ruling; each ruling has a scenario of
the same name in ``tests/scenarios/``."""

from pathlib import Path

import pytest
from rules_support import game, play, refused, shot

from scorekeeper.scenarios import run_scenario_file

pytestmark = pytest.mark.unit

FLIP = {"flipping": True}


# -- R15 with R16: a chain whose skitt clears a field is a clearing hit --------------------


def chain_that_clears_yellow(**kw):
    """Black's chain joins white's red (empty) and white's yellow (1 skitt, the chain's skitt
    is its second) while black's yellow holds 2: yellow is cleared on both sides."""
    return game(rules=FLIP, blocked=["white.blue"],
                board={"white.yellow": 1, "black.yellow": 2}, **kw)


def test_r15_r16_a_chain_that_clears_a_field_earns_the_right_to_lift_an_older_blockade():
    m = play(chain_that_clears_yellow(),
             shot("black", chain=["white.red", "white.yellow"], unblock="white.blue"))
    assert m.state.blocked == {"white.yellow", "black.yellow"}
    assert m.state.board["white.yellow"] == 0 and m.state.board["black.yellow"] == 0


def test_r15_r16_the_chains_right_may_also_be_used_later_before_the_next_shot():
    m = play(chain_that_clears_yellow(), shot("black", chain=["white.red", "white.yellow"]))
    assert m.state.to_json()["pending"]["unblock"] == {"player": "black",
                                                       "fields": ["white.blue"]}
    play(m, {"decide": {"by": "black", "unblock": "white.blue"}})
    assert "white.blue" not in m.state.blocked


def test_r15_r16_the_chains_right_never_lifts_the_blockade_its_own_clearing_placed():
    m = chain_that_clears_yellow()
    message = refused(m, shot("black", chain=["white.red", "white.yellow"],
                              unblock="white.yellow"), key="shot.unblock", rule="R16")
    assert "placed by this shot's own clearing" in message


def test_r15_r16_a_chain_that_neither_scores_nor_clears_earns_no_right():
    m = game(rules=FLIP, blocked=["white.blue"], board={"white.yellow": 1})
    message = refused(m, shot("black", chain=["white.red", "white.yellow"],
                              unblock="white.blue"), key="shot.unblock", rule="R16")
    assert "no unblock right" in message


# -- R12: two big skitts knocked loose by one shot -------------------------------------------


def test_r12_two_big_skitts_knocked_loose_put_only_the_shooters_in_hand():
    """Whichever big skitt it was, the shooter re-places one; the other player's state never
    changes because of someone else's shot, so the second loose one goes back by hand."""
    m = play(game(), shot("black", delta={"white.red": 1}, knocked_big=["loose", "loose"]))
    assert dict(m.state.big) == {"black": "hand", "white": "center"}
    assert m.state.board_must_change
    assert any(e.kind == "restore" and e.reason.clause == "R12" for e in m.state.last_effects)


def test_r12_each_big_skitt_that_lands_on_a_colour_field_gives_the_opponent_a_skitt():
    m = play(game(board={"black.blue": 2}),
             shot("black", delta={}, knocked_big=["white.blue", "white.red"]))
    assert m.state.board["black.blue"] == 3 and m.state.board["black.red"] == 1
    assert (m.state.score["black"], m.state.score["white"]) == (0, 1)
    assert dict(m.state.big) == {"black": "hand", "white": "center"}


def test_r12_two_loose_big_skitts_need_two_in_the_centre():
    m = game(big={"black": "center", "white": "hand"})
    message = refused(m, shot("black", delta={}, knocked_big=["loose", "loose"]),
                      key="shot.knocked_big", rule="R12")
    assert "only 1 big skitt is in the centre" in message


def test_r12_there_are_only_two_big_skitts_to_knock_loose():
    assert "at most two" in refused(game(), shot("black", knocked_big=["loose"] * 3),
                                    key="shot.knocked_big", rule=None)
    assert "at least one" in refused(game(), shot("black", knocked_big=[]),
                                     key="shot.knocked_big", rule=None)


def test_r12_one_loose_big_skitt_is_still_written_as_before():
    from scorekeeper.events import parse_event
    one = parse_event({"shot": {"by": "black", "knocked_big": "loose"}})
    assert one == parse_event({"shot": {"by": "black", "knocked_big": ["loose"]}})
    assert one.to_json()["shot"]["knocked_big"] == "loose"  # old logs and files read the same
    two = parse_event({"shot": {"by": "black", "knocked_big": ["loose", "white.red"]}})
    assert two.to_json()["shot"]["knocked_big"] == ["loose", "white.red"]


# -- R19: a correction of a big skitt's state -----------------------------------------------


def test_r19_a_correction_puts_a_wrongly_sensed_big_skitt_right():
    m = play(game(), {"correct": {"big": {"white": "hand"}, "reason": "it lay on the minus field"}})
    assert dict(m.state.big) == {"black": "center", "white": "hand"}
    assert m.state.board_must_change
    play(m, shot("black", delta={}), shot("white", big="placed"))
    assert m.state.big["white"] == "center"


def test_r19_a_big_skitt_correction_is_undone_like_any_step():
    m = play(game(big={"black": "hand", "white": "center"}),
             {"correct": {"big": {"black": "center"}}})
    assert m.state.big["black"] == "center"
    play(m, {"undo": True})
    assert m.state.big["black"] == "hand"


def test_r19_a_big_skitt_correction_names_a_state_the_engine_has():
    message = refused(game(), {"correct": {"big": {"black": "minus"}}}, key="correct.big.black",
                      rule=None)
    assert "correct.big.black" in message and '"hand" or "center"' in message
    refused(game(), {"correct": {"big": {"grey": "hand"}}}, key="correct.big", rule=None)


def test_r19_r17_trio_has_no_big_skitt_to_correct():
    from rules_support import trio
    assert "Trio has no big skitts" in refused(trio(), {"correct": {"big": {"black": "hand"}}},
                                               key="correct.big", rule="R17")


# -- R18: Handicap 2, a different finger and/or the non-dominant hand ------------------------


def test_r18_finger_and_hand_are_recorded_apart():
    from scorekeeper.options import Handicap
    h = Handicap(line="semicircle", finger="different", hand="non-dominant")
    assert h.to_json() == {"line": "semicircle", "finger": "different", "hand": "non-dominant"}
    assert Handicap.from_json(h.to_json()) == h
    assert Handicap().to_json() == {"line": "standard", "finger": "usual", "hand": "dominant"}


def test_r18_an_old_record_of_finger_or_hand_still_reads():
    from scorekeeper.options import Handicap
    assert Handicap.from_json({"line": "beginner", "hand": "hand"}) == Handicap(
        line="beginner", hand="non-dominant")
    assert Handicap.from_json({"line": "semicircle", "hand": "finger"}) == Handicap(
        line="semicircle")


def test_r18_a_handicap_outside_the_lists_is_refused_by_name():
    from scorekeeper.errors import MalformedEventError
    from scorekeeper.options import Handicap
    for bad, key in (({"finger": "thumb"}, "handicap.finger"),
                     ({"hand": "left"}, "handicap.hand"), ({"line": "far"}, "handicap.line")):
        with pytest.raises(MalformedEventError, match=key):
            Handicap.from_json(bad)


THIRD_READING = ("r15-r16-chain-clearing-earns-the-unblock-right",
                 "r12-two-big-skitts-knocked-loose-by-one-shot",
                 "r19-correction-of-a-big-skitt",
                 "r19-amended-shot-adds-both-red-choices-the-unblock-and-two-loose-big-skitts")


@pytest.mark.parametrize("name", THIRD_READING)
def test_each_third_reading_ruling_has_a_passing_scenario_named_after_it(name):
    result = run_scenario_file(Path(__file__).parents[1] / "scenarios" / f"{name}.json")
    assert result.passed, result.line
