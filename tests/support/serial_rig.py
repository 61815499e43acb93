"""The serial source against an emulated microcontroller on a pty: the helpers and the
fixtures of ``tests/sensing/test_serial_source*.py`` (docs/sensor-link.md); the fixtures reach
them through ``tests/sensing/conftest.py``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from emulation.mcu import EmulatedMcu
from waiting import wait_until

from firmware_bridge.serial_source import SerialSource
from firmware_bridge.source import SensorEvent
from scorekeeper.clock import FakeClock

CELLS = 12


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(50.0)


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "ttyACM-skitter"


@pytest.fixture
def mcu(link: Path) -> Iterator[EmulatedMcu]:
    with emulated_mcu(link) as board:
        yield board


@pytest.fixture
def source(link: Path, clock: FakeClock) -> Iterator[SerialSource]:
    with serial_source(link, clock) as src:
        yield src


@contextmanager
def emulated_mcu(link: Path) -> Iterator[EmulatedMcu]:
    """A microcontroller of :data:`CELLS` cells on a pty at ``link``, closed afterwards."""
    board = EmulatedMcu(link, cells=CELLS)
    try:
        yield board
    finally:
        board.close()


@contextmanager
def serial_source(link: Path, clock: FakeClock) -> Iterator[SerialSource]:
    """A serial source on ``link`` (not started), closed afterwards."""
    src = SerialSource(port=str(link), cells=CELLS, clock=clock)
    try:
        yield src
    finally:
        src.close()


def pump(
    src: SerialSource, until: Callable[[], bool], events: list[SensorEvent] | None = None
) -> list[SensorEvent]:
    """Poll until ``until()`` holds (bytes take a moment to cross the pty)."""
    got = [] if events is None else events

    def polled() -> bool:
        got.extend(src.poll())
        return until()

    try:
        wait_until(polled, "the condition over the pty", timeout=3.0, every=0.002)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; status {src.status()}, {src.counters()}") from None
    return got


def connected(src: SerialSource, mcu: EmulatedMcu) -> list[SensorEvent]:
    """Start and wait for the answer to the opening query: the hello AND the full state
    (the link is up on the hello alone, and the state may cross the pty a poll later)."""
    src.start()
    return pump(src, lambda: src.status().up and src.counters().states >= 1)
