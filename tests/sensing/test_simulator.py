"""The simulated board: verbs that act like the physical event, and a record of events."""

from __future__ import annotations

import pytest
from profile_support import calibrated, halves

from firmware_bridge.profile import load_profile
from firmware_bridge.simulator import SimulatedBoard, SimulatorError
from firmware_bridge.source import Source
from scorekeeper.clock import FakeClock

pytestmark = pytest.mark.unit


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(10.0)


@pytest.fixture
def board(clock: FakeClock) -> SimulatedBoard:
    return SimulatedBoard(load_profile(), clock)


def test_simulator_is_a_source_named_sim(board: SimulatedBoard):
    assert isinstance(board, Source)
    assert board.name == "sim" and board.cells == 128
    assert board.status().up


def test_magnet_arrives_and_leaves_are_recorded_with_the_clock(board, clock):
    board.magnet_arrives(16)
    clock.advance(0.5)
    board.magnet_leaves(16)
    board.assert_events((16, True, 10.0), (16, False, 10.5))


def test_poll_hands_out_each_event_once(board):
    board.magnet_arrives(3)
    assert [(e.cell, e.active) for e in board.poll()] == [(3, True)]
    assert board.poll() == []


def test_place_skitt_covers_the_next_cell_of_the_field(board):
    board.place_skitt("white.red")
    board.place_skitt("white.red")
    board.assert_events((16, True), (17, True))
    assert board.count("white.red") == 2
    assert board.snapshot() == {16, 17}


def test_remove_skitt_uncovers_the_last_covered_cell(board):
    board.set_count("minus", 3)
    board.remove_skitt("minus")
    assert board.count("minus") == 2
    assert board.events[-1].cell == 34 and not board.events[-1].active


def test_set_count_follows_a_calibrated_count_map(clock):
    # One skitt covers two cells on this board: 2 active cells read as 1 skitt.
    board = SimulatedBoard(calibrated({"minus": halves(20)}), clock)
    board.set_count("minus", 1)
    assert board.snapshot() == {32, 33}
    assert board.count("minus") == 1


def test_a_full_field_takes_more_skitts_while_its_cells_stay_at_capacity(board):
    """Issue 24: a skitt clinging to a full field's cluster lies there unseen, as on a
    real board: the cells show the capacity, the rest is counted apart."""
    blue = load_profile().fields["black.blue"].cells
    board.set_count("black.blue", 14)
    assert board.snapshot() == set(blue)
    before = len(board.events)
    board.place_skitt("black.blue")
    board.place_skitt("black.blue")
    assert len(board.events) == before  # no cell changed
    assert (board.count("black.blue"), board.sensed("black.blue"), board.over("black.blue")) \
        == (16, 14, 2)
    board.remove_skitt("black.blue")  # the one no cell counts comes off first
    assert (board.sensed("black.blue"), board.over("black.blue")) == (14, 1)
    assert len(board.events) == before
    board.set_count("black.blue", 13)
    assert (board.sensed("black.blue"), board.over("black.blue")) == (13, 0)
    assert len(board.events) == before + 1  # now one cell goes out
    board.set_count("minus", 25)
    assert (board.sensed("minus"), board.over("minus")) == (20, 5)
    board.clear()
    assert board.count("minus") == 0


def test_a_calibrated_capacity_keeps_the_rest_unseen(clock):
    # the counts say 8 skitts for 8 cells, but only 6 can be trusted: the seventh reads as 6
    board = SimulatedBoard(calibrated({"white.red": tuple(range(15))}, {"white.red": 6}), clock)
    board.set_count("white.red", 8)
    assert (board.sensed("white.red"), board.over("white.red")) == (6, 2)
    assert len(board.snapshot()) == 6


def test_an_absurd_count_is_refused(board):
    with pytest.raises(SimulatorError, match="do not fit on black.blue"):
        board.set_count("black.blue", 10_001)


def test_unknown_field_is_refused(board):
    with pytest.raises(SimulatorError, match="unknown field 'white.green'"):
        board.place_skitt("white.green")


def test_removing_from_an_empty_field_is_refused(board):
    with pytest.raises(SimulatorError, match="no skitt on white.blue to remove"):
        board.remove_skitt("white.blue")


def test_magnet_cannot_arrive_twice(board):
    board.magnet_arrives(5)
    with pytest.raises(SimulatorError, match="cell 5 is already active"):
        board.magnet_arrives(5)


def test_cell_out_of_range_is_refused(board):
    with pytest.raises(SimulatorError, match="no cell 128"):
        board.magnet_arrives(128)


def test_big_skitt_on_its_centre_spot(board):
    board.place_big("white")
    assert board.snapshot() == {37}
    board.remove_big("white")
    assert board.snapshot() == frozenset()
    with pytest.raises(SimulatorError, match="not on its spot"):
        board.remove_big("white")


def test_bridge_puts_a_skitt_on_the_bridge_cell(board):
    board.bridge("white.yellow", "white.red")
    assert board.snapshot() == {29}


def test_bridge_between_unconnected_fields_is_refused(board):
    with pytest.raises(SimulatorError, match="no bridge between white.red and white.blue"):
        board.bridge("white.red", "white.blue")


def test_launch_press_releases_after_its_hold(board, clock):
    board.press_launch("black")
    assert [(e.cell, e.active) for e in board.poll()] == [(38, True)]
    clock.advance(0.1)
    assert [(e.cell, e.active, e.at) for e in board.poll()] == [(38, False, 10.1)]


def test_chatter_flickers_and_ends_as_it_was(board, clock):
    board.chatter(20, 3)
    clock.advance(1)
    assert [e.active for e in board.poll()] == [True, False] * 3
    assert board.snapshot() == frozenset()


def test_scheduled_events_wait_for_the_clock(board, clock):
    board.chatter(20, 2)
    assert len(board.events) == 1
    clock.advance(0.015)
    assert len(board.events) == 4


def test_assert_events_reports_the_difference(board):
    board.magnet_arrives(1)
    with pytest.raises(AssertionError, match="expected"):
        board.assert_events((2, True))


def test_closed_board_reports_nothing(board):
    board.magnet_arrives(1)
    board.close()
    assert board.poll() == []
    assert not board.status().up
