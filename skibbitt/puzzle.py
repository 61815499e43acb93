"""A puzzle: its difficulty and the tiles each round deals.

Difficulty k (Easy 1, Standard 2, Expert 3): round 1 deals 3 + k tiles, rounds 2 and 3 deal k
new tiles each, which join the three carried over from the round before.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from skibbitt.tiles import Tile, TileError


class Difficulty(enum.Enum):
    EASY = "easy"
    STANDARD = "standard"
    EXPERT = "expert"

    @property
    def k(self) -> int:
        """New tiles per round after the first; round 1 deals 3 + k."""
        return {Difficulty.EASY: 1, Difficulty.STANDARD: 2, Difficulty.EXPERT: 3}[self]

    @property
    def counts(self) -> tuple[int, int, int]:
        """Tiles dealt in rounds 1, 2 and 3."""
        return (3 + self.k, self.k, self.k)

    @property
    def quality(self) -> int:
        """Quality points a solved puzzle of this difficulty earns."""
        return self.k


def parse_difficulty(text: str) -> Difficulty:
    try:
        return Difficulty(text.strip().lower())
    except ValueError:
        raise TileError(f"unknown difficulty {text!r}: choose easy, standard or expert") from None


def difficulty_for(counts: tuple[int, ...]) -> Difficulty:
    """The difficulty whose rounds deal ``counts`` tiles."""
    for difficulty in Difficulty:
        if counts == difficulty.counts:
            return difficulty
    wanted = "; ".join(f"{d.value} {'/'.join(map(str, d.counts))}" for d in Difficulty)
    raise TileError(f"rounds of {'/'.join(map(str, counts))} tiles fit no difficulty "
                    f"(tiles per round: {wanted})")


@dataclass(frozen=True)
class Puzzle:
    """Three rounds of dealt tiles, every tile different."""

    difficulty: Difficulty
    rounds: tuple[tuple[Tile, ...], tuple[Tile, ...], tuple[Tile, ...]]

    def __post_init__(self) -> None:
        counts = tuple(len(r) for r in self.rounds)
        if counts != self.difficulty.counts:
            raise TileError(f"{self.difficulty.value} deals "
                            f"{'/'.join(map(str, self.difficulty.counts))} tiles per round, "
                            f"not {'/'.join(map(str, counts))}")
        seen: set[Tile] = set()
        for tile in self.tiles:
            if tile in seen:
                raise TileError(f"tile {tile.notation} is dealt twice; "
                                "a puzzle deals each tile once")
            seen.add(tile)

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every dealt tile, round by round."""
        return self.rounds[0] + self.rounds[1] + self.rounds[2]


def puzzle_of(rounds: tuple[tuple[Tile, ...], ...]) -> Puzzle:
    """The puzzle of three rounds of tiles; the difficulty follows from their counts."""
    if len(rounds) != 3:
        raise TileError(f"a puzzle has 3 rounds, not {len(rounds)}")
    difficulty = difficulty_for(tuple(len(r) for r in rounds))
    return Puzzle(difficulty, (rounds[0], rounds[1], rounds[2]))
