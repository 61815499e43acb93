"""Stuck and jittery cells hold play and never score; the referee mutes them."""

from __future__ import annotations

import pytest
from profile_support import calibrated, halves

from firmware_bridge.health import FlagKind, HealthMonitor
from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.simulator import SimulatedBoard
from scorekeeper.clock import FakeClock
from scorekeeper.reading import BoardReading

pytestmark = pytest.mark.unit

EMPTY = dict.fromkeys(load_profile().field_names, 0)
RED = list(load_profile().fields["white.red"].cells)  # 14 cells


class Bench:
    def __init__(self, initial=(), profile=None, **health) -> None:
        self.clock = FakeClock(0.0)
        self.profile = profile or load_profile()
        self.board = SimulatedBoard(self.profile, self.clock)
        for cell in initial:
            self.board.magnet_arrives(cell)
        self.board.poll()
        self.pipeline = Pipeline(
            self.profile, self.clock, initial=initial,
            health=HealthMonitor(self.profile, **health),
        )
        self.readings: list[BoardReading] = []

    def run(self, seconds: float, step: float = 0.01) -> list[BoardReading]:
        new: list[BoardReading] = []
        for _ in range(round(seconds / step)):
            self.clock.advance(step)
            new += self.pipeline.pump(self.board)
        self.readings += new
        return new


# -- stuck cells ----------------------------------------------------------------------------


def test_cell_left_active_after_the_rest_of_its_field_was_put_back_is_flagged_stuck():
    bench = Bench(restore_timeout_s=5.0)
    bench.board.place_skitt("white.red")
    bench.board.place_skitt("white.red")  # cells 16 and 17, from a shot
    bench.run(1)
    bench.pipeline.set_expected(EMPTY)
    bench.run(29, step=0.1)
    bench.board.magnet_leaves(16)  # the players clear white.red; cell 17 stays active
    bench.run(4.9)
    assert bench.pipeline.flags() == []
    bench.run(0.3)
    (flag,) = bench.pipeline.flags()
    assert (flag.cell, flag.field, flag.kind) == (17, "white.red", FlagKind.STUCK_ACTIVE)
    assert 35.0 <= flag.since <= 35.1
    assert flag.message() == "sensor cell 17 on white.red is stuck active: check it or mute it"


def test_occupied_cells_awaiting_a_restore_are_never_flagged_however_long_it_takes():
    """Issue 13, item 2: after a round end every occupied cell waits for the players; that is
    a restore in progress, not a fault, even long after the restore timeout."""
    bench = Bench(restore_timeout_s=10.0)
    for cell in (16, 17, 29):  # skitts shot during the round
        bench.board.magnet_arrives(cell)
    bench.run(1)
    bench.pipeline.set_expected(EMPTY)
    bench.run(600, step=0.5)
    assert bench.pipeline.flags() == []
    # a restore holds no reading: the tracker counts it down, and judges any other change
    assert not bench.pipeline.is_held()
    bench.board.magnet_leaves(16)
    bench.board.magnet_leaves(17)
    bench.board.magnet_leaves(29)
    bench.run(20, step=0.1)
    assert bench.pipeline.flags() == [] and not bench.pipeline.is_held()


def test_a_cell_going_active_on_an_empty_field_during_a_restore_is_a_change_not_stuck():
    """Issue 36: a cell that changed is not stuck. A skitt landing on a field nobody works
    on while a restore is pending is a shot: its reading goes to the tracker, which scores
    it or asks the referee; no restore window or stuck flag ever holds it back."""
    bench = Bench(restore_timeout_s=10.0)
    for cell in (16, 17, 1):  # skitts on white.red and black.red at the round end
        bench.board.magnet_arrives(cell)
    bench.run(1)
    bench.pipeline.set_expected(EMPTY)
    bench.run(60, step=0.5)
    bench.board.magnet_arrives(9)  # black.blue: empty, untouched, not in the restore
    bench.run(600, step=0.5)
    assert bench.pipeline.flags() == []
    assert bench.readings[-1].count("black.blue") == 1


