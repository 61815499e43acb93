"""What a tap on the virtual board does to the simulated board, as a real skitt would.

Kept apart from the watch (``web.table.watch``), which runs the tap under its lock and has
the table poll right after it, so the pipeline judges it as it judges a real board.
"""

from __future__ import annotations

import contextlib

from firmware_bridge.physics_board import PhysicsBoard
from firmware_bridge.simulator import SimulatedBoard, SimulatorError
from scorekeeper.errors import because
from scorekeeper.tracker import Expectation


def land_skitt(sim: SimulatedBoard, field_name: str, due: Expectation) -> None:
    """A skitt of the shot lands on ``field_name``. On a field as full as its cells count no
    cell changes, as on a real board: the shot then shows on the launch spot of the player
    due (``due``: what the match expects), as a flick off it does."""
    seen = sim.sensed(field_name)
    sim.place_skitt(field_name)
    turn = due.turn
    if sim.sensed(field_name) == seen and turn and due.playing and sim.profile.launch.get(turn):
        with contextlib.suppress(SimulatorError):  # already pressed for this shot
            sim.press_launch(turn)


def flick_skitt(sim: SimulatedBoard, player: str, speed: float, angle: float,
                lane: float) -> None:
    """``player`` flicks a skitt on the physics board (:meth:`PhysicsBoard.flick`); the
    plain simulated board has no physics to roll it with."""
    if not isinstance(sim, PhysicsBoard):
        raise SimulatorError(because("a flick needs the physics board (skitter serve --board "
                                     "physics); on this board tap where the skitt lands"))
    sim.flick(player, speed, angle, lane)
