"""Valid puzzles from a seed: the same seed and difficulty always give the same puzzle.

Each attempt plants a Skibbitt for round 3 (its tiles spread over the rounds so the chain can
reach it: at least 3 - k of them dealt before round 3), deals the other tiles at random, and
keeps the deal if :func:`skibbitt.solver.solve` finds it valid (one best chain; on it no
Ribbitt, rising scores, a Skibbitt last). The best chain need not be the planted one.
"""

from __future__ import annotations

import datetime
import hashlib
import random
from dataclasses import dataclass

from skibbitt.groupings import Kind
from skibbitt.puzzle import Difficulty, Puzzle
from skibbitt.solver import Solution, solve
from skibbitt.tiles import ALL_TILES, Tile

MAX_ATTEMPTS = 10_000
"""Far beyond what any seed needs (a few dozen at most); reaching it is a bug."""

_PATTERNS = {
    Kind.SET: tuple((v, v, v) for v in range(1, 7)),
    Kind.RUN: tuple((v, v + 1, v + 2) for v in range(1, 5)),
    Kind.SKIP: ((1, 3, 5), (2, 4, 6)),
}
_ALL_PATTERNS = tuple(p for patterns in _PATTERNS.values() for p in patterns)


@dataclass(frozen=True)
class Generated:
    puzzle: Puzzle
    solution: Solution
    seed: int


def _planted_skibbitt(rng: random.Random) -> tuple[Tile, Tile, Tile]:
    """Three different tiles with a grouping in every category."""
    while True:
        columns = []
        for _ in range(3):
            values = list(rng.choice(_ALL_PATTERNS))
            rng.shuffle(values)
            columns.append(values)
        tiles = tuple(Tile(columns[0][i], columns[1][i], columns[2][i]) for i in range(3))
        if len(set(tiles)) == 3:
            return tiles  # type: ignore[return-value]


def _deal(difficulty: Difficulty, rng: random.Random) -> Puzzle:
    k = difficulty.k
    planted = list(_planted_skibbitt(rng))
    # How many of the planted tiles round 3 deals: at least one (the round must beat the
    # one before), at most its k new tiles; the others are carried in from earlier rounds.
    late = rng.randint(1, k)
    early = 3 - late
    # The carried ones: dealt in round 2 when there is room, otherwise in round 1.
    in_second = rng.randint(0, min(early, k))
    counts = (early - in_second, in_second, late)
    taken = set(planted)
    rest = [t for t in rng.sample(ALL_TILES, 3 * k + 6) if t not in taken]
    rounds: list[list[Tile]] = []
    for size, planted_here in zip(difficulty.counts, counts, strict=True):
        here = [planted.pop() for _ in range(planted_here)]
        here += [rest.pop() for _ in range(size - planted_here)]
        rng.shuffle(here)
        rounds.append(here)
    return Puzzle(difficulty, (tuple(rounds[0]), tuple(rounds[1]), tuple(rounds[2])))


def generate(difficulty: Difficulty, seed: int) -> Generated:
    """The valid puzzle of ``seed`` at ``difficulty``."""
    rng = random.Random(f"skibbitt/{difficulty.value}/{seed}")
    for _ in range(MAX_ATTEMPTS):
        puzzle = _deal(difficulty, rng)
        solution = solve(puzzle)
        if solution.valid:
            return Generated(puzzle, solution, seed)
    raise RuntimeError(f"no valid {difficulty.value} puzzle in {MAX_ATTEMPTS} attempts")


def daily_seed(date: datetime.date, difficulty: Difficulty) -> int:
    """The seed of ``date``'s puzzle at ``difficulty``: the same for everyone that day."""
    digest = hashlib.sha256(f"skibbitt daily {date.isoformat()} {difficulty.value}".encode())
    return int.from_bytes(digest.digest()[:6], "big")


def daily(date: datetime.date, difficulty: Difficulty) -> Generated:
    return generate(difficulty, daily_seed(date, difficulty))
