"""A physics board: skitts that slide, bounce and creep, and the cell changes they cause.

Pure and seeded: :func:`play` takes a :class:`Shot` (skitts at rest, flicks with a speed and
an angle) and returns the sensed cell-change timeline and the true resting cells. The
geometry is laid out from the board profile: each field is a block of cells, the minus
field nearest the shooter; every cell has a Hall switch that senses a skitt within
``sense_mm`` of its centre and a magnet that pulls a skitt within ``pull_mm`` towards it.
Skitts lose speed to friction, bounce off each other (equal masses, ``restitution``),
knock resting skitts on, slide across cells (a fast skitt turns a cell on for ~20 ms) and
creep slowly when the pull near a field's edge balances friction. Each switch is sampled
every ``sample_ms`` with its own phase and a little jitter, as the real ones are.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from firmware_bridge.profile import BoardProfile

DT_S = 0.001
MAX_S = 6.0
_EPSILON_S = 1e-9
_GONE = -1e6
"""Where a skitt that left the board lies (far from every cell)."""


@dataclass(frozen=True)
class Geometry:
    """Cell centres in mm, from the profile's fields (row per field, minus first)."""

    centres: tuple[tuple[int, float, float], ...]
    """``(cell, x, y)`` for every field cell."""
    width: float
    depth: float
    cell_pitch: float = 30.0

    def __post_init__(self) -> None:
        grid: dict[tuple[int, int], list[tuple[int, float, float]]] = {}
        for c in self.centres:
            ix, iy = self._key(c[1], c[2])
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    grid.setdefault((ix + dx, iy + dy), []).append(c)
        object.__setattr__(self, "_grid", grid)

    def _key(self, x: float, y: float) -> tuple[int, int]:
        return math.floor(x / self.cell_pitch), math.floor(y / self.cell_pitch)

    def near(self, x: float, y: float) -> list[tuple[int, float, float]]:
        """The cells whose centre is within one pitch of (x, y) (and a few more)."""
        return self._grid.get(self._key(x, y), [])  # type: ignore[attr-defined, no-any-return]

    def off(self, x: float, y: float) -> bool:
        """Beyond the board's edge: the skitt has left the board."""
        m = 2 * self.cell_pitch
        return not (-m <= x <= self.width + m and -m <= y <= self.depth + m)

    @classmethod
    def of(cls, profile: BoardProfile, cell_pitch: float = 22.0, columns: int = 7,
           toward: str | None = None) -> Geometry:
        """Fields one above the other, the minus field nearest the shooter; a field's cells
        on a grid ``columns`` wide, one empty row between fields. ``toward`` (a player):
        that player's fields come next after the minus field (a shot at them), then the
        shooter's own; None: the fields in name order."""
        names = sorted(profile.fields, key=lambda n: (
            n != "minus", toward is not None and not n.startswith(f"{toward}."), n))
        centres = []
        row = 0
        for name in names:
            cells = profile.fields[name].cells
            for i, cell in enumerate(cells):
                x, y = (i % columns) * cell_pitch, (row + i // columns) * cell_pitch
                centres.append((cell, x, y))
            row += -(-len(cells) // columns) + 1
        return cls(tuple(centres), (columns - 1) * cell_pitch, (row - 2) * cell_pitch, cell_pitch)


@dataclass(frozen=True)
class Physics:
    """The board's physical constants (mm, s)."""

    radius_mm: float = 9.0
    friction: float = 900.0
    """Sliding deceleration, mm/s²."""
    pull: float = 1500.0
    """The magnet's pull at a cell's centre, mm/s², falling to 0 at ``pull_mm``."""
    pull_mm: float = 14.0
    sense_mm: float = 8.0
    stick: float = 5.0
    """Below this speed (mm/s) a skitt the pull cannot move any more is at rest."""
    restitution: float = 0.8
    sample_ms: float = 50.0
    """The Hall switches sample every 50 ms (DRV5032FC, hardware/README.md)."""
    jitter_ms: float = 0.5


@dataclass(frozen=True)
class Flick:
    skitt: int
    speed: float
    """mm/s"""
    angle: float
    """radians; 0 is straight up the board (+y)."""
    at_s: float = 0.0


@dataclass(frozen=True)
class Shot:
    """Skitts at rest (x, y) and the flicks given to them."""

    kind: str
    seed: int
    skitts: tuple[tuple[float, float], ...]
    flicks: tuple[Flick, ...]


@dataclass(frozen=True)
class Outcome:
    """What the board sensed and what is true at rest."""

    shot: Shot
    before: frozenset[int]
    changes: tuple[tuple[float, int, bool], ...]
    """Sampled changes (seconds after the first flick, cell, active), in time order."""
    final: frozenset[int]
    """The cells truly covered once every skitt is at rest."""
    rest_s: float
    """When the board truly reached its final sensed state: the last physical change."""
    positions: tuple[tuple[float, float] | None, ...] = ()
    """Where each skitt of ``shot.skitts`` lies at rest (mm); None: off the board."""


def _covered(geo: Geometry, phys: Physics, pos: list[list[float]]) -> frozenset[int]:
    r2 = phys.sense_mm ** 2
    return frozenset(c for p in pos for c, cx, cy in geo.near(p[0], p[1])
                     if (p[0] - cx) ** 2 + (p[1] - cy) ** 2 <= r2)


def play(profile: BoardProfile, shot: Shot, phys: Physics | None = None,
         geo: Geometry | None = None) -> Outcome:
    """Run ``shot`` to rest; deterministic for a given ``shot.seed`` (``geo``: the board's
    lay-out, by default :meth:`Geometry.of` the profile)."""
    phys = Physics() if phys is None else phys
    geo = Geometry.of(profile) if geo is None else geo
    rng = random.Random(shot.seed)
    pos = [[x, y] for x, y in shot.skitts]
    vel = [[0.0, 0.0] for _ in pos]
    pending = sorted(shot.flicks, key=lambda f: f.at_s)
    before = _covered(geo, phys, pos)
    # each switch: its own phase and the state it last reported
    phase = {c: rng.uniform(0, phys.sample_ms / 1000) for c, _, _ in geo.centres}
    next_sample = dict(phase)
    shown = before
    period, jitter = phys.sample_ms / 1000, phys.jitter_ms / 1000
    changes: list[tuple[float, int, bool]] = []
    physical = before
    last_physical = 0.0
    unsampled: frozenset[int] = frozenset()
    """Cells whose switch has not yet sampled their new state."""
    t = 0.0
    while t < MAX_S:
        while pending and pending[0].at_s <= t:
            f = pending.pop(0)
            vel[f.skitt] = [f.speed * math.sin(f.angle), f.speed * math.cos(f.angle)]
        moving = _step(geo, phys, pos, vel)
        t += DT_S
        now = _covered(geo, phys, pos)
        if now != physical:
            physical, last_physical = now, t
        for c in physical ^ shown:
            due = next_sample[c]
            if c not in unsampled:  # changed just now: the samples before saw the old state
                while due < t - _EPSILON_S:
                    due += period + rng.uniform(-jitter, jitter)
                next_sample[c] = due
            if t >= due - _EPSILON_S:
                shown = shown ^ {c}
                changes.append((due, c, c in physical))
                next_sample[c] = due + period + rng.uniform(-jitter, jitter)
        unsampled = physical ^ shown
        if not moving and not pending and physical == shown:
            break
    changes.sort()
    rest = tuple(None if p[0] == _GONE else (p[0], p[1]) for p in pos)
    return Outcome(shot, before, tuple(changes), physical, last_physical, rest)


def _step(geo: Geometry, phys: Physics, pos: list[list[float]],
          vel: list[list[float]]) -> bool:
    moving = False
    for p, v in zip(pos, vel, strict=True):
        ax = ay = 0.0
        for _, cx, cy in geo.near(p[0], p[1]):
            dx, dy = cx - p[0], cy - p[1]
            d = math.hypot(dx, dy)
            if 1e-6 < d < phys.pull_mm:
                a = phys.pull * (1 - d / phys.pull_mm)
                ax += a * dx / d
                ay += a * dy / d
        speed = math.hypot(*v)
        if speed and geo.off(p[0], p[1]):
            v[0] = v[1] = 0.0  # off the board, into the gutter
            p[0], p[1] = _GONE, _GONE
            continue
        if speed < phys.stick and math.hypot(ax, ay) < phys.friction:
            v[0] = v[1] = 0.0
            continue
        moving = True
        if speed > 0:
            ax -= phys.friction * v[0] / speed
            ay -= phys.friction * v[1] / speed
        nvx, nvy = v[0] + ax * DT_S, v[1] + ay * DT_S
        if speed > 0 and nvx * v[0] + nvy * v[1] < 0 and math.hypot(ax, ay) < 2 * phys.friction:
            nvx = nvy = 0.0  # friction stops a skitt; it never turns it round
        v[0], v[1] = nvx, nvy
        p[0] += v[0] * DT_S
        p[1] += v[1] * DT_S
    _collide(phys, pos, vel)
    return moving


def _collide(phys: Physics, pos: list[list[float]], vel: list[list[float]]) -> None:
    d_min = 2 * phys.radius_mm
    for i in range(len(pos)):
        for j in range(i + 1, len(pos)):
            dx, dy = pos[j][0] - pos[i][0], pos[j][1] - pos[i][1]
            d = math.hypot(dx, dy)
            if d >= d_min or d < 1e-9:
                continue
            nx, ny = dx / d, dy / d
            rel = (vel[i][0] - vel[j][0]) * nx + (vel[i][1] - vel[j][1]) * ny
            if rel > 0:
                k = (1 + phys.restitution) / 2 * rel
                vel[i][0] -= k * nx
                vel[i][1] -= k * ny
                vel[j][0] += k * nx
                vel[j][1] += k * ny
            push = (d_min - d) / 2
            pos[i][0] -= push * nx
            pos[i][1] -= push * ny
            pos[j][0] += push * nx
            pos[j][1] += push * ny
