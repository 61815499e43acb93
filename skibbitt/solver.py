"""The best chain of a puzzle: three Triplitts, one per round, with the highest total.

A chain picks a Triplitt from round 1's tiles, then one from those three plus round 2's new
tiles, then one from those three plus round 3's. Each Triplitt over the dealt tiles is scored
once; round 3's best over a carried Triplitt is kept, since many round-1 choices can carry
the same three tiles. Also counts how many chains reach the maximum (a valid puzzle has one).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from skibbitt.puzzle import Puzzle
from skibbitt.scoring import Rating, Triplitt, triplitt
from skibbitt.tiles import Category, Tile

_BASE = (0, 100, 200, 400)


def _category_table() -> tuple[int, ...]:
    """Per category, for values (a, b, c) at index 36a + 6b + c (0-based, any order): the
    grouping's score, or -1 without one."""
    from skibbitt.groupings import grouping

    table = []
    for a in range(6):
        for b in range(6):
            for c in range(6):
                g = grouping(Category.COLOR, (a + 1, b + 1, c + 1))
                table.append(-1 if g is None else g.score)
    return tuple(table)


_GROUP = _category_table()


def _fast_score(a: Tile, b: Tile, c: Tile) -> int:
    """:func:`triplitt`'s score without building it (same table, for the search)."""
    n = 0
    total = 0
    for g in (_GROUP[36 * (a.color - 1) + 6 * (b.color - 1) + c.color - 1],
              _GROUP[36 * (a.shape - 1) + 6 * (b.shape - 1) + c.shape - 1],
              _GROUP[36 * (a.letter - 1) + 6 * (b.letter - 1) + c.letter - 1]):
        if g >= 0:
            n += 1
            total += g
    return _BASE[n] + total if n else 0


@dataclass(frozen=True)
class Solution:
    """A best chain, its Triplitts' scores and how many chains reach the same total."""

    chain: tuple[Triplitt, Triplitt, Triplitt]
    max_score: int
    best_chains: int

    @property
    def scores(self) -> tuple[int, int, int]:
        return (self.chain[0].score, self.chain[1].score, self.chain[2].score)

    @property
    def unique(self) -> bool:
        return self.best_chains == 1

    @property
    def valid(self) -> bool:
        """The generator's rule: one best chain; on it no Ribbitt, each round above the one
        before, and a Skibbitt in round 3."""
        first, second, third = self.scores
        return (self.unique
                and all(t.rating is not Rating.RIBBITT for t in self.chain)
                and first < second < third
                and self.chain[2].rating is Rating.SKIBBITT)


def solve(puzzle: Puzzle) -> Solution:
    tiles = puzzle.tiles
    k = puzzle.difficulty.k
    first = tuple(range(3 + k))
    second_new = tuple(range(3 + k, 3 + 2 * k))
    third_new = tuple(range(3 + 2 * k, 3 + 3 * k))
    score = {t: _fast_score(tiles[t[0]], tiles[t[1]], tiles[t[2]])
             for t in combinations(range(len(tiles)), 3)}

    finish: dict[tuple[int, ...], tuple[int, int, tuple[int, ...]]] = {}

    def best_third(carried: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
        known = finish.get(carried)
        if known is None:
            top, count, arg = -1, 0, carried
            for t in combinations(carried + third_new, 3):
                s = score[t]
                if s > top:
                    top, count, arg = s, 1, t
                elif s == top:
                    count += 1
            known = finish[carried] = (top, count, arg)
        return known

    top, count = -1, 0
    best: tuple[tuple[int, ...], ...] = ()
    for t1 in combinations(first, 3):
        s1 = score[t1]
        for t2 in combinations(t1 + second_new, 3):
            s3, n3, t3 = best_third(t2)
            total = s1 + score[t2] + s3
            if total > top:
                top, count, best = total, n3, (t1, t2, t3)
            elif total == top:
                count += n3
    chain = tuple(triplitt(tiles[i] for i in t) for t in best)
    return Solution(chain, top, count)  # type: ignore[arg-type]
