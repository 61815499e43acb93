"""The board self-test (issue 28, item 1), walked on each source: the simulator, the MCP23017
expanders on an emulated register model (with gpiozero's mock interrupt lines), and the
microcontroller on a serial pty. On each, one cell is dead and one chatters; the sheet names
exactly those two, and everything else passes."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from source_rigs import PROFILE, McpRig, Rig, SerialRig, SimRig

from firmware_bridge.selftest import SelfTest, steps_for
from firmware_bridge.source import SensorEvent
from scorekeeper.clock import FakeClock

pytestmark = pytest.mark.timeout(120)

DEAD = 17        # under the second player's red field
CHATTER = 33     # in the minus field
NOTHING: dict[str, list[str]] = {}


def pump(rig: Rig, test: SelfTest) -> None:
    rig.deliver()
    test.feed(rig.source.poll())


def walk(rig: Rig, clock: FakeClock, *, dead: int | None = None,
         chatter: int | None = None) -> SelfTest:
    """A builder doing what the test asks, cell by cell; a dead cell's sensor never sees the
    skitt, a chattering one flickers by itself once touched. Where a step waits for a cell
    that does not answer, the builder moves on."""
    test = SelfTest(PROFILE, clock.now(), initial=rig.source.snapshot(), buttons=NOTHING,
                    source=rig.source.name)
    while (step := test.current) is not None:
        for cell in step.cells:
            if cell == dead:
                continue
            if cell == chatter:
                for i in range(8):
                    rig.set(cell, i % 2 == 0)
                    pump(rig, test)
                    clock.advance(0.03)
                continue
            rig.set(cell, True)
            pump(rig, test)
            clock.advance(0.2)
            rig.set(cell, False)
            pump(rig, test)
            clock.advance(0.2)
        if test.current is step:
            test.skip()
    test.finish(clock.now())
    return test


def check_sheet(test: SelfTest) -> None:
    sheet = test.sheet("board-7", "2026-12-01")
    failed = {r.item: r.result for r in sheet.failures}
    assert failed == {f"cell {DEAD}": "never changed", f"cell {CHATTER}": "chatter"}, failed
    assert not sheet.passed and sheet.complete
    assert sheet.summary() == f"failed: 2 of {len(sheet.rows)} checks failed"
    text = sheet.text()
    assert "board-7" in text and "2026-12-01" in text
    assert f"FAIL  cell {DEAD}" in text and f"FAIL  cell {CHATTER}" in text
    assert text.count("PASS") == len(sheet.rows) - 2
    assert set(PROFILE.cell_roles()) == {int(r.item.split()[1]) for r in sheet.rows
                                         if r.item.startswith("cell ")}


def test_on_the_simulator() -> None:
    clock = FakeClock(100.0)
    rig = SimRig(clock)
    rig.source.start()
    check_sheet(walk(rig, clock, dead=DEAD, chatter=CHATTER))


def test_on_the_emulated_mcp23017_with_i2c_errors(mock_factory: MockFactory) -> None:
    clock = FakeClock(100.0)
    rig = McpRig(clock, mock_factory)
    rig.source.start()
    test = walk(rig, clock, dead=DEAD, chatter=CHATTER)
    check_sheet(test)
    rows = {r.item: r for r in test.sheet("board-7", "2026-12-01").rows}
    assert rows[f"cell {DEAD}"].where == "0x21 GPA1"  # where to look with the meter
    assert rows["expander 0x21"].passed

    # a loose wire: the expanders answer only after retries, and the sheet says which
    rig.bus.fail_next(2)  # type: ignore[attr-defined]
    rig.set(DEAD + 1, True)
    clock.advance(0.05)
    pump(rig, test)
    test.expander_errors(rig.source.errors_by_expander())  # type: ignore[attr-defined]
    rows = {r.item: r for r in test.sheet("board-7", "2026-12-01").rows}
    bad = [r for item, r in rows.items() if item.startswith("expander") and not r.passed]
    assert [r.result for r in bad] == ["2 I2C errors"], rows


def test_on_the_serial_microcontroller(tmp_path: Path) -> None:
    clock = FakeClock(100.0)
    rig = SerialRig(clock, tmp_path / "ttyACM-selftest")
    try:
        rig.source.start()
        rig.wait_link_up()
        check_sheet(walk(rig, clock, dead=DEAD, chatter=CHATTER))
    finally:
        rig.source.close()
        rig.close()


def test_a_sound_board_passes_and_steps_move_on_by_themselves() -> None:
    clock = FakeClock(100.0)
    rig = SimRig(clock)
    rig.source.start()
    test = SelfTest(PROFILE, clock.now(), buttons=NOTHING)
    first = test.current
    assert first is not None and first.key == "black.red"
    for cell in first.cells:
        rig.set(cell, True)
        pump(rig, test)
        assert test.current is first  # not done until the skitt is lifted again
        rig.set(cell, False)
        pump(rig, test)
    assert test.current is not None and test.current.key == "black.yellow"
    assert walk(rig, clock).sheet("b", "d").passed


def test_stuck_not_reached_and_buttons() -> None:
    test = SelfTest(PROFILE, 0.0, initial={36}, buttons={"referee": ["undo"]})
    # the big-skitt spot's cell was active from the start and never let go
    test.feed([SensorEvent(0, True, 1.0), SensorEvent(0, False, 1.5)])
    test.finish(2.0)
    sheet = test.sheet("b", "d")
    rows = {r.item: r for r in sheet.rows}
    assert rows["cell 0"].passed
    assert rows["cell 36"].result == "stuck active"
    assert rows["cell 1"].result == "never changed"  # its step was reached
    assert rows["cell 16"].result == "not reached"
    assert rows["button 1"].result == "never pressed"
    assert rows["button 1"].part == "the referee's undo button"
    assert not sheet.complete and sheet.summary().startswith("failed")

    buttons = SelfTest(PROFILE, 0.0, buttons={"referee": ["undo"]})
    while buttons.current is not None and buttons.current.kind != "button":
        buttons.skip()
    assert buttons.current is not None
    assert buttons.current.instruction() == "Press the referee's undo button"
    buttons.press("referee", "undo", 3.0)
    assert buttons.current is None and buttons.complete
    assert {r.item: r.result for r in buttons.sheet("b", "d").rows}[
        "button 1"] == "pressed"


def test_words_name_seats_never_colours() -> None:
    for step in steps_for(PROFILE, {"black": ["end_turn"]}):
        words = step.instruction()
        assert "black" not in words and "white" not in words, words


def test_the_walk_covers_every_cell_of_the_reference_board() -> None:
    """Each colour field is walked over its 14 cells and the minus field over its 20, and no
    cell of the board is left out of every step (the sheet would say "not reached")."""
    steps = steps_for(PROFILE, NOTHING)
    fields = {s.key: s.cells for s in steps if s.kind == "field"}
    colours = [k for k in fields if k != "minus"]
    assert len(colours) == 6 and all(len(fields[k]) == 14 for k in colours), fields
    assert len(fields["minus"]) == 20
    walked = [c for s in steps for c in s.cells]
    assert sorted(walked) == sorted(PROFILE.cell_roles()), "every cell once, none twice"
    assert PROFILE.mcp23017 is not None and len(PROFILE.mcp23017.addresses) == 8


def test_a_step_skipped_untried_is_skipped_not_a_fault() -> None:
    """Issue 43: the referee skips a step before touching it: its cells read "skipped" on
    the sheet; a step where some cells answered keeps its silent ones as "never changed"."""
    test = SelfTest(PROFILE, 0.0, buttons=NOTHING)
    first = test.current
    assert first is not None
    test.skip()
    second = test.current
    assert second is not None
    test.feed([SensorEvent(second.cells[0], True, 1.0), SensorEvent(second.cells[0], False, 1.2)])
    test.skip()
    test.finish(2.0)
    rows = {r.item: r for r in test.sheet("board-7", "2026-12-03").rows}
    assert rows[f"cell {first.cells[0]}"].result == "skipped"
    assert not rows[f"cell {first.cells[0]}"].passed
    assert rows[f"cell {second.cells[1]}"].result == "never changed"
