"""Calibration walks a builder field by field and writes the count map back, comments kept."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_bridge.calibrate import (
    Calibration,
    CalibrationError,
    count_map,
    write_count_maps,
)
from firmware_bridge.profile import default_profile_path, load_profile
from firmware_bridge.simulator import SimulatedBoard
from scorekeeper.clock import FakeClock
from skitter_cli.main import main

Step = tuple[Callable[[], object] | None, str]


class Builder:
    """A scripted builder: each prompt runs the next action on the board, then answers."""

    def __init__(self, steps: list[Step]) -> None:
        self.steps = iter(steps)
        self.prompts: list[str] = []
        self.lines: list[str] = []

    def ask(self, prompt: str) -> str:
        self.prompts.append(prompt)
        action, answer = next(self.steps)
        if action is not None:
            action()
        return answer


RED = load_profile().fields["white.red"].cells  # 14 cells: 7 in the circle, 7 in the ring
MINUS = load_profile().fields["minus"].cells  # 20 cells
HALVES = tuple(k // 2 for k in range(15))
"""white.red's map when every skitt covers two cells."""


def walk(steps: list[Step], fields: list[str], setup=None) -> tuple[dict, Builder]:
    clock = FakeClock()
    board = SimulatedBoard(load_profile(), clock)
    if setup:
        setup(board)
    builder = Builder([(None if a is None else (lambda a=a: a(board)), ans) for a, ans in steps])
    calibration = Calibration(board, load_profile(), clock, ask=builder.ask,
                              say=builder.lines.append, wait=clock.advance)
    maps = calibration.run(fields)
    builder.capacities = calibration.capacities  # type: ignore[attr-defined]
    return maps, builder


def cells(*numbers: int):
    return lambda board: [board.magnet_arrives(c) for c in numbers]


# -- the walk --------------------------------------------------------------------------------


def test_skitts_covering_two_cells_each_make_a_halving_map():
    pairs = [(cells(RED[i], RED[i + 1]), "") for i in range(0, 14, 2)]
    maps, builder = walk([(None, "")] + pairs, ["white.red"])
    assert maps == {"white.red": HALVES}
    assert builder.prompts[1].startswith("Place 1 skitt on white.red")
    assert "  2 skitts → 4/14 cells  ■■■■□□□□□□□□□□" in builder.lines
    assert "  7 skitts → 14/14 cells  ■■■■■■■■■■■■■■" in builder.lines
    assert builder.capacities == {"white.red": 7}
    assert ("  white.red: counts are trustworthy up to 7 skitts; a count of 7 means 7 or more "
            "and the referee is asked about a shot there") in builder.lines


def test_one_cell_per_skitt_gives_the_identity_map():
    place = lambda board: board.place_skitt("minus")  # noqa: E731
    maps, builder = walk([(None, "")] + [(place, "")] * 20, ["minus"])
    assert maps == {"minus": tuple(range(21))}
    assert builder.capacities == {"minus": 20}


def test_two_numbers_of_skitts_on_the_same_cells_end_the_trustworthy_counts():
    # the eighth skitt clings to the cluster between two ring cells: no new cell lights
    place = lambda board: board.place_skitt("white.red")  # noqa: E731
    steps = [(None, "")] + [(place, "")] * 7 + [(None, ""), (place, ""), (None, "d")]
    maps, builder = walk(steps, ["white.red"])
    assert "  note: the sensors cannot tell 7 from 8 skitts here" in builder.lines
    assert builder.capacities == {"white.red": 7}
    assert maps["white.red"][:9] == (0, 1, 2, 3, 4, 5, 6, 8, 9)


def test_builder_may_stop_a_field_early_and_the_rest_is_extrapolated():
    place = lambda board: board.place_skitt("black.red")  # noqa: E731
    maps, builder = walk([(None, ""), (place, ""), (place, ""), (None, "d")], ["black.red"])
    assert maps == {"black.red": tuple(range(15))}
    assert builder.capacities == {"black.red": 2}  # nothing beyond two was seen


def test_field_must_be_cleared_before_counting():
    clear = lambda board: board.set_count("white.blue", 0)  # noqa: E731
    place = lambda board: board.place_skitt("white.blue")  # noqa: E731
    maps, builder = walk([(None, ""), (clear, ""), (place, ""), (None, "d")], ["white.blue"],
                         setup=lambda board: board.set_count("white.blue", 1))
    assert "  1 cell(s) of white.blue still active (25): clear the field" in builder.lines
    assert maps["white.blue"][1] == 1


def test_fewer_cells_with_more_skitts_is_asked_again():
    steps = [(None, ""), (cells(16, 17), ""),
             (lambda b: b.magnet_leaves(17), ""),     # a skitt slid off: 1 cell with 2 skitts
             (cells(17, 18), ""), (None, "d")]
    maps, builder = walk(steps, ["white.red"])
    assert any("only 1 cells active (before: 2)" in line for line in builder.lines)
    assert maps["white.red"][:5] == (0, 0, 1, 2, 2) and len(maps["white.red"]) == 15


