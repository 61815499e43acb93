"""The match log's tables, their version, the migrations and the checksum of a step.

What a log file holds and how an older one is brought up to date: kept apart from the code
that reads and writes it, so a new version is one table here and one step in
:data:`MIGRATIONS`.
"""

from __future__ import annotations

import sqlite3
import zlib

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at REAL NOT NULL,
    rules TEXT NOT NULL,
    setup TEXT NOT NULL,
    names TEXT NOT NULL,
    meta TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    at REAL NOT NULL,
    source TEXT NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);
CREATE TABLE IF NOT EXISTS timelines (
    match_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    version INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (match_id, seq),
    FOREIGN KEY (match_id, seq) REFERENCES events(match_id, seq)
);
CREATE TABLE IF NOT EXISTS resumes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    at REAL NOT NULL,
    newest INTEGER NOT NULL
);
"""

SCHEMA_VERSION = 3
"""``PRAGMA user_version`` of a log this code writes (see the module docstring)."""


def _add_checksums(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE events ADD COLUMN sum TEXT")
    rows = db.execute("SELECT match_id, seq, at, source, body FROM events").fetchall()
    db.executemany(
        "UPDATE events SET sum = ? WHERE match_id = ? AND seq = ?",
        [(row_sum(*r), r[0], r[1]) for r in rows],
    )


def _nothing_to_convert(db: sqlite3.Connection) -> None:
    """Version 3 adds the ``resumes`` table (a replaced match taken up again), which the
    schema script creates; no row changes."""


MIGRATIONS = {2: _add_checksums, 3: _nothing_to_convert}
"""Version reached -> the step that brings a log of the version before it there."""


def row_sum(match_id: int, seq: int, at: float, source: str, body: str) -> str:
    """The checksum kept with a stored step: any changed field (a score digit) shows.

    CRC-32 guards against damage and hand edits, not against someone who recomputes it; it
    is cheap enough to check every row of a 100,000-step log on each start (bench/README.md).
    """
    head = zlib.crc32(f"{match_id}|{seq}|{at!r}|{source}|".encode())
    return f"{zlib.crc32(body.encode('utf-8', 'surrogatepass'), head):08x}"
