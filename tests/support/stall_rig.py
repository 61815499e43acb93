"""A disk that stalls, given to the store as its ``connect`` (a frozen file system needs root).

A :class:`StallingDisk` opens the store's connection (``MatchStore(..., connect=disk.connect)``,
``open_table(..., connect=...)``); after :meth:`StallingDisk.stall` it holds every
``INSERT INTO events`` until the test releases it, so a step waits on the writer thread
exactly as it would on a frozen card; reads go through untouched.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

from scorekeeper.store import MatchStore, open_sqlite
from web.table.table import Table

WAIT_S = 5.0
"""How long a test waits for anything that should be prompt (a generous bound, not a
timing assertion: before the writer thread these waits never ended while the disk stalled)."""


class StallingDisk:
    """A card that can freeze: once :meth:`stall` is called, every step's write on a
    connection it opened waits until ``released`` is set (``reached`` says one is waiting)."""

    def __init__(self) -> None:
        self.stalled = False
        self.reached = threading.Event()
        self.released = threading.Event()

    def stall(self) -> StallingDisk:
        self.stalled = True
        return self

    def connect(self, path: str | Path, schema: str) -> sqlite3.Connection:
        """A store's ``connect``: its connection, on this disk."""
        return _Stalling(open_sqlite(path, schema), self)  # type: ignore[return-value]


class _Stalling:
    """A connection on a :class:`StallingDisk`."""

    def __init__(self, db: sqlite3.Connection, disk: StallingDisk) -> None:
        self.db = db
        self.disk = disk

    def execute(self, sql: str, *args: Any) -> Any:
        if self.disk.stalled and sql.lstrip().upper().startswith("INSERT INTO EVENTS"):
            self.disk.reached.set()
            self.disk.released.wait(60)
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def in_thread(fn: Any) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}
    thread = threading.Thread(target=lambda: out.update(result=fn()), daemon=True)
    thread.start()
    return thread, out


def answered(fn: Any, what: str = "no answer while the disk stalled") -> Any:
    """``fn()`` run beside the test; fails (saying ``what``) when it has not returned
    within :data:`WAIT_S`."""
    thread, out = in_thread(fn)
    thread.join(WAIT_S)
    assert not thread.is_alive(), what
    return out["result"]


def events_stored(table: Table) -> list[dict[str, Any]]:
    with MatchStore(table.store.path) as other:
        return [e.body for e in other.iter_events(table.match_id)]
