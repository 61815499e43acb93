"""The six rulings changed on 2026-11-30, after the rulings were read against the rulebook
again. Each test is named after its ruling and has a scenario of the same name in
``tests/scenarios/``."""

from pathlib import Path

import pytest
from rules_support import game, play, refused, score, shot

from scorekeeper.scenarios import run_scenario_file

pytestmark = pytest.mark.unit

FLIP = {"flipping": True}


# -- R12: someone else's shot never puts your big skitt in hand ---------------------------


def test_r12_a_missed_big_skitt_that_knocks_the_other_loose_changes_nobodys_big_skitt():
    """The shooter's own big skitt was already in hand: the shooter stays in hand, the other
    player stays in the centre, and the loose big skitt goes back by hand."""
    m = play(game(big={"black": "hand", "white": "center"}),
             shot("black", big="missed", knocked_big="loose"))
    assert dict(m.state.big) == {"black": "hand", "white": "center"}
    assert m.state.board_must_change
    assert any(e.kind == "restore" and e.reason.clause == "R12" for e in m.state.last_effects)
    play(m, shot("white", delta={"black.red": 1}))  # white shoots an ordinary skitt


def test_r12_a_landed_big_skitt_that_knocks_the_other_onto_a_field_still_gives_the_gift():
    m = play(game(big={"black": "hand", "white": "center"}, board={"black.blue": 2}),
             shot("black", big="white.red", knocked_big="white.blue"))
    assert dict(m.state.big) == {"black": "hand", "white": "center"}
    assert m.state.board["black.blue"] == 3 and m.state.board["black.red"] == 1
    assert score(m) == (0, 1)


def test_r12_placing_your_big_skitt_and_knocking_one_loose_puts_yours_in_hand():
    m = play(game(big={"black": "hand", "white": "center"}),
             shot("black", big="placed", knocked_big="loose"))
    assert dict(m.state.big) == {"black": "hand", "white": "center"}


# -- R16: a blockade on the minus field only goes to the pot ------------------------------


def test_r16_a_blockade_knocked_onto_minus_takes_no_skitt_from_it():
    m = game(rules=FLIP, blocked=["white.yellow"], board={"minus": 2})
    pot = m.state.pot
    play(m, shot("black", delta={}, blockade={"from": "white.yellow", "to": "minus"}))
    assert m.state.board["minus"] == 2
    assert m.state.pot == pot + 1 and not m.state.blocked
    assert score(m) == (0, 0)


# -- R16: a clearing hit earns the unblock right, never for the clearing's blockades ------


def test_r16_a_clearing_hit_earns_the_right_to_lift_an_older_blockade():
    m = play(game(rules=FLIP, blocked=["white.red"], board={"white.blue": 1, "black.blue": 2}),
             shot("black", delta={"white.blue": 1}, unblock="white.red"))
    assert m.state.blocked == {"white.blue", "black.blue"}


def test_r16_the_right_never_lifts_a_blockade_the_same_shots_clearing_placed():
    m = game(rules=FLIP, board={"white.blue": 1, "black.blue": 2})
    message = refused(m, shot("black", delta={"white.blue": 1}, unblock="white.blue"),
                      key="shot.unblock", rule="R16")
    assert "placed by this shot's own clearing" in message
    play(m, shot("black", delta={"white.blue": 1}))
    assert m.state.pending_unblock is None  # nothing else is blocked: no right to hold
    refused(m, {"decide": {"by": "black", "unblock": "white.blue"}}, key="decide", rule="R4, R16")


def test_r16_a_right_left_open_offers_only_the_older_blockades():
    m = play(game(rules=FLIP, blocked=["white.red"], board={"white.blue": 1, "black.blue": 2}),
             shot("black", delta={"white.blue": 1}))
    assert m.state.to_json()["pending"]["unblock"] == {"player": "black",
                                                       "fields": ["white.red"]}


# -- R8 with R16: an invalid shot earns no unblock right ----------------------------------


