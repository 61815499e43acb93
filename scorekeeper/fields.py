"""The names the whole program speaks: players, colours and fields (docs/rules.md, "Words").

A field is named ``<side>.<colour>`` for the colour field on that player's side (in front of
that player), or ``minus`` for the central minus field. Black shoots at ``white.*`` and white
at ``black.*``; a field on the shooter's own side is one of the shooter's *home* fields.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

Player = Literal["black", "white"]
PLAYERS: tuple[Player, Player] = ("black", "white")
MINUS = "minus"
DEFAULT_COLORS: tuple[str, str, str] = ("red", "yellow", "blue")
RED = "red"


class UnknownFieldError(ValueError):
    """A field or player name that is not one of the game's."""


def opponent(player: Player) -> Player:
    """The other player."""
    return "white" if player == "black" else "black"


def field_names(colors: Sequence[str] = DEFAULT_COLORS) -> tuple[str, ...]:
    """The seven field names in board order: black's colours, white's colours, then minus."""
    return tuple(f"{side}.{c}" for side in PLAYERS for c in colors) + (MINUS,)


def color_fields(colors: Sequence[str] = DEFAULT_COLORS) -> tuple[str, ...]:
    """The six colour fields (every field but minus)."""
    return field_names(colors)[:-1]


def side_of(field: str) -> Player | None:
    """The player whose side a colour field is on; ``None`` for minus."""
    if field == MINUS:
        return None
    side = field.split(".", 1)[0]
    if side not in PLAYERS:
        raise UnknownFieldError(f"unknown field {field!r}")
    return side  # type: ignore[return-value]


def color_of(field: str) -> str | None:
    """The colour of a colour field; ``None`` for minus."""
    if field == MINUS:
        return None
    _, _, color = field.partition(".")
    return color or None


def field(side: Player, color: str) -> str:
    """The name of ``side``'s field of ``color``."""
    return f"{side}.{color}"


def opposite_fields(shooter: Player, colors: Sequence[str] = DEFAULT_COLORS) -> tuple[str, ...]:
    """The fields ``shooter`` collects on: the opponent's colour fields, in colour order."""
    return tuple(field(opponent(shooter), c) for c in colors)


def home_fields(shooter: Player, colors: Sequence[str] = DEFAULT_COLORS) -> tuple[str, ...]:
    """The shooter's own colour fields, where the opponent collects."""
    return tuple(field(shooter, c) for c in colors)


def check_field(name: object, colors: Sequence[str] = DEFAULT_COLORS) -> str:
    """Return ``name`` if it is one of the seven fields, else raise :class:`UnknownFieldError`."""
    names = field_names(colors)
    if not isinstance(name, str) or name not in names:
        raise UnknownFieldError(
            f"unknown field {name!r}: expected one of {', '.join(names)}"
        )
    return name
