"""The physics board as a source: a flick rolls in over the clock's time, as the physics says."""

from __future__ import annotations

import math

import pytest
from physics_flicks import landing_flick

from firmware_bridge.physics import Geometry, Physics, play
from firmware_bridge.physics_board import PhysicsBoard
from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.simulator import SimulatorError
from firmware_bridge.sources import SpecError, open_source, parse_spec
from scorekeeper.clock import FakeClock

PROFILE = load_profile()
LAUNCH = {p: cells[0] for p, cells in PROFILE.launch.items()}


def landing_flick_of(board: PhysicsBoard) -> tuple[float, float]:
    """Black's (speed, angle in radians) that lands on a field of ``board`` (empty)."""
    speed, degrees, _ = landing_flick(PROFILE, "black", board.seed)
    return speed, math.radians(degrees)


@pytest.mark.unit
def test_a_flick_plays_the_physics_cell_changes_at_their_time_on_the_clock():
    clock = FakeClock(100.0)
    board = PhysicsBoard(PROFILE, clock, seed=3)
    speed, angle = landing_flick_of(board)
    roll = board.flick("black", speed, angle)
    out = roll.outcome
    assert out == play(PROFILE, out.shot, Physics(), Geometry.of(PROFILE, toward="white"))
    assert len(out.changes) >= 2  # it slides over cells before it rests
    # the launch spot is left at once; no field cell changes before the skitt gets there
    assert [(e.cell, e.active) for e in board.poll()] == [(LAUNCH["black"], True)]
    seen = []
    while board.rolling():
        clock.advance(0.005)
        seen += [(e.at, e.cell, e.active) for e in board.poll()]
    field = [(round(at - 100.0, 9), cell, active) for at, cell, active in seen
             if cell != LAUNCH["black"]]
    assert field == [(round(t, 9), c, a) for t, c, a in out.changes]
    assert board.snapshot() == out.final


@pytest.mark.unit
def test_the_settled_reading_of_a_flick_is_where_the_physics_left_the_skitts():
    clock = FakeClock(0.0)
    board = PhysicsBoard(PROFILE, clock, seed=3)
    speed, angle = landing_flick_of(board)
    pipe = Pipeline(PROFILE, clock, initial=board.snapshot())
    clock.advance(1.0)
    assert pipe.tick()  # the opening reading
    roll = board.flick("black", speed, angle)
    readings = []
    while clock.now() < roll.until + 2 * PROFILE.settle_s:
        clock.advance(0.005)
        pipe.feed(board.poll())
        readings += pipe.tick()
    assert len(readings) == 1  # one shot, read once the board is still
    reading = readings[0]
    assert reading.launched == frozenset({"black"})
    fields = {c for fc in PROFILE.fields.values() for c in fc.cells}
    assert pipe.active_cells() & fields == roll.outcome.final
    landed = [f for f, fc in PROFILE.fields.items() if set(fc.cells) & roll.outcome.final]
    assert [f for f, n in reading.counts.items() if n] == landed


@pytest.mark.unit
def test_skitts_at_rest_are_in_the_next_flick_where_their_cells_are():
    clock = FakeClock(0.0)
    board = PhysicsBoard(PROFILE, clock)
    board.set_count("white.red", 2)
    clock.advance(1.0)
    roll = board.flick("black", 500.0, 0.0, lane=0.2)
    geo = Geometry.of(PROFILE, toward="white")
    on = [(x, y) for c, x, y in geo.centres if c in PROFILE.fields["white.red"].cells[:2]]
    assert sorted(roll.outcome.shot.skitts[1:]) == sorted(on)
    assert roll.outcome.before == frozenset(PROFILE.fields["white.red"].cells[:2])


@pytest.mark.unit
def test_a_second_flick_waits_until_the_first_skitt_is_still():
    clock = FakeClock(0.0)
    board = PhysicsBoard(PROFILE, clock)
    roll = board.flick("white", 700.0, 0.0)
    with pytest.raises(SimulatorError, match="still rolling"):
        board.flick("white", 700.0, 0.0)
    clock.advance(roll.until + 0.001)
    board.flick("white", 700.0, 0.0)


@pytest.mark.unit
@pytest.mark.parametrize(("player", "speed", "angle", "lane", "named"), [
    ("green", 500.0, 0.0, 0.5, "unknown player"),
    ("black", 5000.0, 0.0, 0.5, "speed"),
    ("black", 500.0, math.pi, 0.5, "angle"),
    ("black", 500.0, 0.0, 2.0, "lane"),
    ("black", math.nan, 0.0, 0.5, "speed"),
])
def test_a_flick_the_board_cannot_take_is_refused_and_changes_nothing(
        player, speed, angle, lane, named):
    board = PhysicsBoard(PROFILE, FakeClock(0.0))
    with pytest.raises(SimulatorError, match=named):
        board.flick(player, speed, angle, lane)
    assert board.events == [] and board.seed == 0 and not board.rolling()


@pytest.mark.unit
def test_the_physics_source_is_opened_by_name():
    assert parse_spec("physics").kind == "physics"
    assert isinstance(open_source("physics", PROFILE, FakeClock(0.0)), PhysicsBoard)
    with pytest.raises(SpecError, match="takes no ':' argument"):
        parse_spec("physics:fast")
