"""Flicks on the physics board whose outcome a test knows beforehand (the board is seeded)."""

from __future__ import annotations

import math

from firmware_bridge.physics_board import PhysicsBoard
from firmware_bridge.profile import BoardProfile
from scorekeeper.clock import FakeClock


def landing_flick(profile: BoardProfile, player: str, seed: int = 0,
                  lay: dict[str, int] | None = None) -> tuple[float, float, str]:
    """A flick of ``player``'s (speed in mm/s, angle in whole degrees) whose skitt comes to
    rest on one cell of a field other than the minus field, on a board with ``lay`` (field:
    skitts) and the next flick's ``seed``; and that field."""
    for speed in range(450, 1000, 20):  # whole centimetres a second, as the page offers
        for angle in (0, 6, -6, 12, -12):
            trial = PhysicsBoard(profile, FakeClock(0.0), seed=seed)
            for field, n in (lay or {}).items():
                trial.set_count(field, n)
            roll = trial.flick(player, float(speed), math.radians(angle))
            landed = roll.outcome.final - roll.outcome.before
            fields = [f for f, fc in profile.fields.items() if set(fc.cells) & landed]
            if len(landed) == 1 and roll.outcome.before <= roll.outcome.final \
                    and fields != ["minus"]:
                return float(speed), float(angle), fields[0]
    raise AssertionError(f"no flick of {player}'s lands on a field")