def test_a_cell_whose_field_the_restore_leaves_as_it_is_is_not_excused():
    """On a calibrated minus field one active cell reads as no skitt: the restore asks
    nothing of that field, so the lone active cell there is not explained by it."""
    bench = Bench(profile=calibrated({"minus": halves(20)}), restore_timeout_s=10.0)
    for cell in (16, 17, 32):
        bench.board.magnet_arrives(cell)
    bench.run(1)
    bench.pipeline.set_expected(EMPTY)
    bench.run(9.5, step=0.5)
    assert bench.pipeline.flags() == []
    bench.run(1, step=0.5)
    assert [(f.cell, f.kind) for f in bench.pipeline.flags()] == [(32, FlagKind.STUCK_ACTIVE)]


def test_a_refused_shot_s_skitt_awaiting_the_restore_is_never_flagged():
    """The referee asks for the board back after a shot the rules refused: the restore
    instruction asks to take that skitt off, so it waits for the players, however long."""
    bench = Bench(restore_timeout_s=5.0)
    bench.pipeline.set_expected(EMPTY)
    bench.run(1)
    bench.board.place_skitt("white.red")  # the refused shot
    bench.run(30, step=0.1)
    bench.pipeline.set_expected(EMPTY)  # "put the board back"
    bench.run(120, step=0.5)
    assert bench.pipeline.flags() == [] and not bench.pipeline.is_held()
    bench.board.remove_skitt("white.red")
    bench.run(2)
    assert bench.pipeline.flags() == [] and not bench.pipeline.is_held()


def test_stuck_cell_never_produces_a_count_change():
    bench = Bench(initial=[17], restore_timeout_s=5.0)
    bench.pipeline.set_expected(EMPTY)
    bench.run(20)
    # it never changed: no reading shows white.red change (the first shows it as it is)
    assert [r.count("white.red") for r in bench.readings] in ([], [1])
    assert [f.cell for f in bench.pipeline.flags()] == [17] and bench.pipeline.is_held()
    bench.pipeline.mute(17)
    before = len(bench.readings)
    (reading,) = bench.run(1)
    assert reading.count("white.red") == 0
    assert reading.muted == {"white.red"}
    assert all(r.count("white.red") == 0 for r in bench.readings[before:])


def test_repeating_the_same_expectation_does_not_restart_the_timeout():
    bench = Bench(initial=[17], restore_timeout_s=5.0)
    for _ in range(6):
        bench.pipeline.set_expected(EMPTY)
        bench.run(1)
    assert [f.cell for f in bench.pipeline.flags()] == [17]


def test_hold_reasons_name_the_flagged_cell_and_a_restore_holds_nothing():
    bench = Bench(initial=[17], restore_timeout_s=5.0)
    bench.pipeline.set_expected(EMPTY)
    assert bench.pipeline.hold_reasons() == []  # a restore in progress is not a fault
    bench.run(6)
    assert bench.pipeline.hold_reasons() == [
        "sensor cell 17 on white.red is stuck active: check it or mute it"
    ]


def test_a_stuck_inactive_cell_is_found_once_its_field_has_been_put_back():
    bench = Bench(initial=RED, restore_timeout_s=2.0)
    bench.board.magnet_leaves(RED[-1])  # a clearing took the field's skitts off
    bench.run(1)
    bench.pipeline.set_expected({**EMPTY, "white.red": len(RED)})
    bench.run(30, step=0.1)
    assert bench.pipeline.flags() == []  # nobody has put the last skitt back yet
    bench.board.magnet_leaves(RED[-2])  # a skitt pushed into place; the last cell is dead
    bench.run(0.5)
    bench.board.magnet_arrives(RED[-2])
    bench.run(2.5)
    (flag,) = bench.pipeline.flags()
    assert (flag.cell, flag.kind) == (RED[-1], FlagKind.STUCK_INACTIVE)


def test_cell_restored_within_the_timeout_is_not_flagged():
    bench = Bench(initial=[17], restore_timeout_s=5.0)
    bench.pipeline.set_expected(EMPTY)
    bench.run(2)
    bench.board.magnet_leaves(17)
    (reading,) = bench.run(1)
    assert reading.count("white.red") == 0
    bench.run(10)
    assert bench.pipeline.flags() == []


def test_cell_inactive_on_a_field_expected_full_is_flagged_stuck_inactive():
    bench = Bench(initial=RED[:-1], restore_timeout_s=2.0)
    bench.pipeline.set_expected({**EMPTY, "white.red": len(RED)})
    bench.run(2.5)
    (flag,) = bench.pipeline.flags()
    assert (flag.cell, flag.kind) == (RED[-1], FlagKind.STUCK_INACTIVE)


