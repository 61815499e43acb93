"""Interrupt lines, buttons and LEDs on gpiozero's MockFactory (bench experiments, no Pi)."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_bridge.gpio import Buttons, InterruptLine, Leds
from firmware_bridge.source import SourceError

pytestmark = pytest.mark.unit


def test_interrupt_line_idles_high_on_the_pull_up(mock_factory: MockFactory) -> None:
    line = InterruptLine(4, pin_factory=mock_factory)
    assert not line.is_active
    assert not line.take()


def test_falling_interrupt_line_raises_the_flag_once(mock_factory: MockFactory) -> None:
    line = InterruptLine(4, pin_factory=mock_factory)
    pin = mock_factory.pin(4)
    pin.drive_low()
    assert line.is_active
    assert line.take()
    assert not line.take()  # the flag is cleared, though the line is still low
    assert line.is_active


def test_interrupt_line_on_a_pin_in_use_names_the_pin(mock_factory: MockFactory) -> None:
    first = InterruptLine(4, pin_factory=mock_factory)
    with pytest.raises(SourceError, match="GPIO 4"):
        InterruptLine(4, pin_factory=mock_factory)
    first.close()


def test_buttons_report_presses_in_order_once(mock_factory: MockFactory) -> None:
    buttons = Buttons(
        {"end_turn": 17, "undo": 27, "red_back": 22}, pin_factory=mock_factory, bounce_time=None
    )
    mock_factory.pin(27).drive_low()
    mock_factory.pin(27).drive_high()
    mock_factory.pin(17).drive_low()
    assert buttons.poll() == ["undo", "end_turn"]
    assert buttons.poll() == []
    assert buttons.is_pressed("end_turn")


def test_releasing_a_button_is_not_a_press(mock_factory: MockFactory) -> None:
    buttons = Buttons({"undo": 27}, pin_factory=mock_factory, bounce_time=None)
    mock_factory.pin(27).drive_low()
    buttons.poll()
    mock_factory.pin(27).drive_high()
    assert buttons.poll() == []


def test_unknown_button_name_is_refused_with_the_known_ones(mock_factory: MockFactory) -> None:
    with pytest.raises(SourceError, match="'end-turn' on GPIO 17: known are end_turn"):
        Buttons({"end-turn": 17}, pin_factory=mock_factory)


def test_two_buttons_on_one_pin_are_refused(mock_factory: MockFactory) -> None:
    with pytest.raises(SourceError, match="GPIO 17 is given to several buttons: end_turn, undo"):
        Buttons({"end_turn": 17, "undo": 17}, pin_factory=mock_factory)


def test_button_on_the_interrupt_pin_is_refused_and_frees_its_other_pins(
    mock_factory: MockFactory,
) -> None:
    line = InterruptLine(4, pin_factory=mock_factory)
    with pytest.raises(SourceError, match="button 'undo'"):
        Buttons({"end_turn": 17, "undo": 4}, pin_factory=mock_factory)
    kept = Buttons({"end_turn": 17}, pin_factory=mock_factory)  # pin 17 was released
    assert kept.names == ("end_turn",)
    line.close()


def test_leds_light_and_go_out(mock_factory: MockFactory) -> None:
    leds = Leds({"link": 5, "hold": 6}, pin_factory=mock_factory)
    leds.set("link", True)
    assert mock_factory.pin(5).state and not mock_factory.pin(6).state
    leds.set("link", False)
    assert not leds.is_lit("link")


def test_unknown_led_names_the_known_ones(mock_factory: MockFactory) -> None:
    leds = Leds({"link": 5}, pin_factory=mock_factory)
    with pytest.raises(KeyError, match="known are link"):
        leds.set("lnk", True)
