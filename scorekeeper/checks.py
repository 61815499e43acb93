"""Small checks for objects that come from JSON (scenario files, the match log, the web).

Each check names the key it looked at, so a refusal says exactly what was wrong
(SCENARIOS.md: "anything wrong inside a step ... is a refusal of that step").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.errors import MalformedEventError
from scorekeeper.fields import PLAYERS, Player


def show(value: Any) -> str:
    """A short, JSON-like rendering of a bad value for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def mapping(value: Any, key: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else a refusal naming ``key``."""
    if not isinstance(value, Mapping):
        raise MalformedEventError(f"{key}: expected an object, got {show(value)}")
    return value


def only_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """Refuse keys of ``obj`` that are not in ``allowed``."""
    for key in obj:
        if key not in allowed:
            raise MalformedEventError(
                f"{where}: unknown key {show(key)} (known: {', '.join(allowed)})"
            )


def integer(value: Any, key: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is an integer (not a boolean) within ``low``..``high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedEventError(f"{key}: expected an integer, got {show(value)}")
    if low is not None and value < low:
        raise MalformedEventError(f"{key}: {value} is below {low}")
    if high is not None and value > high:
        raise MalformedEventError(f"{key}: {value} is above {high}")
    return value


def boolean(value: Any, key: str) -> bool:
    """``value`` if it is ``true`` or ``false``."""
    if not isinstance(value, bool):
        raise MalformedEventError(f"{key}: expected true or false, got {show(value)}")
    return value


def string(value: Any, key: str) -> str:
    """``value`` if it is a string."""
    if not isinstance(value, str):
        raise MalformedEventError(f"{key}: expected a string, got {show(value)}")
    return value


def player(value: Any, key: str) -> Player:
    """``value`` if it is ``"black"`` or ``"white"``."""
    if value not in PLAYERS or not isinstance(value, str):
        raise MalformedEventError(f"{key}: expected \"black\" or \"white\", got {show(value)}")
    return value  # type: ignore[return-value]


def string_list(value: Any, key: str) -> tuple[str, ...]:
    """``value`` if it is a list of strings, as a tuple."""
    if not isinstance(value, list | tuple):
        raise MalformedEventError(f"{key}: expected a list, got {show(value)}")
    for i, item in enumerate(value):
        string(item, f"{key}[{i}]")
    return tuple(value)


def per_player(
    value: Any, key: str, low: int | None = None, high: int | None = None
) -> dict[Player, int]:
    """A ``{player: integer}`` object (any subset of the two players)."""
    obj = mapping(value, key)
    out: dict[Player, int] = {}
    for name, v in obj.items():
        p = player(name, f"{key} key")
        out[p] = integer(v, f"{key}.{name}", low, high)
    return out


def counts(value: Any, key: str) -> dict[str, int]:
    """A ``{field: integer}`` object; field names are checked against the rules later."""
    obj = mapping(value, key)
    out: dict[str, int] = {}
    for name, v in obj.items():
        string(name, f"{key} key")
        out[name] = integer(v, f"{key}.{name}")
    return out
