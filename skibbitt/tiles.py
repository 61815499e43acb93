"""The 216 tiles: a colour, a shape and a letter, each worth 8 - n points for its n-th value.

Notation: the colour's initial (R O Y G B P), the shape's side count (1-6) and the letter
(A-F), so ``R1A`` is a red circle A.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Category(enum.Enum):
    """The three ways tiles differ, in the order a Triplitt's name lists them."""

    COLOR = "color"
    SHAPE = "shape"
    LETTER = "letter"


VALUE_NAMES: dict[Category, tuple[str, ...]] = {
    Category.COLOR: ("Red", "Orange", "Yellow", "Green", "Blue", "Purple"),
    Category.SHAPE: ("Circle", "Digon", "Dome", "Square", "Pentagon", "Hexagon"),
    Category.LETTER: ("A", "B", "C", "D", "E", "F"),
}
"""The six values of each category, first (worth 7) to sixth (worth 2)."""

COLOR_INITIALS = "ROYGBP"
SHAPE_DIGITS = "123456"
LETTERS = "ABCDEF"
VALUES = range(1, 7)


class TileError(ValueError):
    """A tile's notation that names no tile; the message says what is wrong."""


def value_points(value: int) -> int:
    """What the n-th value of any category is worth: 7 for the first, 2 for the sixth."""
    return 8 - value


@dataclass(frozen=True, order=True)
class Tile:
    """One tile; each field is its value's position, 1 to 6, in its category."""

    color: int
    shape: int
    letter: int

    def __post_init__(self) -> None:
        for category in Category:
            if self.value(category) not in VALUES:
                raise TileError(f"a tile's {category.value} must be 1 to 6, "
                                f"not {self.value(category)}")

    def value(self, category: Category) -> int:
        match category:
            case Category.COLOR:
                return self.color
            case Category.SHAPE:
                return self.shape
            case Category.LETTER:
                return self.letter

    @property
    def notation(self) -> str:
        return (COLOR_INITIALS[self.color - 1] + SHAPE_DIGITS[self.shape - 1]
                + LETTERS[self.letter - 1])

    def describe(self) -> str:
        """``Red Circle A``: the tile in words."""
        return " ".join(VALUE_NAMES[c][self.value(c) - 1] for c in Category)

    def __str__(self) -> str:
        return self.notation


ALL_TILES: tuple[Tile, ...] = tuple(Tile(c, s, letter) for c in VALUES for s in VALUES
                                    for letter in VALUES)
"""Every tile, ordered by colour, then shape, then letter."""


def parse_tile(text: str) -> Tile:
    """The tile ``text`` names (``R1A``; case and surrounding spaces do not matter)."""
    code = text.strip().upper()
    if len(code) != 3:
        raise TileError(f"unknown tile {text!r}: a tile is written as colour R/O/Y/G/B/P, "
                        "sides 1-6 and letter A-F, like R1A")
    color, shape, letter = code
    if color not in COLOR_INITIALS:
        raise TileError(f"unknown tile {text!r}: the colour must be one of R, O, Y, G, B, P")
    if shape not in SHAPE_DIGITS:
        raise TileError(f"unknown tile {text!r}: the shape must be a side count 1 to 6")
    if letter not in LETTERS:
        raise TileError(f"unknown tile {text!r}: the letter must be one of A to F")
    return Tile(COLOR_INITIALS.index(color) + 1, SHAPE_DIGITS.index(shape) + 1,
                LETTERS.index(letter) + 1)


def parse_tiles(texts: list[str] | tuple[str, ...]) -> tuple[Tile, ...]:
    """Several tiles, each different: a tile named twice is refused."""
    tiles = tuple(parse_tile(t) for t in texts)
    seen: set[Tile] = set()
    for tile in tiles:
        if tile in seen:
            raise TileError(f"tile {tile.notation} is given twice; there is one of each tile")
        seen.add(tile)
    return tiles
