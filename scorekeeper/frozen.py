"""An immutable mapping, so that frozen values can hold per-field and per-player counts.

States are kept for every step of a match (undo is "keep the old one"), so a mapping inside
a state must never change after it is made. :class:`FrozenMap` is a ``dict`` that refuses
every change: it compares, prints and serialises like a dict, and it can be hashed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NoReturn, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(dict[K, V]):
    """A ``dict`` that cannot be changed once made; build a new one with :meth:`set`."""

    __slots__ = ("_hash",)

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("a FrozenMap cannot be changed; build a new one with .set()")

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse  # type: ignore[assignment]
    clear = _refuse
    pop = _refuse  # type: ignore[assignment]
    popitem = _refuse
    setdefault = _refuse  # type: ignore[assignment]
    update = _refuse  # type: ignore[assignment]

    def __hash__(self) -> int:  # type: ignore[override]
        try:
            return self._hash  # type: ignore[no-any-return]
        except AttributeError:
            h = hash(frozenset(self.items()))
            object.__setattr__(self, "_hash", h)
            return h

    def __repr__(self) -> str:
        return f"FrozenMap({dict.__repr__(self)})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenMap, (dict(self),))

    def __copy__(self) -> FrozenMap[K, V]:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> FrozenMap[K, V]:
        return self

    def set(self, changes: Mapping[K, V] | Iterable[tuple[K, V]]) -> FrozenMap[K, V]:
        """A new map with ``changes`` applied (self is unchanged)."""
        new = dict(self)
        new.update(changes)
        return FrozenMap(new)


def freeze(mapping: Mapping[K, V] | None) -> FrozenMap[K, V]:
    """``mapping`` as a :class:`FrozenMap` (itself when it already is one)."""
    if isinstance(mapping, FrozenMap):
        return mapping
    return FrozenMap(mapping or {})
