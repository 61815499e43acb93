"""The hub's SQLite file itself: its tables, one connection, whole changes, what changed.

The hub keeps the tournament apart from any board's match log: boards come and go, the
standings must survive a restart of the hub. One connection serves the MQTT thread and the
web app, behind a lock (SQLite itself would serialise them anyway; the lock keeps each
multi-statement change whole).

The store also notes which boards and whether the rest of the tournament changed since the
page's refresher last asked (:meth:`StoreBase.take_touched`): every write passes through here,
so the page can rebuild only what changed without every caller having to say what that is.
A burst of messages can be stored in one transaction (:meth:`StoreBase.batch`): one commit for
the burst, each message still whole or not at all.

The tables are read and written by the focused parts in this package (``tournament``,
``received``, ``boards``); :class:`~hub.store.HubStore` joins them.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hub.said import MARK, Refusal, Sentence
from hub.touched import Journal, Touched
from scorekeeper.checks import decode_json
from scorekeeper.errors import MalformedEventError
from scorekeeper.store import open_sqlite

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY, seed INTEGER NOT NULL, added_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rounds (
    number INTEGER PRIMARY KEY, system TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pairings (
    round INTEGER NOT NULL REFERENCES rounds(number), tbl INTEGER NOT NULL,
    black TEXT NOT NULL, white TEXT, board TEXT, PRIMARY KEY (round, tbl));
CREATE TABLE IF NOT EXISTS games (
    board TEXT NOT NULL, match_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    black TEXT NOT NULL, white TEXT NOT NULL, winner TEXT,
    black_rounds INTEGER NOT NULL, white_rounds INTEGER NOT NULL,
    black_points INTEGER NOT NULL, white_points INTEGER NOT NULL,
    finished_at REAL NOT NULL, round INTEGER, tbl INTEGER,
    PRIMARY KEY (board, match_id));
CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY, board TEXT NOT NULL, match_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    at REAL NOT NULL, source TEXT NOT NULL, body TEXT NOT NULL, state TEXT NOT NULL,
    names TEXT NOT NULL, received_at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_match ON events (board, match_id, seq);
CREATE TABLE IF NOT EXISTS boards (
    board TEXT PRIMARY KEY, online INTEGER NOT NULL DEFAULT 0, status_at REAL,
    state TEXT, state_at REAL);
CREATE TABLE IF NOT EXISTS commands (
    id TEXT PRIMARY KEY, board TEXT NOT NULL, body TEXT NOT NULL, sent_at REAL NOT NULL,
    result TEXT, result_at REAL);
CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS match_rules (
    board TEXT NOT NULL, match_id INTEGER NOT NULL, rules TEXT NOT NULL, setup TEXT NOT NULL,
    PRIMARY KEY (board, match_id));
CREATE TABLE IF NOT EXISTS match_pairings (
    board TEXT NOT NULL, match_id INTEGER NOT NULL, pairing TEXT NOT NULL,
    PRIMARY KEY (board, match_id));
CREATE TABLE IF NOT EXISTS claims (
    board TEXT NOT NULL, match_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    black TEXT NOT NULL, white TEXT NOT NULL, winner TEXT,
    black_rounds INTEGER NOT NULL, white_rounds INTEGER NOT NULL,
    black_points INTEGER NOT NULL, white_points INTEGER NOT NULL,
    finished_at REAL NOT NULL, round INTEGER, tbl INTEGER, why TEXT NOT NULL, why_said TEXT,
    PRIMARY KEY (board, match_id));
CREATE TABLE IF NOT EXISTS decisions (
    id INTEGER PRIMARY KEY, at REAL NOT NULL, action TEXT NOT NULL, round INTEGER,
    tbl INTEGER, board TEXT, match_id INTEGER, reason TEXT NOT NULL, result TEXT);
CREATE TABLE IF NOT EXISTS field_changes (
    seq INTEGER PRIMARY KEY, at REAL NOT NULL, kind TEXT NOT NULL, player TEXT,
    round INTEGER, words TEXT NOT NULL, reason TEXT NOT NULL, said TEXT);
CREATE TABLE IF NOT EXISTS refusals (
    board TEXT PRIMARY KEY, count INTEGER NOT NULL, reason TEXT NOT NULL, at REAL NOT NULL);
"""


