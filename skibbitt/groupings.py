"""Groupings: three values of one category that form a set, a run or a skip, and their names.

Values are positions 1-6. A set is three equal values, a run three consecutive ones (no
wrap-around from the sixth to the first), a skip three values one apart (1-3-5, 2-4-6).
Each of the 12 groupings of each category has a name; six of the 36 are the original game's
(Foxy, Spectral, Even, Odd, Primary, Aced), the other 30 are ours (docs/skibbitt.md).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from skibbitt.tiles import Category, value_points


class Kind(enum.Enum):
    """What shape a grouping has, and its bonus."""

    SET = "set"
    RUN = "run"
    SKIP = "skip"

    @property
    def bonus(self) -> int:
        return {Kind.SET: 25, Kind.RUN: 50, Kind.SKIP: 75}[self]


NAMES: dict[Category, dict[tuple[int, int, int], str]] = {
    Category.COLOR: {
        (1, 1, 1): "Fiery", (2, 2, 2): "Tangy", (3, 3, 3): "Sunny",
        (4, 4, 4): "Leafy", (5, 5, 5): "Moody", (6, 6, 6): "Regal",
        (1, 2, 3): "Warm", (2, 3, 4): "Zesty", (3, 4, 5): "Spectral", (4, 5, 6): "Cool",
        (1, 3, 5): "Primary", (2, 4, 6): "Secondary",
    },
    Category.SHAPE: {
        (1, 1, 1): "Loopy", (2, 2, 2): "Pointy", (3, 3, 3): "Arched",
        (4, 4, 4): "Boxy", (5, 5, 5): "Homely", (6, 6, 6): "Honeyed",
        (1, 2, 3): "Sprouting", (2, 3, 4): "Climbing", (3, 4, 5): "Soaring", (4, 5, 6): "Lofty",
        (1, 3, 5): "Odd", (2, 4, 6): "Even",
    },
    Category.LETTER: {
        (1, 1, 1): "Able", (2, 2, 2): "Bouncy", (3, 3, 3): "Cheeky",
        (4, 4, 4): "Dandy", (5, 5, 5): "Eager", (6, 6, 6): "Foxy",
        (1, 2, 3): "Basic", (2, 3, 4): "Coded", (3, 4, 5): "Tuneful", (4, 5, 6): "Deft",
        (1, 3, 5): "Aced", (2, 4, 6): "Buffed",
    },
}
"""Each grouping's name, by category and its values in ascending order."""

ORIGINAL_NAMES = frozenset({"Foxy", "Spectral", "Even", "Odd", "Primary", "Aced"})
"""The six names the original game gives; the rest of :data:`NAMES` are ours."""


def kind_of(values: tuple[int, int, int]) -> Kind | None:
    """The grouping three values (ascending) form, or None."""
    a, b, c = values
    if a == b == c:
        return Kind.SET
    if b == a + 1 and c == b + 1:
        return Kind.RUN
    if (a, b, c) in ((1, 3, 5), (2, 4, 6)):
        return Kind.SKIP
    return None


@dataclass(frozen=True)
class Grouping:
    """A grouping in one category: its values (ascending), kind, name and score."""

    category: Category
    values: tuple[int, int, int]
    kind: Kind

    @property
    def name(self) -> str:
        return NAMES[self.category][self.values]

    @property
    def score(self) -> int:
        """The kind's bonus plus the three values' points."""
        return self.kind.bonus + sum(value_points(v) for v in self.values)


def grouping(category: Category, values: tuple[int, int, int]) -> Grouping | None:
    """The grouping three values of ``category`` form (in any order), or None."""
    ordered = tuple(sorted(values))
    kind = kind_of(ordered)  # type: ignore[arg-type]
    return None if kind is None else Grouping(category, ordered, kind)  # type: ignore[arg-type]


ALL_GROUPINGS: tuple[Grouping, ...] = tuple(
    Grouping(category, values, kind)
    for category in Category
    for values in NAMES[category]
    if (kind := kind_of(values)) is not None)
"""The 36 groupings, 12 per category."""
