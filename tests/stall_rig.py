"""A disk that stalls, injected into the store's connection (a frozen file system needs root).

:func:`stall` holds every ``INSERT INTO events`` until the test releases it, so a step waits
on the writer thread exactly as it would on a frozen card; reads go through untouched.
"""

from __future__ import annotations

import sqlite3
import threading
from typing import Any

from scorekeeper.store import MatchStore
from web.table.table import Table

WAIT_S = 5.0
"""How long a test waits for anything that should be prompt (a generous bound, not a
timing assertion: before the writer thread these waits never ended while the disk stalled)."""


class StallingDb:
    """The store's connection, holding every INSERT INTO events until ``release``."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.reached = threading.Event()
        self.released = threading.Event()

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.lstrip().upper().startswith("INSERT INTO EVENTS"):
            self.reached.set()
            self.released.wait(60)
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def stall(store: MatchStore) -> StallingDb:
    stalling = StallingDb(store._db)  # noqa: SLF001 - the stall goes where the writes go
    store._db = stalling  # type: ignore[assignment]  # noqa: SLF001
    return stalling


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
