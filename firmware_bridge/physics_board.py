"""The physics board as a source: the simulated board, and a flick that rolls a skitt in.

:class:`PhysicsBoard` is the :class:`~firmware_bridge.simulator.SimulatedBoard` (every tap
of the virtual board still works) with one more verb, :meth:`PhysicsBoard.flick`: a skitt
is flicked off the shooter's launch line with a speed and an angle, the seeded physics
(:func:`firmware_bridge.physics.play`) runs the shot to rest at once, and the cell changes
it sensed are scheduled on the board's timeline at the clock's time plus their time in the
shot. Nothing here waits: the source hands each change out when the clock has reached it
(:meth:`~firmware_bridge.simulator.SimulatedBoard.poll`), so the table's polling loop plays
the roll over real time, and a test plays it on a fake clock.

Between flicks the board knows its skitts by their cells: every active field cell is a
skitt at rest on that cell's centre (a skitt the physics left between cells, which no cell
senses, is not on the board for the next flick).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from firmware_bridge.physics import Flick, Geometry, Outcome, Physics, Shot, play
from firmware_bridge.profile import BoardProfile
from firmware_bridge.simulator import SimulatedBoard, SimulatorError
from scorekeeper.clock import Clock
from scorekeeper.errors import because
from scorekeeper.fields import PLAYERS

SPEEDS = (100.0, 1500.0)
"""The flicks the board takes, mm/s: slower stops before the board, faster flies over it."""
MAX_ANGLE = math.radians(45)
"""The widest flick, either side of straight up the board."""
LAUNCH_GAP_MM = 40.0
"""The launch line lies this far before the minus field."""


@dataclass(frozen=True)
class Roll:
    """One flick as the board played it: the physics' outcome, from when."""

    at: float
    """Clock time of the flick."""
    until: float
    """Clock time of the last cell change the roll causes."""
    outcome: Outcome


class PhysicsBoard(SimulatedBoard):
    """A simulated board whose shots are flicked and roll in (spec ``physics``)."""

    name = "physics"

    def __init__(self, profile: BoardProfile, clock: Clock, *, seed: int = 0,
                 physics: Physics | None = None, **opts: float) -> None:
        super().__init__(profile, clock, **opts)
        self.physics = Physics() if physics is None else physics
        self.seed = seed
        """The next flick's seed: each flick takes the next one, so a run is repeatable."""
        self.last_roll: Roll | None = None

    def rolling(self) -> bool:
        """A flicked skitt is still moving: changes of its roll are still to come."""
        return self.last_roll is not None and self.clock.now() < self.last_roll.until

    def flick(self, player: str, speed: float, angle: float, lane: float = 0.5) -> Roll:
        """``player`` flicks a skitt off their launch spot at ``speed`` mm/s, ``angle``
        radians off straight up the board (positive: to the right), from ``lane`` (0 the
        left edge of the board, 1 the right). The shot's cell changes are scheduled from
        now; :class:`SimulatorError` (nothing changes) for a flick the board cannot take."""
        if player not in PLAYERS:
            raise SimulatorError(f"unknown player {player!r}: black or white")
        for name, value, low, high in (("speed", speed, *SPEEDS),
                                       ("angle", angle, -MAX_ANGLE, MAX_ANGLE),
                                       ("lane", lane, 0.0, 1.0)):
            if not isinstance(value, (int, float)) or not low <= value <= high:
                raise SimulatorError(f"a flick's {name} is between {low:g} and {high:g}, "
                                     f"got {value!r}")
        if self.rolling():
            raise SimulatorError(because("a skitt is still rolling: flick again once the "
                                         "board is still"))
        other = "white" if player == "black" else "black"
        geo = Geometry.of(self.profile, toward=other)
        resting = tuple((x, y) for cell, x, y in geo.centres if cell in self._final)
        launch = (lane * geo.width, -LAUNCH_GAP_MM)
        shot = Shot("flick", self.seed, (launch, *resting), (Flick(0, speed, angle),))
        self.seed += 1
        outcome = play(self.profile, shot, self.physics, geo)
        spot = self.profile.launch.get(player)  # type: ignore[call-overload]
        pressed = [] if not spot or spot[0] in self._final else \
            [(spot[0], True, 0.0), (spot[0], False, self.press_s)]
        changes = pressed + [(cell, active, t) for t, cell, active in outcome.changes]
        self._emit(changes)
        now = self.clock.now()
        self.last_roll = Roll(now, now + max((t for _, _, t in changes), default=0.0), outcome)
        return self.last_roll
