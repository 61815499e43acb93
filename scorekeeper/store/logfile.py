"""Opening a match log: durable SQLite, the integrity check, migrations, errors, transactions.

Everything the parts of the store share: the connection (``_db``), refusing a damaged or
unwritable file with one clear line, the transaction every write runs in, and the guards
every read runs behind. The parts (``writing``, ``reading``, ``timelines``, ``export``) build
on :class:`LogFile`; :class:`~scorekeeper.store.MatchStore` joins them.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Self

from scorekeeper.errors import Why
from scorekeeper.store.schema import MIGRATIONS, SCHEMA, SCHEMA_VERSION


class StoreError(Exception):
    """The log file cannot be used (corrupt, wrong format, unknown match).

    A stored match the rules refuse also carries ``why`` (what to tell, as data) and the
    match's ``names``, so the referee reads it in the players' names and their own language
    (:func:`scorekeeper.words.refusal`); the message stays the English for the log."""

    def __init__(self, message: str, *, why: Why | None = None,
                 names: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.why = why
        self.names: dict[str, str] = dict(names or {})


class StoreUnwritable(StoreError):
    """A write did not reach the disk (full, read-only, I/O error); nothing of it was kept.

    The message is ``match log cannot be written: <reason>``, for the pages and HTTP 503.
    """


def unwritable(exc: Exception) -> StoreUnwritable:
    return StoreUnwritable(f"match log cannot be written: {exc}")


def damaged(path: Path, what: str) -> StoreError:
    return StoreError(
        f"match log {path} is damaged ({what}); it was left untouched: restore it from a "
        "backup, or move it aside to start a new log"
    )


def _as_json(value: Any) -> Any:
    to_json = getattr(value, "to_json", None)
    return to_json() if callable(to_json) else value


def dump_json(value: Any) -> str:
    """A value (or its ``to_json()``) as the compact JSON text the log stores."""
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


Connect = Callable[[str | Path, str], sqlite3.Connection]
"""Opens a store's connection: ``connect(path, schema)``, as :func:`open_sqlite` does."""


class LogFile:
    """An open match log: one writer at a time (the serving process); readers may open the
    same file.

    ``connect`` opens the connection every read and write goes through (:func:`open_sqlite`).
    It is the one way in for a faulty disk: a full, failing or frozen card cannot be made
    without root, so the fault tests pass a ``connect`` that wraps the connection and makes
    its writes fail or wait. The :meth:`read_only` handle is opened apart from it.
    """

    def __init__(self, path: str | Path, *, connect: Connect = open_sqlite) -> None:
        self.path = Path(path)
        self.write_problem: str | None = None
        """Why the last write failed (``match log cannot be written: ...``), None when well."""
        memory = str(path) == ":memory:"
        if not memory and self.path.exists() and self.path.stat().st_size == 0:
            raise damaged(self.path, "the file is empty (0 bytes) where a log was expected")
        if not memory and self.path.exists() and not os.access(self.path, os.W_OK):
            raise StoreError(f"match log cannot be written: {self.path} is read-only")
        try:
            self._db = connect(path, "")
        except sqlite3.OperationalError as exc:
            raise StoreError(f"match log cannot be written: {self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, str(exc).splitlines()[0][:120]) from exc
        try:
            self._check_and_migrate()
        except sqlite3.OperationalError as exc:
            self._db.close()
            raise StoreError(f"match log cannot be written: {self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise damaged(self.path, str(exc)) from exc
        except StoreError:
            self._db.close()
            raise
        self._identity = _identities(self.path)
        """The device and inode of the log and its write-ahead file as opened: a path that
        no longer leads to them means the file was deleted (or replaced) under the open
        connection, which would then go on committing steps that no restart finds."""

    def file_problem(self) -> str | None:
        """``match log cannot be written: ...`` when the log's file (or its write-ahead file)
        was deleted or replaced since it was opened; None when it is the same file."""
        if str(self.path) == ":memory:":
            return None
        now = _identities(self.path)
        for name, was in self._identity.items():
            if was is None:  # the write-ahead file appears with the first write
                self._identity[name] = now[name]
                continue
            if now[name] != was:
                gone = "deleted" if now[name] is None else "replaced by another file"
                return (f"match log cannot be written: {self.path}{name} was {gone} while in "
                        "use, so steps would be lost at the next start; restore it from a "
                        "backup and restart the scorekeeper")
        return None

    def _check_file(self) -> None:
        """Refuse a write (and keep saying why) once the file is not the one opened."""
        problem = self.file_problem()
        if problem is not None:
            self.write_problem = problem
            raise StoreUnwritable(problem)

    def _check_and_migrate(self) -> None:
        result = [r[0] for r in self._db.execute("PRAGMA integrity_check").fetchall()]
        if result != ["ok"]:
            raise damaged(self.path, "SQLite integrity check: " + "; ".join(result[:3]))
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
        gone = self.file_problem()
        if gone is not None:
            self.write_problem = gone
            return gone
        if self.write_problem is None:
            return None
        try:
            with self._transaction():  # rewrites the header page: a real committed write
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            self.write_problem = str(unwritable(exc))
            return self.write_problem
        self.write_problem = None
        return None

    @contextlib.contextmanager
    def read_only(self) -> Iterator[Self]:
        """A second, read-only handle on the same file, for readers that must not wait on
        the writer (downloads, a shot's review): in WAL mode it sees the last commit and
        never waits for a write in progress. A ``:memory:`` store has no file to share: it
        is itself."""
        if str(self.path) == ":memory:":
            yield self
            return
        other = type(self).__new__(type(self))
        other.path, other.write_problem = self.path, None
        other._identity = self._identity  # noqa: SLF001 - the same file
        other._db = sqlite3.connect(  # noqa: SLF001 - its own connection, opened here
            f"{self.path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False
        )
        try:
            yield other
        finally:
            other._db.close()  # noqa: SLF001

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)

    @contextlib.contextmanager
    def _reading(self) -> Iterator[None]:
        """SQLite's own complaints about a read (undecodable text, a malformed page) mean a
        damaged file: one clear line, never a traceback."""
        try:
            yield
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, str(exc).splitlines()[0][:120]) from exc

    def _decoded(self, text: Any, what: str) -> Any:
        """A stored JSON object; a field that is not one means the file was damaged."""
        try:
            value = json.loads(text) if isinstance(text, str) else None
        except json.JSONDecodeError:
            value = None
        if not isinstance(value, dict):
            raise damaged(self.path, f"{what} is not readable")
        return value


def _identities(path: Path) -> dict[str, tuple[int, int] | None]:
    """``(device, inode)`` of the log and of its ``-wal`` file, None for one not there."""
    out: dict[str, tuple[int, int] | None] = {}
    for name in ("", "-wal"):
        try:
            st = os.stat(f"{path}{name}")
        except OSError:
            out[name] = None
        else:
            out[name] = (st.st_dev, st.st_ino)
    return out


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
