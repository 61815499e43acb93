"""The serial source end to end: an emulated microcontroller on a pty (docs/sensor-link.md).

Time decisions (hello retry, link down after 1 s of silence, reopen backoff) follow a
FakeClock; the only real waiting is for bytes to cross the pty (``pump``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from emulation.mcu import EmulatedMcu

from firmware_bridge import serial_source
from firmware_bridge.serial_source import SerialSource, find_port
from firmware_bridge.source import SensorEvent, Source, SourceError
from scorekeeper.clock import FakeClock

CELLS = 12


def pump(
    src: SerialSource, until: Callable[[], bool], events: list[SensorEvent] | None = None
) -> list[SensorEvent]:
    """Poll until ``until()`` holds (bytes take a moment to cross the pty)."""
    got = [] if events is None else events
    deadline = time.monotonic() + 3.0
    while time.monotonic() < deadline:
        got += src.poll()
        if until():
            return got
        time.sleep(0.002)
    raise AssertionError(f"condition not met; status {src.status()}, {src.counters()}")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(50.0)


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "ttyACM-skitter"


@pytest.fixture
def mcu(link: Path) -> Iterator[EmulatedMcu]:
    board = EmulatedMcu(link, cells=CELLS)
    try:
        yield board
    finally:
        board.close()


@pytest.fixture
def source(link: Path, clock: FakeClock) -> Iterator[SerialSource]:
    src = SerialSource(port=str(link), cells=CELLS, clock=clock)
    try:
        yield src
    finally:
        src.close()


def connected(src: SerialSource, mcu: EmulatedMcu) -> list[SensorEvent]:
    """Start and wait for the answer to the opening query: the hello AND the full state
    (the link is up on the hello alone, and the state may cross the pty a poll later)."""
    src.start()
    return pump(src, lambda: src.status().up and src.counters().states >= 1)


def test_source_satisfies_the_protocol(source: SerialSource) -> None:
    assert isinstance(source, Source)
    assert source.name == "serial"


def test_hello_and_full_state_bring_the_link_up(source: SerialSource, mcu: EmulatedMcu) -> None:
    mcu.bits = 0b101
    events = connected(source, mcu)
    pump(source, lambda: source.snapshot() == {0, 2}, events)
    assert events == [SensorEvent(0, True, 50.0), SensorEvent(2, True, 50.0)]
    assert source.hello is not None and source.hello.board_id == "bench-1"
    assert source.counters().hellos == 1


def test_state_changes_become_events(
    source: SerialSource, mcu: EmulatedMcu, clock: FakeClock
) -> None:
    connected(source, mcu)
    clock.advance(0.1)
    mcu.magnet(7, True)
    events = pump(source, lambda: 7 in source.snapshot())
    assert events == [SensorEvent(7, True, 50.1)]
    mcu.magnet(7, False)
    assert pump(source, lambda: not source.snapshot()) == [SensorEvent(7, False, 50.1)]


def test_garbage_is_dropped_and_the_next_frame_still_read(
    source: SerialSource, mcu: EmulatedMcu
) -> None:
    connected(source, mcu)
    mcu.send_garbage()
    mcu.magnet(3, True)
    pump(source, lambda: 3 in source.snapshot())
    counters = source.counters()
    assert counters.not_ascii == 1 and counters.malformed == 1
    status = source.status()
    assert status.up and status.degraded and "2 bad lines" in status.message


def test_frame_with_bad_crc_is_dropped_and_counted(source: SerialSource, mcu: EmulatedMcu) -> None:
    connected(source, mcu)
    mcu.send_bad_crc(bits=0xFFF)
    mcu.magnet(1, True)
    pump(source, lambda: 1 in source.snapshot())
    assert source.snapshot() == {1}  # the corrupted frame's cells never appeared
    assert source.counters().bad_crc == 1


def test_over_long_line_is_dropped_as_too_long(source: SerialSource, mcu: EmulatedMcu) -> None:
    connected(source, mcu)
    mcu.send_long_line()
    mcu.magnet(4, True)
    pump(source, lambda: 4 in source.snapshot())
    assert source.counters().too_long == 1


def test_state_with_a_bit_above_the_cell_count_is_dropped(
    source: SerialSource, mcu: EmulatedMcu
) -> None:
    connected(source, mcu)
    mcu.set_bits(1 << CELLS)
    mcu.set_bits(0b10)
    pump(source, lambda: source.snapshot() == {1})
    assert source.counters().malformed == 1


def test_sequence_gap_is_counted_and_the_newest_state_wins(
    source: SerialSource, mcu: EmulatedMcu
) -> None:
    connected(source, mcu)
    mcu.skip(3)
    mcu.magnet(9, True)
    pump(source, lambda: 9 in source.snapshot())
    assert source.counters().gaps == 1
    assert "1 sequence gaps" in source.status().message


def test_hello_resets_sequence_tracking(source: SerialSource, mcu: EmulatedMcu) -> None:
    connected(source, mcu)
    mcu.skip(100)
    mcu.reboot()  # hello, then S 0
    mcu.heartbeat()  # S 1 after S 0: in sequence
    pump(source, lambda: source.counters().states == 3)  # S 0 at connect, S 0, S 1
    assert source.counters().hellos == 2
    assert source.counters().gaps == 0


def test_fault_frame_is_shown_but_keeps_the_link_up(source: SerialSource, mcu: EmulatedMcu) -> None:
    connected(source, mcu)
    mcu.send_fault("brownout", "supply dipped")
    pump(source, lambda: source.counters().faults == 1)
    status = source.status()
    assert status.up and "board fault brownout supply dipped" in status.message


def test_silence_for_a_second_takes_the_link_down_then_it_reconnects(
    source: SerialSource, mcu: EmulatedMcu, clock: FakeClock
) -> None:
    connected(source, mcu)
    clock.advance(0.9)
    source.poll()
    assert source.status().up
    clock.advance(0.2)
    source.poll()
    status = source.status()
    assert not status.up
    assert status.message == "sensor link down: no valid frame for 1.1 s"
    clock.advance(0.25)  # first reopen after the backoff: `?` again, hello, up
    pump(source, lambda: source.status().up)
    assert source.counters().opens == 2 and mcu.queries == 2


def test_heartbeats_keep_the_link_up(
    source: SerialSource, mcu: EmulatedMcu, clock: FakeClock
) -> None:
    connected(source, mcu)
    for _ in range(10):
        clock.advance(0.2)
        seen = source.counters().states
        mcu.heartbeat()
        pump(source, lambda seen=seen: source.counters().states == seen + 1)
        assert source.status().up
    assert source.counters().opens == 1


def test_unplug_and_replug_reconnects(
    source: SerialSource, mcu: EmulatedMcu, clock: FakeClock
) -> None:
    connected(source, mcu)
    mcu.unplug()
    pump(source, lambda: not source.status().up)
    assert "went away" in source.status().message
    for _ in range(4):  # the device node is gone: opening fails, backoff grows to 2 s
        clock.advance(2.0)
        source.poll()
        assert "cannot open" in source.status().message
    mcu.bits = 0b1000
    mcu.plug()
    clock.advance(2.0)
    events = pump(source, lambda: source.status().up and 3 in source.snapshot())
    assert SensorEvent(3, True, clock.now()) in events


def test_wrong_cell_count_is_refused_naming_both_values(
    link: Path, clock: FakeClock
) -> None:
    mcu = EmulatedMcu(link, cells=CELLS, hello_cells=16)
    src = SerialSource(port=str(link), cells=CELLS, clock=clock)
    try:
        src.start()
        pump(src, lambda: src.counters().refused == 1)
        status = src.status()
        assert not status.up
        assert "board reports 16 cells, the profile expects 12" in status.message
        clock.advance(1.0)  # still no accepted hello: ask again every second
        pump(src, lambda: mcu.queries == 2)
        assert not src.status().up and src.snapshot() == frozenset()
    finally:
        src.close()
        mcu.close()


def test_wrong_board_id_is_refused_naming_both_values(
    link: Path, clock: FakeClock, mcu: EmulatedMcu
) -> None:
    src = SerialSource(port=str(link), cells=CELLS, clock=clock, board_id="club-7")
    try:
        src.start()
        pump(src, lambda: src.counters().refused == 1)
        assert "board id is 'bench-1', the profile expects 'club-7'" in src.status().message
    finally:
        src.close()


def test_states_before_a_hello_are_dropped(link: Path, clock: FakeClock) -> None:
    mcu = EmulatedMcu(link, cells=CELLS, answer_queries=False)
    src = SerialSource(port=str(link), cells=CELLS, clock=clock)
    try:
        src.start()
        mcu.set_bits(0b1)
        pump(src, lambda: src.counters().before_hello == 1)
        assert src.snapshot() == frozenset()
        assert src.status().message.startswith("sensor link down: waiting for a hello")
    finally:
        src.close()
        mcu.close()


def test_without_a_hello_the_query_is_repeated_every_second(
    link: Path, clock: FakeClock
) -> None:
    mcu = EmulatedMcu(link, cells=CELLS, answer_queries=False)
    src = SerialSource(port=str(link), cells=CELLS, clock=clock)
    try:
        src.start()
        pump(src, lambda: mcu.queries == 1)
        clock.advance(0.5)
        src.poll()
        clock.advance(0.5)
        pump(src, lambda: mcu.queries == 2)
        clock.advance(1.0)
        pump(src, lambda: mcu.queries == 3)
        assert src.counters().opens == 1  # asking again, not reopening
        mcu.answer_queries = True
        clock.advance(1.0)
        pump(src, lambda: src.status().up)
    finally:
        src.close()
        mcu.close()


def test_missing_port_at_start_is_not_an_error_and_is_retried(
    link: Path, clock: FakeClock
) -> None:
    src = SerialSource(port=str(link), cells=CELLS, clock=clock)
    try:
        src.start()
        assert src.poll() == []
        assert f"cannot open {link}" in src.status().message
        mcu = EmulatedMcu(link, cells=CELLS)
        clock.advance(0.25)
        pump(src, lambda: src.status().up)
        mcu.close()
    finally:
        src.close()


def test_close_stops_the_reader_thread_and_is_safe_twice(
    source: SerialSource, mcu: EmulatedMcu
) -> None:
    connected(source, mcu)
    source.close()
    source.close()
    assert not [t for t in threading.enumerate() if t.name.startswith("serial-reader")]
    assert not source.status().up


def test_zero_cells_is_a_bad_option(clock: FakeClock) -> None:
    with pytest.raises(SourceError, match="at least one cell"):
        SerialSource(port="/dev/null", cells=0, clock=clock)


def _port(
    device: str, vid: int, pid: int, interface: str | None = None, location: str | None = None
) -> SimpleNamespace:
    return SimpleNamespace(
        device=device, vid=vid, pid=pid, interface=interface, location=location
    )


def test_port_is_found_by_usb_id_preferring_circuitpython_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ports = [
        _port("/dev/ttyUSB0", 0x0403, 0x6001),
        _port("/dev/ttyACM0", 0x239A, 0x80F4, "CircuitPython CDC control"),
        _port("/dev/ttyACM1", 0x239A, 0x80F4, "CircuitPython CDC2 control"),
    ]
    monkeypatch.setattr(serial_source.list_ports, "comports", lambda: ports)
    assert find_port([(0x2E8A, 0x0005), (0x239A, 0x80F4)]) == "/dev/ttyACM1"
    assert find_port([(0x0403, 0x6001)]) == "/dev/ttyUSB0"
    assert find_port([(0x1234, 0x5678)]) is None


def test_without_a_port_name_the_board_is_found_when_plugged_in(
    monkeypatch: pytest.MonkeyPatch, link: Path, clock: FakeClock
) -> None:
    ports: list[SimpleNamespace] = []
    monkeypatch.setattr(serial_source.list_ports, "comports", lambda: ports)
    src = SerialSource(port=None, cells=CELLS, clock=clock)
    try:
        src.start()
        assert "no board with USB id 2e8a:0005 or 239a:80f4 found" in src.status().message
        mcu = EmulatedMcu(link, cells=CELLS)
        ports.append(_port(str(link), 0x2E8A, 0x0005))
        clock.advance(0.25)
        pump(src, lambda: src.status().up)
        mcu.close()
    finally:
        src.close()


def test_circuitpython_data_port_is_known_by_its_usb_interface_number(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Some kernels report no interface string; the data port is still USB interface 2.
    ports = [
        _port("/dev/ttyACM0", 0x239A, 0x80F4, location="1-1.3:1.0"),
        _port("/dev/ttyACM1", 0x239A, 0x80F4, location="1-1.3:1.2"),
    ]
    monkeypatch.setattr(serial_source.list_ports, "comports", lambda: ports)
    assert find_port([(0x239A, 0x80F4)]) == "/dev/ttyACM1"


def test_a_second_program_is_told_the_port_is_in_use_and_the_first_keeps_its_link(
    link: Path, clock: FakeClock, mcu: EmulatedMcu
) -> None:
    server = SerialSource(port=str(link), cells=CELLS, clock=clock)
    other = SerialSource(port=str(link), cells=CELLS, clock=clock)
    try:
        connected(server, mcu)
        other.start()
        status = other.status()
        assert not status.up
        assert "in use by another program" in status.message
        mcu.magnet(3, True)
        events: list[SensorEvent] = []
        pump(server, lambda: any(e.cell == 3 for e in events), events)
        assert server.status().up
    finally:
        other.close()
        server.close()
