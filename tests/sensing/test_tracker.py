"""The tracker: settled readings become shots only when the board agrees with the match."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorekeeper.events import ShotEvent
from scorekeeper.expectation import Expectation, shot_from_reading
from scorekeeper.fields import field_names
from scorekeeper.frozen import FrozenMap
from scorekeeper.match import Match
from scorekeeper.phrases import plain
from scorekeeper.reading import BoardReading
from scorekeeper.shot import Shot
from scorekeeper.tracker import Tracker
from scorekeeper.tracker_status import describe_differences

pytestmark = pytest.mark.unit

EMPTY = {name: 0 for name in field_names()}


def board(**counts: int) -> dict[str, int]:
    out = dict(EMPTY)
    for key, value in counts.items():
        out[key.replace("_", ".", 1)] = value
    return out


def reading(counts=None, *, big=None, bridges=(), launched=(), at=0.0) -> BoardReading:
    return BoardReading(
        counts=counts or dict(EMPTY),
        at=at,
        big=big if big is not None else {"black": True, "white": True},
        bridges=frozenset(bridges),
        launched=frozenset(launched),
    )


def expect(counts=None, *, turn="black", big="center", must_place_big=False, playing=True):
    return Expectation(
        board=counts or dict(EMPTY),
        turn=turn,
        big={"black": big, "white": big},
        must_place_big=must_place_big,
        playing=playing,
    )


def proposed(**shot: object) -> ShotEvent:
    """The shot event the tracker proposes for the match."""
    return ShotEvent(Shot(**shot))  # type: ignore[arg-type]


def ready_tracker(expected: Expectation) -> Tracker:
    t = Tracker()
    t.observe(reading(dict(expected.board)), expected)
    assert t.mode == "ready"
    return t


def test_a_new_tracker_waits_for_the_board_to_agree_before_scoring():
    t = Tracker()
    assert t.observe(reading(board(white_red=1)), expect()) is None
    assert t.mode == "review"


def test_the_net_change_from_the_expected_board_is_the_shot():
    t = ready_tracker(expect())
    shot = t.observe(reading(board(white_red=1, minus=1)), expect())
    assert shot == proposed(by="black", delta={"white.red": 1, "minus": 1})


def test_an_unchanged_board_is_no_shot():
    t = ready_tracker(expect())
    assert t.observe(reading(), expect()) is None


def test_a_launch_spot_marks_a_shot_that_changed_nothing():
    t = ready_tracker(expect())
    assert t.observe(reading(launched={"black"}), expect()) == proposed(by="black")


def test_the_other_players_launch_spot_is_not_a_shot():
    t = ready_tracker(expect())
    assert t.observe(reading(launched={"white"}), expect()) is None


def test_a_big_skitt_sensed_on_its_spot_is_placed():
    before = expect(big="hand", must_place_big=True)
    t = Tracker()
    # The board agreed with both big skitts in hand, then black's arrived on its spot.
    t.observe(reading(big={"black": False, "white": False}), before)
    assert t.mode == "ready"
    assert t.observe(reading(big={"black": True, "white": False}), before) == proposed(
        by="black", big="placed"
    )


def test_a_big_skitt_over_the_minus_field_is_placed_not_a_minus_skitt():
    before = expect(big="hand", must_place_big=True)
    t = Tracker()
    t.observe(reading(big={"black": False, "white": False}), before)
    shot = t.observe(reading(board(minus=1), big={"black": True, "white": False}), before)
    assert shot == proposed(by="black", big="placed")


def test_a_big_skitt_on_a_colour_field_is_that_field():
    before = expect(big="hand", must_place_big=True)
    t = Tracker()
    t.observe(reading(big={"black": False, "white": False}), before)
    shot = t.observe(reading(board(white_blue=1), big={"black": False, "white": False}), before)
    assert shot == proposed(by="black", big="white.blue")


def test_a_launch_without_the_big_skitt_arriving_is_a_miss():
    before = expect(big="hand", must_place_big=True)
    t = Tracker()
    t.observe(reading(big={"black": False, "white": False}), before)
    got = t.observe(reading(big={"black": False, "white": False}, launched={"black"}), before)
    assert got == proposed(by="black", big="missed")


def test_without_big_spots_the_tablet_must_say_where_the_big_skitt_went():
    before = expect(big="hand", must_place_big=True)
    assert shot_from_reading(reading(board(minus=1), big={}), before) is None


def test_a_big_skitt_gone_from_its_spot_was_knocked_loose():
    t = ready_tracker(expect())
    shot = t.observe(reading(board(white_red=1), big={"black": False, "white": True}), expect())
    assert shot == proposed(by="black", delta={"white.red": 1}, knocked_big="loose")


def test_both_big_skitts_gone_from_their_spots_were_both_knocked_loose():
    """R12: one shot may knock both loose; the referee adds where each landed."""
    t = ready_tracker(expect())
    shot = t.observe(reading(board(white_red=1), big={"black": False, "white": False}), expect())
    assert shot == proposed(by="black", delta={"white.red": 1}, knocked_big=("loose", "loose"))


def test_a_skitt_on_a_bridge_between_opposite_fields_is_a_chain():
    t = ready_tracker(expect())
    shot = t.observe(reading(bridges={("white.red", "white.yellow")}), expect())
    assert shot == proposed(by="black", chain=("white.red", "white.yellow"))


def test_after_a_clearing_the_tracker_waits_for_the_board_to_be_restored():
    before = expect(board(white_blue=1, black_blue=2))
    t = ready_tracker(before)
    seen = reading(board(white_blue=2, black_blue=2))
    assert t.observe(seen, before) == proposed(by="black", delta={"white.blue": 1})
    cleared = expect(board(), turn="white")
    t.sync(cleared, after_shot=True)
    assert t.mode == "restore"
    assert "take 2 skitts off white.blue" in t.status().message
    # Lifting the skitts one by one is not a shot by white.
    assert t.observe(reading(board(white_blue=0, black_blue=2)), cleared) is None
    assert t.mode == "restore"
    assert t.observe(reading(board()), cleared) is None
    assert t.mode == "ready"


def test_a_shot_the_rules_keep_as_seen_needs_no_restore():
    before = expect()
    t = ready_tracker(before)
    t.observe(reading(board(white_red=1)), before)
    t.sync(expect(board(white_red=1), turn="white"), after_shot=True)
    assert t.mode == "ready"
    assert t.status().message == "board ready: white to shoot"


def test_a_refused_reading_goes_to_the_referee():
    t = ready_tracker(expect())
    t.observe(reading(board(white_red=2)), expect())
    t.refused("changes sum to 2")
    assert t.mode == "review"
    assert "refused" in t.status().message


def test_the_referee_may_accept_the_sensed_board_as_the_shot():
    t = Tracker()
    t.observe(reading(board(white_red=1)), expect())
    assert t.accept_board(expect()) == proposed(by="black", delta={"white.red": 1})


def test_the_referee_may_have_the_board_restored_instead():
    t = Tracker()
    t.observe(reading(board(white_red=1)), expect())
    t.restore_board()
    assert t.mode == "restore"
    t.observe(reading(), expect())
    assert t.mode == "ready"


def test_a_lost_link_pauses_play_and_a_changed_board_goes_to_review():
    t = ready_tracker(expect())
    t.pause("link")
    assert t.mode == "paused"
    assert t.status().message == "sensor link down: play paused"
    assert t.observe(reading(board(white_red=1)), expect()) is None
    t.resume("link")
    assert t.mode == "review"


def test_pausing_by_the_referee_and_the_link_are_both_needed_to_lift():
    t = ready_tracker(expect())
    t.pause("link")
    t.pause("referee")
    t.resume("link")
    assert t.mode == "paused"
    t.resume("referee")
    assert t.mode == "review"  # judged afresh: nothing scores before a new reading
    assert t.observe(reading(), expect()) is None
    assert t.mode == "ready"


def test_after_a_gap_the_reading_from_before_it_never_makes_the_board_ready():
    t = ready_tracker(expect())
    t.pause("link")
    t.resume("link")  # the board agreed before the gap, but it may have changed unseen
    assert t.mode == "review"
    assert "sensing resumed" in t.status().message
    t.sync(expect())
    assert t.mode == "review"


def test_a_board_changed_during_a_gap_goes_to_the_referee_not_to_the_score():
    due = expect(big="hand", must_place_big=True)
    t = Tracker()
    t.observe(reading(big={"black": False, "white": False}), due)
    assert t.mode == "ready"
    t.pause("link")
    t.resume("link")
    placed_unseen = reading(big={"black": True, "white": False})
    assert t.observe(placed_unseen, due) is None
    assert t.mode == "review"
    assert "changed while sensing was interrupted" in t.status().message


def test_undo_makes_the_board_to_restore():
    t = ready_tracker(expect())
    t.observe(reading(board(white_red=1)), expect())
    t.sync(expect(board(white_red=1), turn="white"), after_shot=True)
    t.sync(expect())  # the referee undid the shot
    assert t.mode == "restore"
    assert t.status().differences == {"white.red": 1}


def test_no_shot_outside_play():
    t = ready_tracker(expect(turn=None, playing=False))
    assert t.observe(reading(board(white_red=1)), expect(turn=None, playing=False)) is None


def test_no_change_marks_a_big_skitt_miss_when_one_must_be_placed():
    t = Tracker()
    assert t.mark_no_change(expect(big="hand", must_place_big=True)) == proposed(
        by="black", big="missed"
    )
    assert t.mark_no_change(expect()) == proposed(by="black")


def test_expectation_reads_a_state():
    state = replace(Match().state, board=FrozenMap(board(white_red=2)), turn="white",
                    big=FrozenMap({"black": "center", "white": "hand"}))
    e = Expectation.from_state(state)
    assert e.turn == "white" and e.must_place_big and e.board["white.red"] == 2


def test_differences_read_as_instructions():
    text = plain(describe_differences({"white.red": 2, "black.blue": -1}, {"white": "missing"},
                                      [("white.red", "white.yellow")]))
    assert text == (
        "take 2 skitts off white.red, add 1 skitt to black.blue, "
        "put white's big skitt back on its spot, "
        "take the skitt off the bridge between white.red and white.yellow"
    )


def test_after_a_chain_the_restore_names_the_bridge_its_skitt_lies_on():
    """The rules take a chain's skitt back to the pot (R15): the board is restored until the
    bridge is clear, and the tracker says which bridge, as data and in its words."""
    t = ready_tracker(expect())
    chain = ("white.red", "white.yellow")
    assert t.observe(reading(bridges={chain}), expect()) == proposed(by="black", chain=chain)
    t.sync(expect(turn="white"), after_shot=True)
    status = t.status()
    assert status.mode == "restore"
    assert status.bridges == (chain,)
    assert status.to_json()["bridges"] == [list(chain)]
    assert status.message == (
        "restore the board: take the skitt off the bridge between white.red and white.yellow")
    assert t.observe(reading(), expect(turn="white")) is None
    assert t.mode == "ready" and t.status().bridges == ()