ADDED_COLUMNS = (("field_changes", "said", "TEXT"), ("claims", "why_said", "TEXT"),
                 ("boards", "version", "TEXT"))
"""Columns added after a hub's file was first made: a file from an older hub gets them (its
rows hold NULL there) when it is opened."""


def add_columns(db: sqlite3.Connection) -> None:
    for table, column, kind in ADDED_COLUMNS:
        known = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        if column not in known:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")


class HubStoreError(Refusal):
    """The hub's file cannot be used, or a change breaks the tournament's own rules."""


def no_table(table: int, round_number: int) -> Sentence:
    return Sentence(MARK.gettext("no table {table} in tournament round {round}"), table=table,
                    round=round_number)


def dump_json(value: Any) -> str:
    """Compact JSON with sorted keys, as every JSON column of the hub's file holds it (never
    NaN: SQLite's JSON functions would call the row malformed)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True, allow_nan=False)


def load_json(text: str | None, default: Any = None) -> Any:
    """A JSON column read back through the one strict decoder; ``default`` for a row an
    older hub stored without checking it (NaN, a lone surrogate), which would otherwise
    break every answer that shows it."""
    if text is None:
        return default
    try:
        return decode_json(text, "row")
    except MalformedEventError:
        return default


class StoreBase:
    """The connection and its lock, transactions and the touched journal, shared by the
    store's parts. Every method is safe to call from any thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self._db = open_sqlite(path, SCHEMA)
            add_columns(self._db)
        except sqlite3.DatabaseError as exc:
            raise HubStoreError(f"cannot open the hub's file {path}: {exc}") from exc
        self._touched = Journal()
        self.commits = 0
        """Transactions committed so far (the MQTT side batches; tests count them)."""

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One change, whole or not at all: its own transaction, or a savepoint inside a
        :meth:`batch` (then the batch's commit makes it durable)."""
        with self._lock:
            if self._db.in_transaction:
                self._db.execute("SAVEPOINT change")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK TO change")
                    self._db.execute("RELEASE change")
                    raise
                self._db.execute("RELEASE change")
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # a failed COMMIT (disk full) leaves it open
                    self._db.execute("ROLLBACK")
                raise
            self.commits += 1

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Every change inside is committed at once, when the block ends (one fsync for a
        burst of messages); an exception rolls all of them back. Other threads wait for
        the store meanwhile, so nobody reads what is not yet committed."""
        with self._tx():
            yield

    def take_touched(self) -> Touched:
        """What changed since the last call (everything, the first time)."""
        with self._lock:
            j = self._touched
            self._touched = Journal(all_boards=False, tournament=False)
            return Touched(frozenset(j.boards), j.all_boards, j.tournament)

    def touch_again(self, touched: Touched) -> None:
        """Put back what a refresh took but could not rebuild, for the next one."""
        with self._lock:
            self._touch(*touched.boards, tournament=touched.tournament,
                        all_boards=touched.all_boards)

    def _touch(self, *boards: str | None, tournament: bool = False,
               all_boards: bool = False) -> None:
        self._touched.boards.update(b for b in boards if b is not None)
        self._touched.tournament |= tournament
        self._touched.all_boards |= all_boards

    def _current_match(self, db: sqlite3.Connection, board: str) -> Any:
        row = db.execute("SELECT state FROM boards WHERE board = ?", (board,)).fetchone()
        state = load_json(row[0]) if row is not None else None
        return state.get("match_id") if isinstance(state, dict) else None

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()
