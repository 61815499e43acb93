"""An independent reference for the Skibbitt tests: its own scorer, written from the rules'
text (not from the package's tables), and a solver that lists every chain of a puzzle."""

from __future__ import annotations

from functools import cache
from itertools import combinations

COLORS = "ROYGBP"
BONUS = {"set": 25, "run": 50, "skip": 75}
BASE = {1: 100, 2: 200, 3: 400}


def values(code: str) -> tuple[int, int, int]:
    """A tile's colour, shape and letter as positions 1-6."""
    return (COLORS.index(code[0]) + 1, int(code[1]), "ABCDEF".index(code[2]) + 1)


def kind(vals: list[int]) -> str | None:
    low, mid, high = sorted(vals)
    if len(set(vals)) == 1:
        return "set"
    if [low, mid, high] == list(range(low, low + 3)):
        return "run"
    if high - mid == 2 and mid - low == 2:
        return "skip"
    return None


@cache
def score(codes: frozenset[str]) -> int:
    """A Triplitt's score by the rules' text."""
    tiles = [values(c) for c in codes]
    assert len(tiles) == 3
    total = 0
    groups = 0
    for category in range(3):
        column = [t[category] for t in tiles]
        found = kind(column)
        if found is not None:
            groups += 1
            total += BONUS[found] + sum(8 - v for v in column)
    return 0 if groups == 0 else BASE[groups] + total


def rating(codes: frozenset[str]) -> int:
    """How many categories have a grouping."""
    tiles = [values(c) for c in codes]
    return sum(kind([t[c] for t in tiles]) is not None for c in range(3))


def all_chains(rounds: list[list[str]]) -> list[tuple[int, tuple[frozenset[str], ...]]]:
    """Every chain of three Triplitts a player can select, with its total."""
    out = []
    for first in combinations(rounds[0], 3):
        for second in combinations(list(first) + rounds[1], 3):
            for third in combinations(list(second) + rounds[2], 3):
                chain = (frozenset(first), frozenset(second), frozenset(third))
                out.append((sum(score(t) for t in chain), chain))
    return out
