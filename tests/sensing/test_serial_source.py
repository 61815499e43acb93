"""The serial source end to end, what it reads: an emulated microcontroller on a pty
(docs/sensor-link.md); the link's life (down, refused, reconnected, its port) is in
``test_serial_source_link.py``.

Time decisions (hello retry, link down after 1 s of silence, reopen backoff) follow a
FakeClock; the only real waiting is for bytes to cross the pty (``pump``).
"""

from __future__ import annotations

from emulation.mcu import EmulatedMcu
from serial_rig import CELLS, connected, pump

from firmware_bridge.serial_source import SerialSource
from firmware_bridge.source import SensorEvent, Source
from scorekeeper.clock import FakeClock


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


def test_degraded_status_clears_after_ten_quiet_seconds(
    source: SerialSource, mcu: EmulatedMcu, clock: FakeClock
) -> None:
    connected(source, mcu)
    mcu.send_garbage()
    pump(source, lambda: source.status().degraded)
    for step in range(1, 21):  # 10 s of good frames, each inside the 1 s silence limit
        clock.advance(0.5)
        mcu.magnet(4, step % 2 == 1)
        pump(source, lambda step=step: (4 in source.snapshot()) == (step % 2 == 1))
        assert source.status().degraded == (step < 20)
    assert source.status().up


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