def test_skip_and_quit_keep_what_is_done():
    place = lambda board: board.place_skitt("black.red")  # noqa: E731
    steps = [(None, "s"), (None, ""), (place, ""), (None, "d"), (None, "q")]
    maps, builder = walk(steps, ["minus", "black.red", "black.blue"])
    assert list(maps) == ["black.red"]
    assert builder.lines[0] == f"[1/3] minus: cells {', '.join(map(str, MINUS))}"
    assert builder.lines[-1] == "stopped; 1 field(s) calibrated"


def test_unknown_field_is_refused_before_asking_anything():
    with pytest.raises(CalibrationError, match="unknown field 'white.green'"):
        walk([], ["white.green"])


# -- the map --------------------------------------------------------------------------------


def test_count_map_never_reports_an_unplaced_skitt():
    # One active cell with two-cell skitts is not yet a skitt.
    assert count_map([(1, 2), (2, 4)], 4) == (0, 0, 1, 1, 2)


def test_count_map_refuses_contradictions():
    with pytest.raises(CalibrationError, match="2 skitts showed fewer active cells"):
        count_map([(1, 3), (2, 2)], 4)


# -- writing it back -------------------------------------------------------------------------


@pytest.fixture
def profile_copy(tmp_path: Path) -> Path:
    path = tmp_path / "board.toml"
    shutil.copy(default_profile_path(), path)
    return path


MINUS_MAP = tuple((k + 1) // 2 for k in range(21))


def test_writing_the_map_keeps_comments_and_layout(profile_copy: Path):
    write_count_maps(profile_copy, {"white.red": HALVES, "minus": MINUS_MAP},
                     {"white.red": 6})
    text = profile_copy.read_text()
    assert "# Big-skitt centre spots, one per player." in text
    assert (f"# 0x22 GPA0-GPA3, GPB1-GPB6, 0x27 GPA4-GPA6, GPB0-GPB6\n"
            f"cells = [{', '.join(map(str, MINUS))}]\n"
            f"counts = [{', '.join(map(str, MINUS_MAP))}]\n" in text)
    profile = load_profile(profile_copy)
    assert profile.fields["white.red"].counts == HALVES
    assert profile.fields["white.red"].capacity == 6  # the trusted count, written after it
    assert "counts = [0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7]\ncapacity = 6\n" in text
    assert profile.fields["minus"].capacity == 10  # no capacity written: the map's last


def test_rewriting_replaces_the_old_map(profile_copy: Path):
    write_count_maps(profile_copy, {"minus": MINUS_MAP}, {"minus": 8})
    write_count_maps(profile_copy, {"minus": tuple(range(21))}, {"minus": 20})
    assert profile_copy.read_text().count("counts =") == 1
    assert profile_copy.read_text().count("capacity =") == 1
    assert load_profile(profile_copy).fields["minus"].capacity == 20


def test_invalid_map_leaves_the_file_untouched(profile_copy: Path):
    before = profile_copy.read_text()
    with pytest.raises(CalibrationError, match="would be invalid"):
        write_count_maps(profile_copy, {"minus": (0, 3, 2, 1, 0)})
    with pytest.raises(CalibrationError, match="capacity: 21 is more than the counts reach"):
        write_count_maps(profile_copy, {"minus": tuple(range(21))}, {"minus": 21})
    assert profile_copy.read_text() == before


def test_calibrate_command_quits_without_writing(profile_copy, monkeypatch, capsys):
    before = profile_copy.read_text()
    monkeypatch.setattr("builtins.input", lambda prompt="": "q")
    assert main(["calibrate", "--source", "sim", "--profile", str(profile_copy)]) == 0
    assert profile_copy.read_text() == before
    assert "nothing written" in capsys.readouterr().out


def test_calibrate_command_names_a_bad_profile(tmp_path, capsys):
    assert main(["calibrate", "--source", "sim", "--profile", str(tmp_path / "x.toml")]) == 2
    assert "not found" in capsys.readouterr().err


def test_done_before_any_skitt_keeps_the_field_as_it_was():
    maps, builder = walk([(None, ""), (None, "d")], ["white.red"])
    assert maps == {} and builder.capacities == {}
    assert "  no skitt was placed on white.red: its counts stay as they were" in builder.lines


def test_a_skitt_no_cell_sees_is_asked_again_and_nothing_is_written(
    profile_copy, monkeypatch, capsys
):
    """On the command's own simulated board no magnet ever arrives: the placed skitt is
    seen by no cell, which is no count at all."""
    before = profile_copy.read_text()
    answers = iter(["", "", "d"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers, "q"))
    argv = ["calibrate", "--source", "sim", "--profile", str(profile_copy), "--fields", "minus"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "no cell of minus sees the skitt: put it over a cell" in out
    assert "nothing written" in out and profile_copy.read_text() == before
