"""The match log on disk: an append-only SQLite file that survives a power cut.

Every event is committed (WAL mode, ``synchronous=FULL``) before :meth:`MatchStore.append`
returns, so an event the scoreboard acknowledged is on disk. Nothing is ever updated or
deleted: undo and corrections are events too, and reopening the file and folding the events
rebuilds exactly the same match. Timestamps are passed in (the store reads no clock).

The store keeps events as the JSON objects of the scenario step format
(``{"shot": {...}}``, ``{"undo": true}``...); turning them into a match is the job of
:func:`scorekeeper.match.Match.replay`. A restart reads the bodies as text
(:meth:`MatchStore.iter_bodies`) and hands them to :meth:`~scorekeeper.match.Match.replay_json`,
which decodes each distinct text once.

**Damage is refused, never repaired.** Opening runs SQLite's integrity check and every stored
step carries a checksum of its row (``events.sum``) that is verified as it is read: a file
that fails either is refused with one line naming the file, and is never written to. An
empty (0-byte) file where a log was expected is refused too: it is a log that lost its
contents (e.g. a ``.db`` copied without its ``-wal``), not a new match. A clean
:meth:`MatchStore.close` checkpoints the WAL into the ``.db``, so a copy of it alone is whole.

**Schema versions** (``PRAGMA user_version``): 1 is the original layout; 2 adds
``events.sum``; 3 adds the ``resumes`` table (a replaced match taken up again). A
version-1 log is migrated on its first open: the checksums are computed from
the rows as they are then (they cannot be checked retroactively) in one transaction. A later
version adds its own tables or columns in :data:`~scorekeeper.store.schema.MIGRATIONS`
the same way.

The store is one object, :class:`MatchStore`, made of parts that each do one thing:
``logfile`` (opening, integrity, migrations, transactions), ``schema`` (tables, versions,
checksums), ``writing``, ``reading``, ``timelines`` and ``export``; ``values`` holds what it
gives back.
"""

from __future__ import annotations

from scorekeeper.store.export import LogExport
from scorekeeper.store.logfile import Connect, StoreError, StoreUnwritable, open_sqlite
from scorekeeper.store.reading import LogReading
from scorekeeper.store.schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION, row_sum
from scorekeeper.store.timelines import LogTimelines
from scorekeeper.store.values import EXPORT_FORMAT, StoredEvent, StoredMatch
from scorekeeper.store.writing import LogWriting

__all__ = [
    "EXPORT_FORMAT",
    "MIGRATIONS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "Connect",
    "MatchStore",
    "StoreError",
    "StoreUnwritable",
    "StoredEvent",
    "StoredMatch",
    "open_sqlite",
    "row_sum",
]


class MatchStore(LogExport, LogWriting, LogReading, LogTimelines):
    """An SQLite file holding any number of matches.

    One writer at a time (the serving process); readers may open the same file.
    """
