"""A board that changed during a gap in sensing is never scored: the referee decides.

The microcontroller is unplugged for 2 s, or goes silent for 2.5 s, and meanwhile black's
big skitt lands on its spot; the MCP23017 expanders drop off the bus (I2C error 121) while
the same happens. When sensing returns, the table must judge a fresh settled reading against
the match: the board differs, so the tracker goes to review and nothing is logged as sensed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from emulation.i2c import FakeI2C
from emulation.mcu import EmulatedMcu
from gpiozero.pins.mock import MockFactory
from source_rigs import Arrived
from waiting import wait_until

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.sources import open_source
from scorekeeper.clock import FakeClock
from scorekeeper.store import MatchStore
from web.table.sensing import Sensing
from web.table.table import Table

PROFILE = load_profile()
BLACK_BIG_SPOT = 36
STEP = 0.05


def serial_table(tmp_path: Path, clock: FakeClock) -> tuple[Table, EmulatedMcu, Arrived]:
    link = tmp_path / "ttyACM-skitter"
    mcu = EmulatedMcu(link, cells=PROFILE.cells)
    source = Arrived(open_source(f"serial:{link}", PROFILE, clock))
    source.start()

    def up() -> bool:
        if source.status().up:
            return True
        source.held += source.inner.poll()
        return False

    wait_until(up, "the emulated microcontroller's hello", timeout=3.0, every=0.002)
    pipeline = Pipeline(PROFILE, clock, initial=source.snapshot())
    store = MatchStore(tmp_path / "log.db")
    table = Table(store, clock=clock, wall=clock, sensing=Sensing(source, pipeline, PROFILE))
    table.new_match({}, {"first": "black"}, {"black": "Ann", "white": "Bo"}, {})
    return table, mcu, source


def run_serial(table: Table, clock: FakeClock, source: Arrived, mcu: EmulatedMcu,
               seconds: float, *, heartbeat: bool = True) -> None:
    """Poll as serve does for ``seconds`` of clock time, letting bytes cross the pty: each
    heartbeat sent while the host has the port open is waited on until it has been read and
    the link is up (the firmware answers the host's query on opening with a hello)."""
    for _ in range(round(seconds / STEP)):
        if heartbeat and mcu._master is not None:
            before = lines_read(source)
            mcu.heartbeat()

            def crossed(before: int = before) -> bool:
                source.held += source.inner.poll()
                if source.inner._conn is None:  # no port open: nothing crosses till it is
                    return True
                return lines_read(source) > before and source.status().up

            wait_until(crossed, "the heartbeat read by the host, the link up", timeout=5.0,
                       every=0.001)
        source.held += source.inner.poll()
        table.tick()
        clock.advance(STEP)


def lines_read(source: Arrived) -> int:
    """Lines the host has read from the link, whatever it made of them."""
    c = source.inner.counters()
    return int(c.states + c.hellos + c.refused + c.faults + c.dropped)


def sensed_steps(table: Table) -> list[dict[str, Any]]:
    return [e for e in table.full_log() if e["source"] == "sensor"]


def assert_referee_decides(table: Table) -> None:
    assert sensed_steps(table) == []
    assert table.tracker.mode == "review", table.tracker.status()
    assert table.snapshot()["tracker"]["big_differences"] == {"black": "unexpected"}


def test_a_board_changed_while_the_board_was_unplugged_goes_to_the_referee(
    tmp_path: Path,
) -> None:
    clock = FakeClock(10.0)
    table, mcu, source = serial_table(tmp_path, clock)
    try:
        run_serial(table, clock, source, mcu, 1.0)
        assert table.tracker.mode == "ready", table.tracker.status()
        mcu.unplug()
        run_serial(table, clock, source, mcu, 2.0)
        assert table.tracker.mode == "paused"
        mcu.bits |= 1 << BLACK_BIG_SPOT  # black's big skitt lands on its spot, unseen
        mcu.plug()
        run_serial(table, clock, source, mcu, 3.0)
        assert source.status().up
        assert_referee_decides(table)
    finally:
        table.close()
        mcu.close()


def test_a_board_changed_while_the_link_was_silent_goes_to_the_referee(tmp_path: Path) -> None:
    clock = FakeClock(10.0)
    table, mcu, source = serial_table(tmp_path, clock)
    try:
        run_serial(table, clock, source, mcu, 1.0)
        assert table.tracker.mode == "ready", table.tracker.status()
        mcu.bits |= 1 << BLACK_BIG_SPOT  # changed, but the firmware says nothing for 2.5 s
        run_serial(table, clock, source, mcu, 2.5, heartbeat=False)
        run_serial(table, clock, source, mcu, 3.0)
        assert source.status().up
        assert_referee_decides(table)
    finally:
        table.close()
        mcu.close()


def test_a_board_unchanged_across_a_gap_is_ready_again_without_the_referee(
    tmp_path: Path,
) -> None:
    clock = FakeClock(10.0)
    table, mcu, source = serial_table(tmp_path, clock)
    try:
        run_serial(table, clock, source, mcu, 1.0)
        mcu.unplug()
        run_serial(table, clock, source, mcu, 2.0)
        mcu.plug()
        # Under load the pty can lag the fake clock and the link may drop once more; each
        # gap ends the same way, so give it time (review would wait for the referee forever).
        for _ in range(4):
            run_serial(table, clock, source, mcu, 3.0)
            if table.tracker.mode == "ready":
                break
        assert table.tracker.mode == "ready", table.tracker.status()
        assert sensed_steps(table) == []
    finally:
        table.close()
        mcu.close()


def test_a_board_changed_while_the_expanders_were_off_the_bus_goes_to_the_referee(
    tmp_path: Path, mock_factory: MockFactory,
) -> None:
    clock = FakeClock(10.0)
    assert PROFILE.mcp23017 is not None and PROFILE.gpio is not None
    addresses = PROFILE.mcp23017.addresses
    bus = FakeI2C(addresses)
    for address, pin in zip(addresses, PROFILE.gpio.interrupt, strict=True):
        bus.wire_interrupt(mock_factory.pin(pin), (address, 0))
    source = open_source("mcp23017", PROFILE, clock, i2c=bus, pin_factory=mock_factory)
    source.start()
    pipeline = Pipeline(PROFILE, clock, initial=source.snapshot())
    table = Table(MatchStore(tmp_path / "log.db"), clock=clock, wall=clock,
                  sensing=Sensing(source, pipeline, PROFILE))
    table.new_match({}, {"first": "black"}, {"black": "Ann", "white": "Bo"}, {})

    def run(seconds: float) -> None:
        for _ in range(round(seconds / STEP)):
            table.tick()
            clock.advance(STEP)

    try:
        run(1.0)
        assert table.tracker.mode == "ready", table.tracker.status()
        bus.fail_next(10_000)  # OSError 121 on every transaction: the expanders drop off
        run(1.0)
        assert table.tracker.mode == "paused", source.status()
        bus.magnet(BLACK_BIG_SPOT, True)
        run(0.5)
        bus.fail_next(0)
        run(4.0)
        assert source.status().up
        assert_referee_decides(table)
    finally:
        table.close()