def test_r8_r16_an_invalid_shot_with_unblock_is_refused_with_the_reason():
    m = game(rules=FLIP, blocked=["white.yellow"], board={"black.red": 1})
    message = refused(m, shot("black", delta={"black.red": -1, "white.red": 1},
                              unblock="white.yellow"), key="shot.unblock", rule="R8, R16")
    assert "invalid shot earns no unblock right" in message and "black.red" in message
    assert "declared invalid" in refused(m, shot("black", delta={"white.red": 1}, invalid=True,
                                                 unblock="white.yellow"),
                                     key="shot.unblock", rule="R8, R16")


def test_r8_r16_the_same_invalid_shot_without_unblock_is_accepted_and_leaves_no_right():
    m = play(game(rules=FLIP, blocked=["white.yellow"]),
             shot("black", delta={"white.red": 1}, invalid=True))
    assert m.state.turn == "white" and m.state.pending_unblock is None


# -- R4: both players' red points stay open ------------------------------------------------


def both_score_on_red():
    """Black scores on white's red and puts an own goal on black's red (both at 2)."""
    return play(game(board={"white.red": 2, "black.red": 2, "minus": 1},
                     score={"black": 2, "white": 2}),
                shot("black", delta={"white.red": 1, "black.red": 1, "minus": -1}))


def test_r4_when_one_shot_gives_both_players_red_points_both_stay_open():
    m = both_score_on_red()
    assert score(m) == (3, 3)
    assert [p["player"] for p in m.state.to_json()["pending"]["red"]] == ["black", "white"]


def test_r4_each_player_decides_their_own_points_in_any_order():
    m = both_score_on_red()
    play(m, {"decide": {"by": "white", "red": ["back"]}})
    assert score(m) == (2, 2)
    assert [p.player for p in m.state.pending_red] == ["black"]
    play(m, {"decide": {"by": "black", "red": ["back"]}})
    assert score(m) == (1, 1) and m.state.pending_red == ()


def test_r4_both_players_points_lapse_with_the_next_shot():
    m = play(both_score_on_red(), shot("white", delta={}))
    refused(m, {"decide": {"by": "black", "red": ["back"]}}, key="decide", rule="R4, R16")
    refused(m, {"decide": {"by": "white", "red": ["back"]}}, key="decide", rule="R4, R16")


# -- R11/R12 with R16: no gift skitt on a blocked field -------------------------------------


def test_r11_r16_a_gift_skitt_on_a_blocked_field_is_not_given():
    m = game(rules=FLIP, big={"black": "hand", "white": "center"}, blocked=["black.yellow"],
             board={"black.yellow": 0})
    pot = m.state.pot
    play(m, shot("black", big="white.yellow"))
    assert m.state.board["black.yellow"] == 0 and m.state.pot == pot
    assert m.state.blocked == {"black.yellow"} and score(m) == (0, 0)
    assert any("the field is blocked" in e.text for e in m.state.last_effects)


def test_r12_r16_a_big_skitt_knocked_onto_a_field_gives_no_gift_on_a_blocked_one():
    m = play(game(rules=FLIP, blocked=["black.blue"], board={"white.red": 0}),
             shot("black", delta={"white.red": 1}, knocked_big="white.blue"))
    assert m.state.board["black.blue"] == 0 and score(m) == (0, 0)


# -- Each change has its scenario, and it passes --------------------------------------------


CHANGED = ("r12-someone-elses-shot-never-puts-your-big-skitt-in-hand",
           "r16-blockade-on-minus-only-goes-to-the-pot",
           "r16-clearing-hit-earns-the-unblock-right",
           "r08-r16-invalid-shot-earns-no-unblock-right",
           "r04-both-players-red-points-stay-open",
           "r11-r12-r16-no-gift-skitt-on-a-blocked-field")


@pytest.mark.parametrize("name", CHANGED)
def test_each_changed_ruling_has_a_passing_scenario_named_after_it(name):
    result = run_scenario_file(Path(__file__).parents[1] / "scenarios" / f"{name}.json")
    assert result.passed, result.line
