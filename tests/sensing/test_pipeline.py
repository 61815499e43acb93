"""The pipeline: raw events in, one settled BoardReading per still board out."""

from __future__ import annotations

import pytest
from profile_support import calibrated

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.simulator import SimulatedBoard
from firmware_bridge.source import SensorEvent
from scorekeeper.clock import FakeClock
from scorekeeper.reading import BoardReading

pytestmark = pytest.mark.unit

_WAITS = load_profile().settle_waits
assert _WAITS is not None
LANDED = load_profile().debounce_s + _WAITS.land_s
"""A skitt that lands is read this long after it arrives: the debounce, then the longest a
skitt passing over a cell keeps it on (the shipped profile's settle rule)."""


class Bench:
    """A simulated board wired to a pipeline, driven by a fake clock."""

    def __init__(self, profile=None) -> None:
        self.clock = FakeClock(0.0)
        self.profile = profile or load_profile()
        self.board = SimulatedBoard(self.profile, self.clock)
        self.pipeline = Pipeline(self.profile, self.clock)

    def run(self, seconds: float, step: float = 0.01) -> list[BoardReading]:
        readings: list[BoardReading] = []
        for _ in range(round(seconds / step)):
            self.clock.advance(step)
            readings += self.pipeline.pump(self.board)
        return readings


@pytest.fixture
def bench() -> Bench:
    b = Bench()
    b.run(0.5)  # the initial reading
    return b


def test_initial_reading_once_the_board_is_still():
    b = Bench()
    assert b.run(0.29) == []
    readings = b.run(0.02)
    assert len(readings) == 1
    assert readings[0].counts == dict.fromkeys(b.profile.field_names, 0)
    assert readings[0].big == {"black": False, "white": False}


def test_skitt_landing_gives_one_reading_once_it_outlasts_the_longest_pass(bench):
    bench.board.place_skitt("white.red")
    assert bench.run(LANDED - 0.01) == []  # debounce + the longest pass not yet over
    readings = bench.run(0.1)
    assert len(readings) == 1
    assert readings[0].count("white.red") == 1
    assert bench.run(5) == []


def test_no_reading_while_the_board_keeps_moving(bench):
    for field in ("white.red", "white.yellow", "minus", "black.blue"):
        bench.board.place_skitt(field)
        assert bench.run(LANDED - 0.03) == []
    readings = bench.run(0.5)
    assert [r.count(f) for r in readings for f in ("white.red", "minus")] == [1, 1]


def test_blip_shorter_than_debounce_gives_no_reading(bench):
    bench.board.magnet_arrives(16)
    bench.clock.advance(0.01)
    bench.board.magnet_leaves(16)
    assert bench.run(2) == []


def test_reading_time_is_when_the_board_was_seen_still(bench):
    bench.board.place_skitt("minus")
    (reading,) = bench.run(1)
    assert reading.at == pytest.approx(0.5 + 0.01 + LANDED, abs=0.011)


def test_counts_go_through_the_count_map():
    # 1, 1, 2, 2, ...: the second cell a skitt covers adds none
    b = Bench(calibrated({"white.red": tuple((k + 1) // 2 for k in range(15))}))
    b.run(0.5)
    for cell in (16, 17, 18):
        b.board.magnet_arrives(cell)
    (reading,) = b.run(1)
    assert reading.count("white.red") == 2


def test_big_skitt_and_bridge_are_reported(bench):
    bench.board.place_big("black")
    bench.board.bridge("white.red", "white.yellow")
    (reading,) = bench.run(1)
    assert reading.big == {"black": True, "white": False}
    assert reading.bridges == {("white.red", "white.yellow")}
    assert reading.count("white.red") == 0  # the connecting skitt is in neither field


def test_launch_press_marks_the_shooter_in_the_next_reading_only(bench):
    bench.board.press_launch("white")
    (reading,) = bench.run(1)
    assert reading.launched == {"white"}
    bench.board.place_skitt("black.red")
    (reading,) = bench.run(1)
    assert reading.launched == frozenset()


def test_muted_cell_is_left_out_of_its_fields_count(bench):
    bench.board.set_count("white.blue", 2)
    bench.run(1)
    bench.pipeline.mute(25)
    (reading,) = bench.run(1)
    assert reading.count("white.blue") == 1
    assert reading.muted == {"white.blue"}


def test_unmute_counts_the_cell_again(bench):
    bench.board.set_count("white.blue", 2)
    bench.pipeline.mute(25)
    bench.run(1)
    bench.pipeline.unmute(25)
    (reading,) = bench.run(1)
    assert reading.count("white.blue") == 2 and reading.muted == frozenset()


def test_current_counts_are_live_before_the_board_settles(bench):
    bench.board.place_skitt("minus")
    bench.run(0.05)
    assert bench.pipeline.current_counts()["minus"] == 1
    assert bench.pipeline.active_cells() == {32}
    assert not bench.pipeline.at_rest()


def test_unconnected_pin_is_shown_but_never_counted(bench):
    bench.board.magnet_arrives(7)  # GPA7 of 0x20: no sensor there
    assert bench.run(1) == []
    assert 7 in bench.pipeline.active_cells()


def test_event_for_a_cell_outside_the_board_is_dropped(bench):
    bench.pipeline.feed([SensorEvent(128, True, bench.clock.now())])
    assert bench.pipeline.rejected == 1
    assert bench.run(1) == []


def test_initial_cells_from_the_source_snapshot_count_at_once():
    clock = FakeClock()
    pipeline = Pipeline(load_profile(), clock, initial={16, 17})
    clock.advance(0.3)
    (reading,) = pipeline.tick()
    assert reading.count("white.red") == 2


def test_settle_and_debounce_can_be_overridden():
    clock = FakeClock()
    pipeline = Pipeline(load_profile(), clock, debounce_s=0.0, settle_s=1.0)
    clock.advance(0.9)
    assert pipeline.tick() == []
    clock.advance(0.1)
    assert len(pipeline.tick()) == 1


@pytest.mark.parametrize("moves", [
    [(0.0, True)],  # a skitt lands
    [(0.0, True), (0.05, False)],  # a skitt passes over the cell quickly
    [(0.0, True), (0.2, False)],  # ... slowly
    [(0.0, True), (0.01, False), (0.015, True)],  # a bounce shorter than the debounce
])
def test_due_at_is_the_moment_the_settle_rule_reads_the_board(bench, moves):
    """A polling loop that sleeps until ``due_at`` takes each reading the moment it is due:
    one step before, nothing; at it, the reading (or the next moment to wake)."""
    cell = bench.profile.fields["white.red"].cells[0]
    start = bench.clock.now()
    for at, on in moves:
        bench.clock.advance(start + at - bench.clock.now())
        bench.pipeline.feed([SensorEvent(cell, on, bench.clock.now())])
        bench.pipeline.tick()
    readings: list[BoardReading] = []
    while not readings:
        due = bench.pipeline.due_at()
        assert due is not None and due > bench.clock.now()
        bench.clock.advance(due - bench.clock.now() - 0.001)
        assert bench.pipeline.tick() == []
        bench.clock.advance(0.001)
        readings = bench.pipeline.tick()
    assert bench.pipeline.due_at() is None
