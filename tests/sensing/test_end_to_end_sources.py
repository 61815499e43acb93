"""One match, three ways to sense it: the same raw cell events through the MCP23017 emulation,
the emulated microcontroller on a serial pty, and the simulator end with the same score.

Each run goes through the production wiring (source → pipeline → tracker → match → store,
``web.table.table.Table``) on a FakeClock; only the serial link needs real moments for bytes to
cross the pty."""

from __future__ import annotations

from pathlib import Path

from gpiozero.pins.mock import MockFactory
from source_rigs import (
    McpRig,
    SerialRig,
    SimRig,
    check,
    run_table,
)

from scorekeeper.clock import FakeClock


def test_the_simulator_scores_the_scripted_match(tmp_path: Path) -> None:
    clock = FakeClock(10.0)
    check(run_table(SimRig(clock), clock, tmp_path, lambda: None))


def test_the_mcp23017_expanders_score_the_same_match(
    tmp_path: Path, mock_factory: MockFactory
) -> None:
    clock = FakeClock(10.0)
    check(run_table(McpRig(clock, mock_factory), clock, tmp_path, lambda: None))


def test_the_serial_microcontroller_scores_the_same_match(tmp_path: Path) -> None:
    clock = FakeClock(10.0)
    rig = SerialRig(clock, tmp_path / "ttyACM-skitter")

    try:
        check(run_table(rig, clock, tmp_path, rig.wait_link_up))
    finally:
        rig.close()
