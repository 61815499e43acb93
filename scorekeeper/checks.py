"""Small checks for objects that come from JSON (scenario files, the match log, the web).

Each check names the key it looked at, so a refusal says exactly what was wrong
(docs/scenarios.md: a wrong key, type or name inside a step is a refusal of that step).

Whatever arrives, however deep, big or strange, gets a refusal and never another exception:
:func:`decode_json` turns text into a value (no recursion error, no NaN, no number too long
to print), :func:`within_depth` bounds nesting without recursing, integers stay within
JSON's safe range, and :func:`show` renders any value in bounded time and space.
"""

from __future__ import annotations

import json
import math
import reprlib
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from scorekeeper.errors import MalformedEventError
from scorekeeper.fields import PLAYERS, Player

MAX_DEPTH = 16
"""The deepest nesting of objects and lists accepted anywhere (a scenario file needs 6, a
step 3): deeper input is refused before anything walks it recursively."""
MAX_INT = 2**53 - 1
"""Integers beyond JSON's safe range are refused (no count, score or value comes near)."""
MAX_TIME = 10.0**11
"""The latest time (seconds since the epoch, the year 5138) a record may carry: beyond it a
date cannot be printed, and a time of 1e300 breaks every sum of durations."""



class JsonProblem(StrEnum):
    """What is wrong with a JSON text: the API's ``type`` of its refusal (the same words)."""

    NOT_UTF8 = "utf8_invalid"
    NOT_JSON = "json_invalid"
    TOO_DEEP = "too_deep"
    LONE_SURROGATE = "string_unicode"
    INT_RANGE = "int_range"


class MalformedJsonError(MalformedEventError):
    """A JSON text :func:`decode_json` refused, with what is wrong with it as a value."""

    problem: JsonProblem = JsonProblem.NOT_JSON

    @classmethod
    def of(cls, problem: JsonProblem, err: MalformedEventError) -> MalformedJsonError:
        """``err`` (its message, key and why) as the refusal of a JSON text for ``problem``."""
        out = cls(str(err), key=err.key, why=err.why)
        out.problem = problem
        return out


_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 8


def show(value: Any) -> str:
    """A short, JSON-like rendering of a bad value for an error message (bounded whatever
    the value: deep, long, or a number too long to print)."""
    if isinstance(value, int) and value.bit_length() > 190:  # more digits than a line holds
        return f"an integer of {int(value.bit_length() * 0.30103) + 1} digits"
    try:
        text = _REPR.repr(value)
    except Exception:  # a value whose repr fails is named by its type  # noqa: BLE001
        text = f"<{type(value).__name__}>"
    return text if len(text) <= 60 else text[:57] + "..."


def within_depth(value: Any, key: str, limit: int = MAX_DEPTH) -> Any:
    """``value`` if its objects and lists nest at most ``limit`` deep (checked without
    recursion, so a value nested thousands deep, or one that contains itself, is refused)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth > limit:
            raise MalformedEventError.at(key, f"nested more than {limit} levels deep")
        stack.extend((child, depth + 1) for child in children)
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def decode_json(text: str | bytes, key: str) -> Any:
    """The value of a JSON text, or a refusal naming ``key``: not UTF-8, not JSON (NaN and
    Infinity are not JSON), a number too long, nested deeper than :data:`MAX_DEPTH`, an
    integer beyond :data:`MAX_INT` or a lone surrogate (``"\\ud800"``) in a string or a key.

    The one decoder of everything that comes from outside: the API's bodies, the match log
    import, scenario files and what boards send the hub over MQTT."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise MalformedJsonError.of(JsonProblem.NOT_UTF8, MalformedEventError.at(
                key, f"not JSON: not UTF-8 text ({err.reason})")) from None
    if not isinstance(text, str):
        raise MalformedJsonError.at(key, f"not JSON text: {type(text).__name__}")
    try:
        value = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise MalformedJsonError.of(JsonProblem.TOO_DEEP, MalformedEventError.at(
            key, f"nested more than {MAX_DEPTH} levels deep")) from None
    except ValueError as err:  # JSONDecodeError, NaN, a number too long to convert
        why = "a number too long to read" if "integer string" in str(err) else str(err)
        raise MalformedJsonError.at(key, f"not JSON: {why}") from None
    try:
        within_depth(value, key)
    except MalformedEventError as err:
        raise MalformedJsonError.of(JsonProblem.TOO_DEEP, err) from None
    return only_text_and_safe_integers(value, key)


