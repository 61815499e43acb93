"""Bringing a backup of the hub's file back (``skitter hub restore FILE``), once checked.

A copy is brought back only when SQLite finds it whole (``PRAGMA integrity_check``) and it is
a hub's file: every table and column of the hub's schema is there (a file from an older hub
may lack the columns added since, which the hub adds when it opens it). The file it replaces
is never deleted: it is renamed beside itself, ``hub.db.replaced-<time>``, with its ``-wal``
and ``-shm`` files, so a restore from the wrong copy can be undone.

Run it with the hub stopped. The restored hub resumes: the boards it hears from send again
whatever events and results it lacks (see ``hub.link``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from hub.store.connection import ADDED_COLUMNS, SCHEMA

SIDE_FILES = ("-wal", "-shm")


class RestoreError(Exception):
    """The file cannot be brought back; the message names the file and what is wrong."""


@dataclass(frozen=True)
class BackupFacts:
    """What a checked copy holds, told to the organiser before it replaces anything."""

    players: int
    rounds: int
    games: int
    events: int


def hub_columns() -> dict[str, set[str]]:
    """Every table of the hub's schema and the columns a file must have in it."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(SCHEMA)
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        columns = {t: {r[1] for r in db.execute(f"PRAGMA table_info({t})")} for t in tables}
    finally:
        db.close()
    for table, column, _ in ADDED_COLUMNS:
        columns[table].discard(column)
    return columns


def check_backup(path: Path) -> BackupFacts:
    """The facts of the hub's file at ``path``; :class:`RestoreError` when it is missing, not
    SQLite, damaged, or not a hub's file."""
    if not path.is_file():
        raise RestoreError(f"{path}: no such file")
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise RestoreError(f"{path}: cannot be opened: {exc}") from exc
    try:
        try:
            problems = [r[0] for r in db.execute("PRAGMA integrity_check")]
        except sqlite3.DatabaseError as exc:
            raise RestoreError(f"{path} is not a usable SQLite file: {exc}") from exc
        if problems != ["ok"]:
            raise RestoreError(f"{path} is damaged (SQLite's integrity check: "
                               f"{'; '.join(problems[:3])})")
        for table, wanted in hub_columns().items():
            have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
            if not have:
                raise RestoreError(f"{path} is not a skitter hub's file: it has no table "
                                   f"'{table}'")
            missing = sorted(wanted - have)
            if missing:
                raise RestoreError(f"{path} is not a skitter hub's file: its table '{table}' "
                                   f"lacks {', '.join(missing)}")

        def count(table: str) -> int:
            return int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])

        return BackupFacts(count("players"), count("rounds"), count("games"), count("events"))
    finally:
        db.close()


def restore(backup: Path, db: Path, wall: Callable[[], float]) -> tuple[BackupFacts, Path | None]:
    """Check ``backup`` and make it the hub's file ``db``; the facts of what was brought back
    and where the file it replaced was kept (None when there was none)."""
    facts = check_backup(backup)
    db.parent.mkdir(parents=True, exist_ok=True)
    part = db.with_name(db.name + ".restoring")
    part.unlink(missing_ok=True)
    source = sqlite3.connect(f"{backup.resolve().as_uri()}?mode=ro", uri=True)
    try:
        target = sqlite3.connect(str(part))
        try:
            source.backup(target)
        finally:
            target.close()
    except sqlite3.Error as exc:
        part.unlink(missing_ok=True)
        raise RestoreError(f"cannot copy {backup} to {db}: {exc}") from exc
    finally:
        source.close()
    kept = None
    if db.exists():
        stamp = datetime.fromtimestamp(wall(), UTC).strftime("%Y%m%dT%H%M%SZ")
        kept = db.with_name(f"{db.name}.replaced-{stamp}")
        for side in SIDE_FILES:
            old = db.with_name(db.name + side)
            if old.exists():
                old.replace(kept.with_name(kept.name + side))
        db.replace(kept)
    else:
        for side in SIDE_FILES:  # left behind by a file deleted without them
            db.with_name(db.name + side).unlink(missing_ok=True)
    part.replace(db)
    return facts, kept
