"""The serial source end to end, the link's life: down after silence and up again, unplugged
and replugged, refused boards, a missing or busy port, and finding the port by USB id
(an emulated microcontroller on a pty, docs/sensor-link.md; what the link reads is in
``test_serial_source.py``).

Time decisions (hello retry, link down after 1 s of silence, reopen backoff) follow a
FakeClock; the only real waiting is for bytes to cross the pty (``pump``).
"""

from __future__ import annotations

import threading
from pathlib import Path
from types import SimpleNamespace

import pytest
from emulation.mcu import EmulatedMcu
from serial_rig import CELLS, connected, pump

from firmware_bridge import serial_port
from firmware_bridge.serial_port import find_port
from firmware_bridge.serial_source import SerialSource
from firmware_bridge.source import SensorEvent, SourceError
from scorekeeper.clock import FakeClock


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
    monkeypatch.setattr(serial_port.list_ports, "comports", lambda: ports)
    assert find_port([(0x2E8A, 0x0005), (0x239A, 0x80F4)]) == "/dev/ttyACM1"
    assert find_port([(0x0403, 0x6001)]) == "/dev/ttyUSB0"
    assert find_port([(0x1234, 0x5678)]) is None


def test_without_a_port_name_the_board_is_found_when_plugged_in(
    monkeypatch: pytest.MonkeyPatch, link: Path, clock: FakeClock
) -> None:
    ports: list[SimpleNamespace] = []
    monkeypatch.setattr(serial_port.list_ports, "comports", lambda: ports)
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
    monkeypatch.setattr(serial_port.list_ports, "comports", lambda: ports)
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