def only_text_and_safe_integers(value: Any, key: str) -> Any:
    """``value`` (its depth already bounded) if every string and key in it is text and every
    integer within :data:`MAX_INT`; a refusal naming where it is not (walked without
    recursion), a :class:`MalformedJsonError` saying which of the two it was."""
    stack: list[tuple[Any, str]] = [(value, key)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            _text(item, where)
        elif isinstance(item, bool):
            continue
        elif isinstance(item, int):
            try:
                integer(item, where)
            except MalformedEventError as err:
                raise MalformedJsonError.of(JsonProblem.INT_RANGE, err) from None
        elif isinstance(item, Mapping):
            for name, sub in item.items():
                _text(name, where, of_key=True)
                stack.append((sub, f"{where}.{name}"))
        elif isinstance(item, list | tuple):
            stack.extend((sub, f"{where}[{i}]") for i, sub in enumerate(item))
    return value


def _text(value: str, key: str, *, of_key: bool = False) -> None:
    """:func:`string` of a decoded string or key, which only a lone surrogate can fail."""
    try:
        string(value, key, of_key=of_key)
    except MalformedEventError as err:
        raise MalformedJsonError.of(JsonProblem.LONE_SURROGATE, err) from None


def mapping(value: Any, key: str) -> Mapping[str, Any]:
    """``value`` if it is a JSON object, else a refusal naming ``key``."""
    if not isinstance(value, Mapping):
        raise MalformedEventError.at(key, f"expected an object, got {show(value)}")
    return value


def only_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """Refuse keys of ``obj`` that are not in ``allowed``."""
    for key in obj:
        if key not in allowed:
            raise MalformedEventError.at(
                where, f"unknown key {show(key)} (known: {', '.join(allowed)})"
            )


def integer(value: Any, key: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is an integer (not a boolean) within ``low``..``high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise MalformedEventError.at(key, f"expected an integer, got {show(value)}")
    if not -MAX_INT <= value <= MAX_INT:
        raise MalformedEventError.at(key, f"{show(value)} is out of range")
    if low is not None and value < low:
        raise MalformedEventError.at(key, f"{value} is below {low}")
    if high is not None and value > high:
        raise MalformedEventError.at(key, f"{value} is above {high}")
    return value


def timestamp(value: Any, key: str) -> float:
    """``value`` if it is a time in seconds since the epoch, 0 to :data:`MAX_TIME`."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not (
        math.isfinite(value) and 0 <= value <= MAX_TIME
    ):
        raise MalformedEventError.at(key, f"expected a time in seconds since 1970, got "
                                     f"{show(value)}")
    return float(value)


def boolean(value: Any, key: str) -> bool:
    """``value`` if it is ``true`` or ``false``."""
    if not isinstance(value, bool):
        raise MalformedEventError.at(key, f"expected true or false, got {show(value)}")
    return value


def _refusal(key: str, why: str, of_key: bool) -> MalformedEventError:
    """The refusal of ``key``'s value, or (``of_key``) of a key inside the object ``key``."""
    if of_key:
        return MalformedEventError(f"{key} key: {why}", key=key)
    return MalformedEventError.at(key, why)


def string(value: Any, key: str, *, of_key: bool = False) -> str:
    """``value`` if it is a string of text (a lone surrogate from a ``\\ud800`` escape is not
    text: it could not be stored or shown)."""
    if not isinstance(value, str):
        raise _refusal(key, f"expected a string, got {show(value)}", of_key)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise _refusal(key, "not valid text (a lone surrogate)", of_key) from None
    return value


def player(value: Any, key: str, *, of_key: bool = False) -> Player:
    """``value`` if it is ``"black"`` or ``"white"``."""
    if not isinstance(value, str) or value not in PLAYERS:
        raise _refusal(key, f"expected \"black\" or \"white\", got {show(value)}", of_key)
    return value  # type: ignore[return-value]


def string_list(value: Any, key: str) -> tuple[str, ...]:
    """``value`` if it is a list of strings, as a tuple."""
    if not isinstance(value, list | tuple):
        raise MalformedEventError.at(key, f"expected a list, got {show(value)}")
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
        p = player(name, key, of_key=True)
        out[p] = integer(v, f"{key}.{name}", low, high)
    return out


def counts(value: Any, key: str) -> dict[str, int]:
    """A ``{field: integer}`` object; field names are checked against the rules later."""
    obj = mapping(value, key)
    out: dict[str, int] = {}
    for name, v in obj.items():
        string(name, key, of_key=True)
        out[name] = integer(v, f"{key}.{name}")
    return out
