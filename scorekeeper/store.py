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
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

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
"""

EXPORT_FORMAT = 1

BULK_ROWS = 4096
"""Rows fetched per round trip when a whole log is read as text."""


class StoreError(Exception):
    """The log file cannot be used (corrupt, wrong format, unknown match)."""


@dataclass(frozen=True)
class StoredEvent:
    """One line of a match log."""

    seq: int
    """Position in the match's log, from 1."""
    at: float
    """Wall-clock time (seconds since the epoch) when it was recorded."""
    source: str
    """Who made it: ``sensor``, ``manual`` (tablet), ``button``, ``hub``..."""
    body: Mapping[str, Any]
    """The event as a scenario-format step object."""

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "source": self.source, "event": self.body}


@dataclass(frozen=True)
class StoredMatch:
    """A match as stored: its header and every event in order."""

    id: int
    created_at: float
    rules: Mapping[str, Any]
    setup: Mapping[str, Any]
    names: Mapping[str, str]
    meta: Mapping[str, Any]
    events: tuple[StoredEvent, ...]

    def header(self) -> dict[str, Any]:
        return {
            "format": EXPORT_FORMAT,
            "id": self.id,
            "created_at": self.created_at,
            "rules": self.rules,
            "setup": self.setup,
            "names": self.names,
            "meta": self.meta,
        }


def _as_json(value: Any) -> Any:
    to_json = getattr(value, "to_json", None)
    return to_json() if callable(to_json) else value


def _dump(value: Any) -> str:
    # Key order is kept as played: a shot's fields are described in the order they came.
    return json.dumps(_as_json(value), separators=(",", ":"))


def open_sqlite(path: str | Path, schema: str) -> sqlite3.Connection:
    """An autocommit connection to a durable file (WAL, ``synchronous=FULL``) with ``schema``.

    Every SQLite file of the program (match log, hub, MQTT outbox) opens this way, so each
    committed row survives a power cut. Raises ``sqlite3.DatabaseError`` for a file that is
    not a usable database; the caller names the file in its own error.
    """
    if str(path) != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.executescript(schema)
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