def test_partly_covered_field_says_nothing_about_single_cells():
    bench = Bench(initial=[16], restore_timeout_s=1.0)
    bench.pipeline.set_expected({**EMPTY, "white.red": 2})
    bench.run(3)
    assert bench.pipeline.flags() == []


def test_stuck_flag_clears_when_the_cell_moves():
    bench = Bench(initial=[17], restore_timeout_s=1.0)
    bench.pipeline.set_expected(EMPTY)
    bench.run(1.5)
    assert bench.pipeline.is_held()
    bench.board.magnet_leaves(17)
    (reading,) = bench.run(1)
    assert bench.pipeline.flags() == [] and reading.count("white.red") == 0


def test_new_expectation_that_agrees_clears_a_stuck_flag():
    bench = Bench(initial=[17], restore_timeout_s=1.0)
    bench.pipeline.set_expected(EMPTY)
    bench.run(1.5)
    bench.pipeline.set_expected({**EMPTY, "white.red": 1})
    assert bench.pipeline.flags() == []


def test_skitt_landing_after_the_expectation_is_an_ordinary_shot():
    bench = Bench(restore_timeout_s=1.0)
    bench.pipeline.set_expected(EMPTY)
    bench.run(0.5)
    bench.board.place_skitt("white.red")
    bench.run(3)
    assert bench.pipeline.flags() == []
    assert bench.readings[-1].count("white.red") == 1


# -- jittery cells --------------------------------------------------------------------------


def test_cell_chattering_at_rest_is_flagged_jittery_and_holds_play():
    bench = Bench()
    bench.run(0.5)
    bench.board.chatter(20, 4)  # 8 toggles in 40 ms
    bench.run(0.1)
    (flag,) = bench.pipeline.flags()
    assert (flag.cell, flag.field, flag.kind) == (20, "white.yellow", FlagKind.JITTERY)
    assert bench.pipeline.is_held()


def test_a_few_toggles_are_not_jitter():
    bench = Bench()
    bench.run(0.5)
    bench.board.chatter(20, 3)  # 6 toggles: the limit, not over it
    bench.run(0.1)
    assert bench.pipeline.flags() == []


def test_toggles_while_the_board_moves_are_not_jitter():
    bench = Bench()
    bench.run(0.5)
    bench.board.place_skitt("black.red")
    bench.run(0.05)
    bench.board.chatter(20, 5)
    bench.run(0.1)
    assert bench.pipeline.flags() == []


def test_jittery_cell_never_scores_and_muting_releases_play():
    bench = Bench()
    bench.run(0.5)
    before = len(bench.readings)
    bench.board.chatter(20, 100)  # a second of chatter
    bench.run(0.3)
    bench.board.place_skitt("black.red")  # a shot lands while the cell still chatters
    bench.run(2)
    assert len(bench.readings) == before
    bench.pipeline.mute(20)
    bench.run(1)
    assert bench.readings[-1].count("white.yellow") == 0
    assert bench.readings[-1].count("black.red") == 1


def test_jitter_flag_clears_after_a_quiet_window():
    bench = Bench(jitter_window_s=1.0)
    bench.run(0.5)
    bench.board.chatter(20, 4)
    bench.run(0.5)
    assert bench.pipeline.flags()
    bench.run(1.0)
    assert bench.pipeline.flags() == []


def test_muted_flag_is_still_listed_but_does_not_hold():
    bench = Bench()
    bench.run(0.5)
    bench.board.chatter(20, 4)
    bench.run(0.1)
    bench.pipeline.mute(20)
    (flag,) = bench.pipeline.flags()
    assert flag.muted and not bench.pipeline.is_held()


def test_muting_an_unused_cell_is_refused():
    with pytest.raises(ValueError, match="cell 7 is not used by board profile 'default'"):
        HealthMonitor(load_profile()).mute(7)


def test_expected_counts_must_name_real_fields():
    with pytest.raises(ValueError, match="unknown field 'white.green'"):
        HealthMonitor(load_profile()).set_expected({"white.green": 0}, 0.0, frozenset())
