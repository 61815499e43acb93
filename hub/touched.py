"""What changed in the hub's file since the page's refresher last looked.

The store notes it as it writes (``HubStore.take_touched``), so the tournament page is rebuilt
board by board, and its standings, rounds and games only when one of those may have changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Touched:
    """What changed since the last :meth:`HubStore.take_touched`."""

    boards: frozenset[str] = frozenset()
    """Boards whose card may have changed (status, state, events received, commands)."""
    all_boards: bool = False
    """Every board's card may have changed (a pairing moved, or nobody asked yet)."""
    tournament: bool = False
    """Players, rounds, games or what the referee must look at may have changed."""


@dataclass
class Journal:
    """The store's running note of what changed (kept under the store's lock)."""

    boards: set[str] = field(default_factory=set)
    all_boards: bool = True
    tournament: bool = True