class MatchStore:
    """An SQLite file holding any number of matches.

    One writer at a time (the serving process); readers may open the same file.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db = open_sqlite(path, SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"cannot open match log {path}: {exc}") from exc

    def close(self) -> None:
        """Close the file; safe to call twice."""
        self._db.close()

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # Writing -------------------------------------------------------------------------

    def create_match(
        self,
        rules: Any,
        setup: Any,
        names: Mapping[str, str] | None = None,
        *,
        at: float,
        meta: Mapping[str, Any] | None = None,
    ) -> int:
        """Start a new match log and return its id. ``rules``/``setup`` are values or JSON."""
        cur = self._db.execute(
            "INSERT INTO matches (created_at, rules, setup, names, meta) VALUES (?, ?, ?, ?, ?)",
            (at, _dump(rules), _dump(setup), _dump(dict(names or {})), _dump(dict(meta or {}))),
        )
        return int(cur.lastrowid or 0)

    def append(
        self, match_id: int, event: Any, *, at: float, source: str = "manual",
        timeline: Mapping[str, Any] | None = None,
    ) -> int:
        """Append ``event`` (an event value or its step object) and return its ``seq``.

        ``timeline``: the shot's sensor timeline (JSON with its version ``v``), written in
        the same transaction, so a step and its timeline are on disk together or not at all.
        The row is committed before this returns.
        """
        body = _dump(event)
        with self._transaction():
            row = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE match_id = ?", (match_id,)
            ).fetchone()
            seq = int(row[0]) + 1
            self._db.execute(
                "INSERT INTO events (match_id, seq, at, source, body) VALUES (?, ?, ?, ?, ?)",
                (match_id, seq, at, source, body),
            )
            if timeline is not None:
                self._db.execute(
                    "INSERT INTO timelines (match_id, seq, version, body) VALUES (?, ?, ?, ?)",
                    (match_id, seq, int(timeline.get("v", 1)), _dump(dict(timeline))),
                )
        return seq

    def prune_timelines(self, before: float) -> int:
        """Delete the timelines of steps recorded before ``before`` (epoch seconds); the
        steps themselves stay. Returns how many were deleted."""
        with self._transaction():
            cur = self._db.execute(
                "DELETE FROM timelines WHERE EXISTS (SELECT 1 FROM events e WHERE "
                "e.match_id = timelines.match_id AND e.seq = timelines.seq AND e.at < ?)",
                (before,),
            )
        return int(cur.rowcount)

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    # Reading -------------------------------------------------------------------------

    def latest_match_id(self) -> int | None:
        """The most recently created match, or None for an empty file."""
        row = self._db.execute("SELECT MAX(id) FROM matches").fetchone()
        return None if row[0] is None else int(row[0])

    def list_matches(self) -> list[dict[str, Any]]:
        """Every match's header with its event count, newest first."""
        rows = self._db.execute(
            "SELECT m.id, m.created_at, m.names, m.rules, COUNT(e.seq) FROM matches m "
            "LEFT JOIN events e ON e.match_id = m.id GROUP BY m.id ORDER BY m.id DESC"
        ).fetchall()
        return [
            {
                "id": r[0],
                "created_at": r[1],
                "names": json.loads(r[2]),
                "rules": json.loads(r[3]),
                "events": r[4],
            }
            for r in rows
        ]

    def load(self, match_id: int) -> StoredMatch:
        """The match's header and all its events, in order."""
        head = self.load_header(match_id)
        return replace(head, events=tuple(self.iter_events(match_id)))

    def load_header(self, match_id: int) -> StoredMatch:
        """The match's header alone (``events`` is empty): what a replay from
        :meth:`iter_bodies` or :meth:`iter_rows` needs besides the events."""
        head = self._db.execute(
            "SELECT id, created_at, rules, setup, names, meta FROM matches WHERE id = ?",
            (match_id,),
        ).fetchone()
        if head is None:
            raise StoreError(f"no match {match_id} in {self.path}")
        return StoredMatch(
            id=head[0],
            created_at=head[1],
            rules=json.loads(head[2]),
            setup=json.loads(head[3]),
            names=json.loads(head[4]),
            meta=json.loads(head[5]),
            events=(),
        )

    def iter_events(self, match_id: int, after: int = 0) -> Iterator[StoredEvent]:
        """Events of ``match_id`` with ``seq > after``, in order (streamed, not all in memory)."""
        cur = self._db.execute(
            "SELECT seq, at, source, body FROM events WHERE match_id = ? AND seq > ? ORDER BY seq",
            (match_id, after),
        )
        for seq, at, source, body in cur:
            try:
                decoded = json.loads(body)
            except json.JSONDecodeError as exc:
                raise StoreError(f"match {match_id} event {seq} is not valid JSON: {exc}") from exc
            yield StoredEvent(seq=seq, at=at, source=source, body=decoded)

    def iter_bodies(self, match_id: int, after: int = 0) -> Iterator[str]:
        """The JSON text of each event of ``match_id`` with ``seq > after``, in order, not
        decoded (for :meth:`~scorekeeper.match.Match.replay_json`). Rows are fetched
        :data:`BULK_ROWS` at a time: far fewer round trips than one per row, bounded memory."""
        for rows in self._bulk("SELECT body", match_id, after):
            for (body,) in rows:
                yield body

    def iter_rows(self, match_id: int, after: int = 0) -> Iterator[tuple[int, float, str, str]]:
        """``(seq, at, source, body text)`` for each event of ``match_id`` with
        ``seq > after``, in order: :meth:`iter_events` without decoding the bodies."""
        for rows in self._bulk("SELECT seq, at, source, body", match_id, after):
            yield from rows

    def _bulk(self, select: str, match_id: int, after: int) -> Iterator[list[Any]]:
        cur = self._db.execute(
            f"{select} FROM events WHERE match_id = ? AND seq > ? ORDER BY seq",
            (match_id, after),
        )
        while rows := cur.fetchmany(BULK_ROWS):
            yield rows

    def timeline(self, match_id: int, seq: int) -> dict[str, Any] | None:
        """The sensor timeline stored with step ``seq``, or None (manual step, pruned)."""
        row = self._db.execute(
            "SELECT body FROM timelines WHERE match_id = ? AND seq = ?", (match_id, seq)
        ).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[0])
        except json.JSONDecodeError as exc:
            raise StoreError(f"match {match_id} step {seq}: timeline is not valid JSON") from exc
        return data if isinstance(data, dict) else None

    def timelines(self, match_id: int) -> dict[int, dict[str, Any]]:
        """Every stored timeline of ``match_id`` by step ``seq`` (for exports)."""
        rows = self._db.execute(
            "SELECT seq, body FROM timelines WHERE match_id = ? ORDER BY seq", (match_id,)
        ).fetchall()
        return {int(seq): json.loads(body) for seq, body in rows}

    def event_count(self, match_id: int) -> int:
        row = self._db.execute(
            "SELECT COUNT(*) FROM events WHERE match_id = ?", (match_id,)
        ).fetchone()
        return int(row[0])

    # Export / import -----------------------------------------------------------------

    def export_jsonl(self, match_id: int, out: IO[str]) -> int:
        """Write the match as JSON lines (a header line, then one line per event)."""
        stored = self.load(match_id)
        timelines = self.timelines(match_id)
        out.write(json.dumps({"match": stored.header()}) + "\n")
        for ev in stored.events:
            line = ev.to_json()
            if ev.seq in timelines:
                line["timeline"] = timelines[ev.seq]
            out.write(json.dumps(line) + "\n")
        return len(stored.events)

    def import_jsonl(self, lines: Iterable[str]) -> int:
        """Read an export back as a new match and return its id.

        The whole file is checked before anything is written, so a bad file adds nothing.
        """
        header: Mapping[str, Any] | None = None
        events: list[StoredEvent] = []
        timelines: dict[int, str] = {}
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise StoreError(f"line {number}: not JSON: {exc.msg}") from exc
            if header is None:
                if not isinstance(obj, dict) or not isinstance(obj.get("match"), dict):
                    raise StoreError(f"line {number}: expected the header {{\"match\": ...}}")
                header = obj["match"]
                fmt = header.get("format")
                if fmt != EXPORT_FORMAT:
                    raise StoreError(f"line {number}: unknown export format {fmt!r}")
                continue
            events.append(_parse_export_event(obj, number, expected_seq=len(events) + 1))
            if isinstance(obj.get("timeline"), dict):
                timelines[obj["seq"]] = _dump(obj["timeline"])
        if header is None:
            raise StoreError("empty file: no match header")
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO matches (created_at, rules, setup, names, meta) VALUES (?,?,?,?,?)",
                (
                    float(header.get("created_at", 0.0)),
                    _dump(header.get("rules", {})),
                    _dump(header.get("setup", {})),
                    _dump(header.get("names", {})),
                    _dump(header.get("meta", {})),
                ),
            )
            match_id = int(cur.lastrowid or 0)
            self._db.executemany(
                "INSERT INTO events (match_id, seq, at, source, body) VALUES (?, ?, ?, ?, ?)",
                [(match_id, e.seq, e.at, e.source, _dump(e.body)) for e in events],
            )
            self._db.executemany(
                "INSERT INTO timelines (match_id, seq, version, body) VALUES (?, ?, ?, ?)",
                [(match_id, seq, int(json.loads(body).get("v", 1)), body)
                 for seq, body in timelines.items()],
            )
        return match_id


def _parse_export_event(obj: Any, number: int, *, expected_seq: int) -> StoredEvent:
    if not isinstance(obj, dict):
        raise StoreError(f"line {number}: expected an object")
    for key, kind in (("seq", int), ("at", (int, float)), ("source", str), ("event", dict)):
        if not isinstance(obj.get(key), kind) or isinstance(obj.get(key), bool):
            raise StoreError(f"line {number}: key {key!r} missing or of the wrong type")
    if obj["seq"] != expected_seq:
        raise StoreError(f"line {number}: seq {obj['seq']} out of order, expected {expected_seq}")
    return StoredEvent(seq=obj["seq"], at=float(obj["at"]), source=obj["source"], body=obj["event"])


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on error (autocommit connection)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        if exc_type is None:
            self._db.execute("COMMIT")
        else:
            self._db.execute("ROLLBACK")
