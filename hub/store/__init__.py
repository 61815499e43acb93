"""The hub's own SQLite file: players, rounds, pairings, games, every event received.

One store object, :class:`HubStore`, made of focused parts, each in its own module:
``connection`` (the file, its lock, whole changes, what changed since the page last asked),
``tournament`` (settings, players, rounds, pairings, games), ``received`` (events and
counters), ``boards`` (board status and state, commands and their answers) and ``claims``
(results waiting for the referee, and the referee's decisions) and ``field`` (the
field's log: late entries, drops, swaps, and the tournament's version).
"""

from __future__ import annotations

from hub.model import ReceivedEvent, StoredGame
from hub.store.boards import BoardTables
from hub.store.claims import Claim, ClaimTables
from hub.store.connection import SCHEMA, HubStoreError
from hub.store.field import FieldChange, FieldTables
from hub.store.received import STATE_KEYS, ReceivedTables, kept_state
from hub.store.selftests import SelfTestTables
from hub.store.tournament import TournamentTables

__all__ = [
    "SCHEMA",
    "Claim",
    "FieldChange",
    "STATE_KEYS",
    "HubStore",
    "HubStoreError",
    "ReceivedEvent",
    "StoredGame",
    "kept_state",
]


class HubStore(TournamentTables, ReceivedTables, BoardTables, ClaimTables, SelfTestTables,
               FieldTables):
    """The tournament on disk. Every method is safe to call from any thread."""
