"""``skitter selftest``: the walk on the command line, its sheet printed, kept and written."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from source_rigs import PROFILE

from firmware_bridge.selftest import SelfTest
from firmware_bridge.simulator import SimulatedBoard
from scorekeeper.clock import FakeClock
from skitter_cli.main import main
from skitter_cli.selftest import walk
from web.table import selftest_record

DEAD = 26


def test_the_walk_says_what_to_do_and_moves_on_from_a_dead_cell() -> None:
    clock = FakeClock(10.0)
    sim = SimulatedBoard(PROFILE, clock)
    sim.start()
    test = SelfTest(PROFILE, clock.now(), source="sim", buttons={})
    plan: list[tuple[int, bool]] = []

    def builder(seconds: float) -> None:
        """Sleeping is when the builder's hands move: the next cell of the step on, off."""
        clock.advance(seconds)
        step = test.current
        if step is None:
            return
        if not plan:
            plan.extend((c, on) for c in step.cells if c != DEAD for on in (True, False))
        if plan:
            cell, on = plan.pop(0)
            (sim.magnet_arrives if on else sim.magnet_leaves)(cell)

    out = io.StringIO()
    walk(test, sim, clock, out, step_timeout=5.0, interval=0.1, sleep=builder)
    text = out.getvalue()
    assert "[1/15] Place a skitt on each spot of the first player's red field" in text
    assert f"  cell 0 answered (1/{len(PROFILE.fields['black.red'].cells)})" in text
    assert f"  moving on: cells {DEAD} did not answer within 5 s" in text
    test.finish(clock.now())
    sheet = test.sheet("board-2", "2026-12-01T20:00:00+00:00")
    assert [(r.item, r.result) for r in sheet.failures] == [(f"cell {DEAD}", "never changed")]


def test_the_command_prints_keeps_and_writes_the_sheet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    sheet_file = tmp_path / "sheet.txt"
    code = main(["selftest", "--source", "sim", "--step-timeout", "0", "--board-id", "board-9",
                 "--data-dir", str(tmp_path / "data"), "--sheet", str(sheet_file)])
    assert code == 1  # nobody placed a skitt: every cell failed
    out = capsys.readouterr().out
    assert "skitter board self-test: board-9" in out
    assert "result: FAILED" in out
    assert sheet_file.read_text().startswith("skitter board self-test: board-9")
    kept = selftest_record.load(tmp_path / "data")
    assert kept is not None and kept["board_id"] == "board-9" and kept["passed"] is False
    small = selftest_record.summary(kept)
    assert small["failed_count"] == len(PROFILE.cell_roles()) and len(small["failed"]) == 8
    assert len(json.dumps(small)) < 1000


def test_a_broken_record_is_no_record(tmp_path: Path) -> None:
    assert selftest_record.load(tmp_path) is None
    (tmp_path / selftest_record.FILE).write_text("{not json")
    assert selftest_record.load(tmp_path) is None
    (tmp_path / selftest_record.FILE).write_text('{"passed": "yes"}')
    assert selftest_record.load(tmp_path) is None


def test_the_walk_reads_the_expanders_i2c_errors(mock_factory: object) -> None:
    from source_rigs import McpRig

    clock = FakeClock(10.0)
    rig = McpRig(clock, mock_factory)  # type: ignore[arg-type]
    rig.source.start()
    test = SelfTest(PROFILE, clock.now(), source="mcp23017", buttons={})
    rig.bus.fail_next(2)

    def builder(seconds: float) -> None:
        clock.advance(seconds)
        if test.current is not None and test.index == 0:
            rig.set(0, True)  # a change makes the source read the bus (and meet the errors)

    walk(test, rig.source, clock, io.StringIO(), step_timeout=0.3, interval=0.1, sleep=builder)
    test.finish(clock.now())
    failed = {r.item: r.result for r in test.sheet("b", "d").failures
              if r.item.startswith("expander")}
    assert list(failed.values()) == ["2 I2C errors"], failed
