"""The MCP23017 source: the real Adafruit driver on an emulated bus, interrupts on MockFactory.

Cells are ``address_index * 16 + pin``; the Hall switches pull low on a magnet (active low).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from emulation.i2c import (
    DEFVALA,
    GPINTENA,
    GPINTENB,
    GPPUA,
    GPPUB,
    INTCONA,
    IOCON,
    IODIRA,
    IODIRB,
    FakeI2C,
)
from gpiozero.pins.mock import MockFactory

from firmware_bridge.mcp23017 import MCP23017Source
from firmware_bridge.source import SensorEvent, Source, SourceError
from scorekeeper.clock import FakeClock

pytestmark = pytest.mark.unit


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


ADDRS = (0x20, 0x21)


def make_source(
    bus: FakeI2C, clock: FakeClock, factory: MockFactory | None, **kw: object
) -> MCP23017Source:
    options: dict[str, object] = {
        "addresses": ADDRS,
        "cells": 32,
        "clock": clock,
        "i2c": bus,
        "interrupt_pins": (17, 27) if factory is not None else (),
        "pin_factory": factory,
    }
    options.update(kw)
    src = MCP23017Source(**options)  # type: ignore[arg-type]
    return src


@pytest.fixture
def bus(mock_factory: MockFactory) -> FakeI2C:
    bus = FakeI2C(ADDRS)
    bus.wire_interrupt(mock_factory.pin(17), (0x20, 0))
    bus.wire_interrupt(mock_factory.pin(27), (0x21, 0))
    return bus


@pytest.fixture
def source(bus: FakeI2C, clock: FakeClock, mock_factory: MockFactory) -> Iterator[MCP23017Source]:
    src = make_source(bus, clock, mock_factory)
    src.start()
    try:
        yield src
    finally:
        src.close()


def test_source_satisfies_the_protocol(source: MCP23017Source) -> None:
    assert isinstance(source, Source)
    assert source.name == "mcp23017"


# --- configuration ---------------------------------------------------------------------------


def test_inputs_get_pull_ups_and_output_only_pins_become_outputs(
    source: MCP23017Source, bus: FakeI2C
) -> None:
    regs = bus.chips[0x20].regs
    assert (regs[IODIRA], regs[IODIRB]) == (0x7F, 0x7F)  # GPA7/GPB7 outputs
    assert (regs[GPPUA], regs[GPPUB]) == (0x7F, 0x7F)


def test_interrupts_compare_with_previous_value_on_sensor_pins(
    source: MCP23017Source, bus: FakeI2C
) -> None:
    regs = bus.chips[0x21].regs
    assert (regs[GPINTENA], regs[GPINTENB]) == (0x7F, 0x7F)
    assert regs[INTCONA] == 0 and regs[INTCONA + 1] == 0
    assert regs[DEFVALA] == 0


def test_int_outputs_are_mirrored_and_open_drain(source: MCP23017Source, bus: FakeI2C) -> None:
    assert bus.chips[0x20].regs[IOCON] & 0x44 == 0x44


def test_only_wired_cells_raise_interrupts(bus: FakeI2C, clock: FakeClock, mock_factory) -> None:
    src = make_source(bus, clock, mock_factory, wired=[0, 1, 9])
    src.start()
    assert (bus.chips[0x20].regs[GPINTENA], bus.chips[0x20].regs[GPINTENB]) == (0x03, 0x02)
    assert bus.chips[0x21].regs[GPINTENA] == 0
    src.close()


# --- GPA7/GPB7 -------------------------------------------------------------------------------


def test_sensor_on_gpa7_is_refused_naming_pin_and_expander(clock: FakeClock) -> None:
    with pytest.raises(SourceError, match="cell 7 is on GPA7 of the expander at 0x20"):
        MCP23017Source(addresses=ADDRS, cells=32, clock=clock, i2c=FakeI2C(ADDRS), wired=[6, 7])


def test_sensor_on_gpb7_of_the_second_expander_is_refused(clock: FakeClock) -> None:
    with pytest.raises(SourceError, match="cell 31 is on GPB7 of the expander at 0x21"):
        MCP23017Source(addresses=ADDRS, cells=32, clock=clock, i2c=FakeI2C(ADDRS), wired=[31])


def test_default_cells_skip_the_output_only_pins(source: MCP23017Source, bus: FakeI2C) -> None:
    source.poll()
    bus.set_input(0x20, 7, 0)
    bus.set_input(0x20, 15, 0)
    assert source.poll() == []


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"addresses": (0x19,)}, "0x19 is outside 0x20-0x27"),
        ({"addresses": (0x20, 0x20)}, "0x20 is listed twice"),
        ({"addresses": tuple(range(0x20, 0x28)) + (0x20,)}, "use 1 to 8"),
        ({"cells": 33}, "33 cells do not fit 2 expander"),
        ({"interrupt_pins": (1, 2, 3)}, "3 interrupt pins for 2 expanders"),
        ({"wired": [40]}, "cell 40 is outside 0..31"),
    ],
)
def test_bad_options_are_refused_with_the_reason(
    clock: FakeClock, kw: dict[str, object], message: str
) -> None:
    with pytest.raises(SourceError, match=message):
        make_source(FakeI2C(ADDRS), clock, None, **kw)


# --- reading ---------------------------------------------------------------------------------


def test_magnet_present_at_start_is_reported_on_first_poll(
    bus: FakeI2C, clock: FakeClock, mock_factory: MockFactory
) -> None:
    bus.magnet(3, True)
    src = make_source(bus, clock, mock_factory)
    src.start()
    assert src.poll() == [SensorEvent(3, True, 100.0)]
    assert src.snapshot() == {3}
    src.close()


def test_interrupt_triggers_a_read_of_that_expander_only(
    source: MCP23017Source, bus: FakeI2C, clock: FakeClock, mock_factory: MockFactory
) -> None:
    source.poll()
    before = bus.transactions
    assert source.poll() == []
    assert bus.transactions == before  # nothing fired, nothing read
    clock.advance(0.01)
    bus.magnet(18, True)  # 0x21 GPA2
    assert not mock_factory.pin(27).state  # INTA of 0x21 pulled low
    assert source.poll() == [SensorEvent(18, True, 100.01)]
    assert bus.transactions == before + 1  # one 16-bit GPIO read of 0x21
    assert mock_factory.pin(27).state  # the read cleared the interrupt


def test_port_b_change_fires_the_mirrored_inta(
    source: MCP23017Source, bus: FakeI2C, mock_factory: MockFactory
) -> None:
    source.poll()
    bus.magnet(12, True)  # 0x20 GPB4: only INTA is wired, mirroring makes it fire
    assert not mock_factory.pin(17).state
    assert source.poll() == [SensorEvent(12, True, 100.0)]


def test_magnet_leaving_is_reported_inactive(
    source: MCP23017Source, bus: FakeI2C, clock: FakeClock
) -> None:
    bus.magnet(5, True)
    source.poll()
    clock.advance(0.5)
    bus.magnet(5, False)
    assert source.poll() == [SensorEvent(5, False, 100.5)]
    assert source.snapshot() == frozenset()


def test_active_high_switches_are_read_the_other_way_round(
    bus: FakeI2C, clock: FakeClock, mock_factory: MockFactory
) -> None:
    src = make_source(bus, clock, mock_factory, active_low=False)
    for cell in range(32):
        if cell % 16 != 7:
            bus.magnet(cell, False, active_low=False)
    src.start()
    src.poll()
    bus.magnet(2, True, active_low=False)
    assert src.poll() == [SensorEvent(2, True, 100.0)]
    src.close()


def test_lost_edge_is_caught_by_the_backstop_full_read(
    source: MCP23017Source, bus: FakeI2C, clock: FakeClock, mock_factory: MockFactory
) -> None:
    source.poll()
    bus.chips[0x20].drive(4, 0)  # the chip sees it, but the wire to the Pi is broken
    assert source.poll() == []  # wire not updated: no interrupt seen
    clock.advance(1.0)
    assert source.poll() == [SensorEvent(4, True, 101.0)]
    assert source.counters().full_reads == 1


def test_interrupt_line_still_low_is_read_again(
    source: MCP23017Source, bus: FakeI2C, mock_factory: MockFactory
) -> None:
    source.poll()
    line = mock_factory.pin(17)
    listener, line.when_changed = line.when_changed, None  # the Pi misses the falling edge
    bus.magnet(1, True)
    line.when_changed = listener
    assert not line.state  # the expander still holds the line low
    assert source.poll() == [SensorEvent(1, True, 100.0)]


def test_one_shared_interrupt_line_reads_every_expander(
    clock: FakeClock, mock_factory: MockFactory
) -> None:
    bus = FakeI2C(ADDRS)
    bus.wire_interrupt(mock_factory.pin(4), (0x20, 0), (0x21, 0))
    src = make_source(bus, clock, mock_factory, interrupt_pins=(4,))
    src.start()
    src.poll()
    bus.magnet(20, True)
    assert src.poll() == [SensorEvent(20, True, 100.0)]
    assert mock_factory.pin(4).state
    src.close()


def test_without_interrupt_pins_every_poll_reads(bus: FakeI2C, clock: FakeClock) -> None:
    src = make_source(bus, clock, None)
    src.start()
    src.poll()
    bus.magnet(30, True)
    assert src.poll() == [SensorEvent(30, True, 100.0)]
    src.close()


def test_expander_that_lost_its_setup_is_reconfigured_at_the_backstop(
    source: MCP23017Source, bus: FakeI2C, clock: FakeClock
) -> None:
    source.poll()
    bus.chips[0x21].regs[GPINTENA] = 0  # a brown-out reset its registers
    clock.advance(1.0)
    source.poll()
    assert bus.chips[0x21].regs[GPINTENA] == 0x7F
    assert source.counters().reconfigurations == 3


# --- errors ----------------------------------------------------------------------------------


def test_i2c_error_is_retried_and_shown_as_degraded(
    source: MCP23017Source, bus: FakeI2C, clock: FakeClock
) -> None:
    source.poll()
    bus.magnet(2, True)
    bus.fail_next(2)
    assert source.poll() == [SensorEvent(2, True, 100.0)]
    status = source.status()
    assert status.up and status.degraded and status.errors == 2
    assert "I2C errors: 2 in the last 10 s" in status.message


def test_degraded_status_clears_after_quiet_time(
    source: MCP23017Source, bus: FakeI2C, clock: FakeClock
) -> None:
    bus.fail_next(1)
    clock.advance(1.0)
    source.poll()
    assert source.status().degraded
    clock.advance(10.0)
    status = source.status()
    assert status.up and not status.degraded and status.errors == 1


def test_persistent_errors_take_the_expander_down_then_it_recovers(
    source: MCP23017Source, bus: FakeI2C, clock: FakeClock
) -> None:
    source.poll()
    bus.magnet(21, True)
    bus.fail_next(3)  # every retry of the read fails
    assert source.poll() == []
    status = source.status()
    assert not status.up and "0x21 not answering (I2C error 121" in status.message
    clock.advance(2.0)
    assert source.poll() == [SensorEvent(21, True, 102.0)]
    assert source.status().up


def test_expander_missing_at_start_is_not_an_error_and_is_retried(
    clock: FakeClock, mock_factory: MockFactory
) -> None:
    bus = FakeI2C(ADDRS, present=[0x20])
    src = make_source(bus, clock, mock_factory)
    src.start()
    status = src.status()
    assert not status.up and status.degraded
    assert "MCP23017 at 0x21 not answering (no answer at its address)" in status.message
    bus.attach(0x21)
    bus.magnet(16, True)
    clock.advance(1.0)
    src.poll()
    assert not src.status().up  # retried only every 2 s
    clock.advance(1.0)
    assert src.poll() == [SensorEvent(16, True, 102.0)]
    assert src.status().up
    assert bus.chips[0x21].regs[IODIRA] == 0x7F  # configured on arrival
    src.close()


def test_random_bus_noise_never_raises_and_the_board_is_read_right(
    source: MCP23017Source, bus: FakeI2C, clock: FakeClock
) -> None:
    bus.fail_randomly(0.2)
    for cell in (0, 5, 17, 22):
        bus.magnet(cell, True)
    for _ in range(50):
        clock.advance(0.25)
        source.poll()
    bus.fail_randomly(0.0)
    clock.advance(2.0)
    source.poll()
    assert source.snapshot() == {0, 5, 17, 22}
    assert source.status().errors == bus.errors_raised > 0


def test_no_i2c_bus_off_a_pi_stops_with_a_clear_error(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("firmware_bridge.i2c_bus.raspberry_pi_model", lambda: None)
    src = MCP23017Source(addresses=(0x20,), cells=16, clock=clock, bus=93)
    with pytest.raises(SourceError, match="I2C bus device /dev/i2c-93 does not exist: this "
                       "computer is not a Raspberry Pi; read the board with --source serial"):
        src.start()


def test_no_i2c_bus_on_a_pi_says_how_to_enable_it(
    clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("firmware_bridge.i2c_bus.raspberry_pi_model",
                        lambda: "Raspberry Pi 5 Model B Rev 1.0")
    src = MCP23017Source(addresses=(0x20,), cells=16, clock=clock, bus=93)
    with pytest.raises(SourceError, match="I2C bus device /dev/i2c-93 does not exist: I2C is "
                       "not enabled on this Pi"):
        src.start()


def test_default_profile_opens_through_sources_and_reads_the_centre_spot(
    clock: FakeClock, mock_factory: MockFactory
) -> None:
    from firmware_bridge.profile import load_profile
    from firmware_bridge.sources import open_source

    profile = load_profile()
    addresses = tuple(range(0x20, 0x28))  # the eight expanders of the reference board
    assert profile.mcp23017 is not None and profile.mcp23017.addresses == addresses
    bus = FakeI2C(addresses)
    for pin, address in zip((17, 27, 22, 4, 12, 18, 25, 21), addresses, strict=True):
        bus.wire_interrupt(mock_factory.pin(pin), (address, 0))
    src = open_source("mcp23017", profile, clock, i2c=bus, pin_factory=mock_factory)
    src.start()
    try:
        src.poll()
        bus.magnet(36, True)  # 0x22 GPA4: black's big-skitt centre spot
        assert src.poll() == [SensorEvent(36, True, 100.0)]
        bus.magnet(126, True)  # 0x27 GPB6: the last cell under the minus field
        assert src.poll() == [SensorEvent(126, True, 100.0)]
        assert src.status().up
    finally:
        src.close()
