"""The board's GPIO buttons and LEDs act on the live match like the tablet (gpiozero mock pins)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.profile import load_profile
from scorekeeper.clock import FakeClock
from web.table.controls import HardwareControls
from web.table.table import Table
from web.table.wiring import open_table

GPIO = load_profile().gpio  # the shipped board: black 5/6/13, white 19/26/16, referee 20
BLACK_END_TURN, BLACK_RED_BACK, WHITE_END_TURN, REFEREE_UNDO = 5, 13, 19, 20
BLACK_LED, WHITE_LED = 23, 24
CENTER = {"black": "center", "white": "center"}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    clock = FakeClock(0.0)
    t = open_table(tmp_path / "log.db", "sim", clock=clock, wall=clock)
    try:
        yield t
    finally:
        t.close()


@pytest.fixture
def controls(table: Table, mock_factory: MockFactory) -> Iterator[HardwareControls]:
    c = HardwareControls(table, GPIO, pin_factory=mock_factory)
    try:
        yield c
    finally:
        c.close()


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()
    factory.pin(pin).drive_high()


def test_end_of_turn_button_records_a_shot_that_changed_nothing(table, controls, mock_factory):
    table.new_match({}, {"first": "black", "big": CENTER}, {}, {})
    press(mock_factory, BLACK_END_TURN)
    controls.poll()
    assert table.match.state.turn == "white"
    assert table.full_log()[-1]["source"] == "button"


def test_end_of_turn_button_of_the_player_not_due_changes_nothing(table, controls, mock_factory):
    table.new_match({}, {"first": "black", "big": CENTER}, {}, {})
    press(mock_factory, WHITE_END_TURN)
    controls.poll()
    assert table.match.state.turn == "black"
    assert table.full_log() == []
    assert "not white's turn" in controls.last_message


def test_end_of_turn_while_a_big_skitt_must_be_placed_is_a_miss(table, controls, mock_factory):
    table.new_match({}, {"first": "black"}, {}, {})
    press(mock_factory, BLACK_END_TURN)
    controls.poll()
    assert table.full_log()[-1]["step"] == {"shot": {"by": "black", "big": "missed"}}


def test_referee_undo_button_takes_the_last_step_back(table, controls, mock_factory):
    table.new_match({}, {"first": "black", "big": CENTER}, {}, {})
    table.apply_step({"shot": {"by": "black", "delta": {"white.red": 1}}})
    press(mock_factory, REFEREE_UNDO)
    controls.poll()
    assert table.match.state.turn == "black"
    assert table.match.state.to_json()["board"]["white.red"] == 0


def test_red_back_button_pushes_the_next_hit_on_red_point_back(table, controls, mock_factory):
    # R4: until the next shot the scorer may change a point to back.
    table.new_match({}, {"first": "black", "big": CENTER, "board": {"white.red": 2},
                         "score": {"white": 2}}, {}, {})
    table.apply_step({"shot": {"by": "black", "delta": {"white.red": 1}}})
    assert table.match.state.to_json()["score"] == {"black": 1, "white": 2}
    press(mock_factory, BLACK_RED_BACK)
    controls.poll()
    assert table.match.state.to_json()["score"] == {"black": 0, "white": 1}


def test_red_back_without_a_red_point_is_refused_and_changes_nothing(
    table, controls, mock_factory
):
    table.new_match({}, {"first": "black", "big": CENTER}, {}, {})
    press(mock_factory, BLACK_RED_BACK)
    controls.poll()
    assert table.full_log() == []
    assert "no Hit on Red point" in controls.last_message


def test_the_led_of_the_player_due_is_lit(table, controls, mock_factory):
    table.new_match({}, {"first": "black", "big": CENTER}, {}, {})
    controls.poll()
    assert mock_factory.pin(BLACK_LED).state and not mock_factory.pin(WHITE_LED).state
    table.apply_step({"shot": {"by": "black", "delta": {}}})
    controls.poll()
    assert mock_factory.pin(WHITE_LED).state and not mock_factory.pin(BLACK_LED).state
