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
``events.sum``. A version-1 log is migrated on its first open: the checksums are computed from
the rows as they are then (they cannot be checked retroactively) in one transaction. A later
version adds its own tables or columns in :data:`MIGRATIONS` the same way.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from scorekeeper.checks import decode_json
from scorekeeper.errors import MalformedEventError

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

SCHEMA_VERSION = 2
"""``PRAGMA user_version`` of a log this code writes (see the module docstring)."""


def _add_checksums(db: sqlite3.Connection) -> None:
    db.execute("ALTER TABLE events ADD COLUMN sum TEXT")
    rows = db.execute("SELECT match_id, seq, at, source, body FROM events").fetchall()
    db.executemany(
        "UPDATE events SET sum = ? WHERE match_id = ? AND seq = ?",
        [(row_sum(*r), r[0], r[1]) for r in rows],
    )


MIGRATIONS = {2: _add_checksums}
"""Version reached -> the step that brings a log of the version before it there."""


def row_sum(match_id: int, seq: int, at: float, source: str, body: str) -> str:
    """The checksum kept with a stored step: any changed field (a score digit) shows.

    CRC-32 guards against damage and hand edits, not against someone who recomputes it; it
    is cheap enough to check every row of a 100,000-step log on each start (bench/README.md).
    """
    head = zlib.crc32(f"{match_id}|{seq}|{at!r}|{source}|".encode())
    return f"{zlib.crc32(body.encode('utf-8', 'surrogatepass'), head):08x}"

EXPORT_FORMAT = 1

BULK_ROWS = 4096
"""Rows fetched per round trip when a whole log is read as text."""


class StoreError(Exception):
    """The log file cannot be used (corrupt, wrong format, unknown match)."""


class StoreUnwritable(StoreError):
    """A write did not reach the disk (full, read-only, I/O error); nothing of it was kept.

    The message is ``match log cannot be written: <reason>``, for the pages and HTTP 503.
    """


def _unwritable(exc: Exception) -> StoreUnwritable:
    return StoreUnwritable(f"match log cannot be written: {exc}")


