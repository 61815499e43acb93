"""A Triplitt's rating, score and name.

Rating by how many categories have a grouping: 0 Ribbitt, 1 Yibbitt, 2 Bibbitt, 3 Skibbitt.
Score: Ribbitt 0, otherwise the rating's base (100, 200, 400) plus each grouping's score.
Name: the groupings' names in the order colour, shape, letter, then the rating.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from skibbitt.groupings import Grouping, grouping
from skibbitt.tiles import Category, Tile, TileError


class Rating(enum.Enum):
    RIBBITT = "Ribbitt"
    YIBBITT = "Yibbitt"
    BIBBITT = "Bibbitt"
    SKIBBITT = "Skibbitt"

    @property
    def base(self) -> int:
        return {Rating.RIBBITT: 0, Rating.YIBBITT: 100, Rating.BIBBITT: 200,
                Rating.SKIBBITT: 400}[self]


RATINGS = (Rating.RIBBITT, Rating.YIBBITT, Rating.BIBBITT, Rating.SKIBBITT)
"""Indexed by the number of groupings."""


@dataclass(frozen=True)
class Triplitt:
    """Three different tiles, scored (the order they were given in does not matter)."""

    tiles: tuple[Tile, Tile, Tile]
    groups: tuple[Grouping | None, Grouping | None, Grouping | None]
    """Colour, shape, letter: each category's grouping or None."""

    @property
    def rating(self) -> Rating:
        return RATINGS[sum(g is not None for g in self.groups)]

    @property
    def score(self) -> int:
        if self.rating is Rating.RIBBITT:
            return 0
        return self.rating.base + sum(g.score for g in self.groups if g is not None)

    @property
    def name(self) -> str:
        return " ".join([g.name for g in self.groups if g is not None] + [self.rating.value])

    def group(self, category: Category) -> Grouping | None:
        return self.groups[list(Category).index(category)]


def triplitt(tiles: Iterable[Tile]) -> Triplitt:
    """Score three different tiles."""
    chosen = tuple(sorted(tiles))
    if len(chosen) != 3:
        raise TileError(f"a Triplitt is three tiles, not {len(chosen)}")
    if len(set(chosen)) != 3:
        raise TileError("a Triplitt is three different tiles")
    groups = tuple(grouping(c, tuple(t.value(c) for t in chosen))  # type: ignore[arg-type]
                   for c in Category)
    return Triplitt(chosen, groups)  # type: ignore[arg-type]