def _damaged(path: Path, what: str) -> StoreError:
    return StoreError(
        f"match log {path} is damaged ({what}); it was left untouched: restore it from a "
        "backup, or move it aside to start a new log"
    )


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
        self.write_problem: str | None = None
        """Why the last write failed (``match log cannot be written: ...``), None when well."""
        memory = str(path) == ":memory:"
        if not memory and self.path.exists() and self.path.stat().st_size == 0:
            raise _damaged(self.path, "the file is empty (0 bytes) where a log was expected")
        if not memory and self.path.exists() and not os.access(self.path, os.W_OK):
            raise StoreError(f"match log cannot be written: {self.path} is read-only")
        try:
            self._db = open_sqlite(path, "")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"match log cannot be written: {self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise _damaged(self.path, str(exc).splitlines()[0][:120]) from exc
        try:
            self._check_and_migrate()
        except sqlite3.OperationalError as exc:
            self._db.close()
            raise StoreError(f"match log cannot be written: {self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise _damaged(self.path, str(exc)) from exc
        except StoreError:
            self._db.close()
            raise

    def _check_and_migrate(self) -> None:
        result = [r[0] for r in self._db.execute("PRAGMA integrity_check").fetchall()]
        if result != ["ok"]:
            raise _damaged(self.path, "SQLite integrity check: " + "; ".join(result[:3]))
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"match log {self.path} is of a newer version ({version}) than this "
                f"scorekeeper understands ({SCHEMA_VERSION}); update the scorekeeper"
            )
        has_events = self._db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'events'"
        ).fetchone()
        if version == SCHEMA_VERSION:
            return
        self._db.executescript(SCHEMA)
        with self._transaction():
            if not has_events:  # a new file: the current layout at once
                self._db.execute("ALTER TABLE events ADD COLUMN sum TEXT")
            else:  # an older log (version 0 and 1 are the original layout)
                for target in range(max(version, 1) + 1, SCHEMA_VERSION + 1):
                    MIGRATIONS[target](self._db)
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    def close(self) -> None:
        """Checkpoint the WAL into the ``.db`` (so a copy of it alone is whole) and close;
        safe to call twice."""
        # closed already, or the disk refuses: every step is committed in the WAL anyway
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()

    def recheck(self) -> str | None:
        """Try a small committed write when the last one failed; clears the problem when the
        disk takes writes again (space freed). Returns the problem still standing, if any."""
        if self.write_problem is None:
            return None
        try:
            with self._transaction():  # rewrites the header page: a real committed write
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            self.write_problem = str(_unwritable(exc))
            return self.write_problem
        self.write_problem = None
        return None

    @contextlib.contextmanager
    def read_only(self) -> Iterator[MatchStore]:
        """A second, read-only handle on the same file, for readers that must not wait on
        the writer (downloads, a shot's review): in WAL mode it sees the last commit and
        never waits for a write in progress. A ``:memory:`` store has no file to share: it
        is itself."""
        if str(self.path) == ":memory:":
            yield self
            return
        other = MatchStore.__new__(MatchStore)
        other.path, other.write_problem = self.path, None
        other._db = sqlite3.connect(  # noqa: SLF001 - its own connection, opened here
            f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False
        )
        try:
            yield other
        finally:
            other._db.close()  # noqa: SLF001

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
        try:
            cur = self._db.execute(
                "INSERT INTO matches (created_at, rules, setup, names, meta) "
                "VALUES (?, ?, ?, ?, ?)",
                (at, _dump(rules), _dump(setup), _dump(dict(names or {})),
                 _dump(dict(meta or {}))),
            )
        except sqlite3.OperationalError as exc:
            self.write_problem = str(_unwritable(exc))
            raise _unwritable(exc) from exc
        self.write_problem = None
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
        return self.append_many(match_id, [event], at=at, source=source,
                                timelines=[timeline])[0]

    def append_many(
        self, match_id: int, events: Iterable[Any], *, at: float, source: str = "manual",
        timelines: Sequence[Mapping[str, Any] | None] | None = None,
    ) -> list[int]:
        """Append several steps in ONE transaction (an amend's undo and its new shot): all
        are committed, or none (:class:`StoreUnwritable` when the disk refuses). ``timelines``
        gives each step's sensor timeline, or None, in the same order."""
        bodies = [_dump(e) for e in events]
        try:
            with self._transaction():
                row = self._db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE match_id = ?", (match_id,)
                ).fetchone()
                seqs = [int(row[0]) + i for i in range(1, len(bodies) + 1)]
                for i, (seq, body) in enumerate(zip(seqs, bodies, strict=True)):
                    self._insert(match_id, seq, at, source, body)
                    timeline = timelines[i] if timelines else None
                    if timeline is not None:
                        self._db.execute(
                            "INSERT INTO timelines (match_id, seq, version, body) "
                            "VALUES (?, ?, ?, ?)",
                            (match_id, seq, int(timeline.get("v", 1)), _dump(dict(timeline))),
                        )
        except sqlite3.OperationalError as exc:
            self.write_problem = str(_unwritable(exc))
            raise _unwritable(exc) from exc
        self.write_problem = None
        return seqs

    def _insert(self, match_id: int, seq: int, at: float, source: str, body: str) -> None:
        self._db.execute(
            "INSERT INTO events (match_id, seq, at, source, body, sum) VALUES (?,?,?,?,?,?)",
            (match_id, seq, at, source, body, row_sum(match_id, seq, at, source, body)),
        )

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
        with self._reading():
            rows = self._db.execute(
                "SELECT m.id, m.created_at, m.names, m.rules, COUNT(e.seq) FROM matches m "
                "LEFT JOIN events e ON e.match_id = m.id GROUP BY m.id ORDER BY m.id DESC"
            ).fetchall()
        return [
            {
                "id": r[0],
                "created_at": r[1],
                "names": self._decoded(r[2], f"the header of match {r[0]}"),
                "rules": self._decoded(r[3], f"the header of match {r[0]}"),
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
        with self._reading():
            head = self._db.execute(
                "SELECT id, created_at, rules, setup, names, meta FROM matches WHERE id = ?",
                (match_id,),
            ).fetchone()
        if head is None:
            raise StoreError(f"no match {match_id} in {self.path}")
        what = f"the header of match {match_id}"
        created = head[1]
        if not isinstance(created, (int, float)):
            raise _damaged(self.path, f"{what} has no valid time")
        return StoredMatch(
            id=head[0],
            created_at=created,
            rules=self._decoded(head[2], what),
            setup=self._decoded(head[3], what),
            names=self._decoded(head[4], what),
            meta=self._decoded(head[5], what),
            events=(),
        )

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """SQLite's own complaints about a read (undecodable text, a malformed page) mean a
        damaged file: one clear line, never a traceback."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise _damaged(self.path, str(exc).splitlines()[0][:120]) from exc

    def _decoded(self, text: Any, what: str) -> Any:
        """A stored JSON object; a field that is not one means the file was damaged."""
        try:
            value = json.loads(text) if isinstance(text, str) else None
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, dict):
            raise _damaged(self.path, f"{what} is not readable")
        return value

    def iter_events(self, match_id: int, after: int = 0) -> Iterator[StoredEvent]:
        """Events of ``match_id`` with ``seq > after``, in order (streamed, not all in memory)."""
        for seq, at, source, body in self.iter_rows(match_id, after):
            try:
                decoded = json.loads(body)
            except json.JSONDecodeError as exc:
                raise StoreError(f"match {match_id} event {seq} is not valid JSON: {exc}") from exc
            yield StoredEvent(seq=seq, at=at, source=source, body=decoded)

    def iter_bodies(self, match_id: int, after: int = 0) -> Iterator[str]:
        """The JSON text of each event of ``match_id`` with ``seq > after``, in order, not
        decoded (for :meth:`~scorekeeper.match.Match.replay_json`). Rows are fetched
        :data:`BULK_ROWS` at a time: far fewer round trips than one per row, bounded memory."""
        for row in self.iter_rows(match_id, after):
            yield row[3]

    def iter_rows(self, match_id: int, after: int = 0) -> Iterator[tuple[int, float, str, str]]:
        """``(seq, at, source, body text)`` for each event of ``match_id`` with
        ``seq > after``, in order: :meth:`iter_events` without decoding the bodies.
        Every row's checksum is verified: a row changed outside the scorekeeper is refused."""
        cur = self._db.execute(
            "SELECT seq, at, source, body, sum FROM events WHERE match_id = ? AND seq > ? "
            "ORDER BY seq",
            (match_id, after),
        )
        try:
            while rows := cur.fetchmany(BULK_ROWS):
                for seq, at, source, body, stored in rows:
                    if not isinstance(body, str) or stored != row_sum(
                        match_id, seq, at, source, body
                    ):
                        raise _damaged(
                            self.path, f"step {seq} of match {match_id} does not match its "
                            "checksum: it was changed outside the scorekeeper"
                        )
                    yield seq, at, source, body
        except sqlite3.DatabaseError as exc:
            raise _damaged(self.path, str(exc).splitlines()[0][:120]) from exc

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
            try:  # the parser every step takes: bounded depth, no NaN, no RecursionError
                obj = decode_json(line, f"line {number}")
            except MalformedEventError as exc:
                raise StoreError(str(exc)) from exc
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
            for e in events:
                self._insert(match_id, e.seq, e.at, e.source, _dump(e.body))
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
