"""Online backups of the hub's file: a whole copy in a second folder, now and then.

The tournament lives in one SQLite file on the hub's SD card; a card that dies at round 4
must not lose the event. :class:`Backups` copies the open file with SQLite's backup API (the
hub keeps running and storing; a copy never holds half of a change) into a second folder, ideally on
another medium (a USB stick), and keeps the newest ``keep`` copies there. :class:`BackupTimer`
takes one every ``every`` seconds and one as soon as a round is paired or has all its
results, so the copy after each round is never more than a few seconds behind it.

Each copy is written under a temporary name and renamed once whole and on disk, so a folder
never holds a half-written copy under a backup's name (a stick pulled out mid-copy leaves a
``.part`` file, which the next copy replaces). ``skitter hub restore`` brings a copy back
(:mod:`hub.restore`).
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from hub.store import HubStore
from hub.tournament import Tournament

log = logging.getLogger("skitter.hub.backup")

PREFIX = "hub-"
SUFFIX = ".db"
PART = ".part"


@dataclass(frozen=True)
class BackupPlan:
    """Where the copies go, how many are kept, and how often one is taken (seconds)."""

    folder: Path
    keep: int = 10
    every: float = 300.0

    def __post_init__(self) -> None:
        if self.keep < 1:
            raise ValueError(f"backups to keep must be at least 1, got {self.keep}")
        if self.every <= 0:
            raise ValueError(f"the time between backups must be positive, got {self.every}")


def backups_in(folder: Path) -> list[Path]:
    """The backups in ``folder``, oldest first (their names sort by the time taken)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir()
                  if p.name.startswith(PREFIX) and p.name.endswith(SUFFIX) and p.is_file())


def latest_backup(folder: Path) -> Path | None:
    """The newest backup in ``folder`` (what a standby hub starts from), if any."""
    found = backups_in(folder)
    return found[-1] if found else None


class Backups:
    """Takes copies of one hub's file into ``plan.folder`` and keeps the newest ``plan.keep``."""

    def __init__(self, store: HubStore, plan: BackupPlan,
                 wall: Callable[[], float] = time.time) -> None:
        self.store = store
        self.plan = plan
        self._wall = wall
        self._lock = threading.Lock()
        self.failure: str | None = None
        """Why the last copy failed (the stick is full or gone), None after a good one."""

    def take(self, why: str) -> Path:
        """Copy the file now; ``why`` (``"round-3"``, ``"timer"``) ends the copy's name.
        Raises ``OSError`` or ``sqlite3.Error`` when the folder cannot take it."""
        with self._lock:
            folder = self.plan.folder
            folder.mkdir(parents=True, exist_ok=True)
            stamp = datetime.fromtimestamp(self._wall(), UTC).strftime("%Y%m%dT%H%M%S.%fZ")
            target = folder / f"{PREFIX}{stamp}-{why}{SUFFIX}"
            part = folder / (target.name + PART)
            part.unlink(missing_ok=True)
            copy_database(self.store.path, part)
            with part.open("rb") as f:
                os.fsync(f.fileno())
            part.replace(target)
            _sync_folder(folder)
            for old in backups_in(folder)[:-self.plan.keep]:
                old.unlink(missing_ok=True)
            return target

    def try_take(self, why: str) -> Path | None:
        """:meth:`take`, but a failure is logged and kept in :attr:`failure`, never raised:
        the tournament goes on when the stick is pulled out."""
        try:
            path = self.take(why)
        except Exception as exc:  # noqa: BLE001 - OSError, sqlite3.Error: the copy, not the hub
            if self.failure is None:
                log.warning("cannot back up the hub's file to %s: %s", self.plan.folder, exc)
            self.failure = str(exc)
            return None
        if self.failure is not None:
            log.warning("backups to %s work again", self.plan.folder)
        self.failure = None
        return path


def copy_database(source: Path, target: Path) -> None:
    """Copy the SQLite file ``source`` into the new file ``target`` with SQLite's backup API.

    The copy reads through a connection of its own, in one read transaction: in WAL mode a
    reader never blocks the hub's writes, and sees only whole, committed changes, so the
    hub stores the boards' messages on while a large file is copied to a slow stick. The
    copy is one self-contained file (no ``-wal`` or ``-shm`` beside it)."""
    reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        copy = sqlite3.connect(str(target))
        try:
            reader.backup(copy)
            copy.execute("PRAGMA journal_mode=DELETE")
        finally:
            copy.close()
    finally:
        reader.close()


def _sync_folder(folder: Path) -> None:
    """The rename is on disk too (a folder's entry is data of its own)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


class BackupTimer:
    """A thread taking a backup every ``plan.every`` seconds, and one whenever ``progress()``
    changes (rounds paired and rounds with every result: see :func:`round_progress`).

    ``check`` is how often it looks at the progress, in seconds."""

    def __init__(self, backups: Backups, progress: Callable[[], tuple[int, int]],
                 check: float = 2.0, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.backups = backups
        self._progress = progress
        self._check = check
        self._monotonic = monotonic
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="skitter-hub-backup",
                                        daemon=True)
        self.taken: list[Path] = []
        """Every copy this timer took, in order."""

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    def _run(self) -> None:
        seen = self._progress()
        self._take("start")
        due = self._monotonic() + self.backups.plan.every
        while not self._stop.wait(min(self._check, self.backups.plan.every)):
            now = self._progress()
            if now != seen:
                seen = now
                self._take(f"round-{now[1]}-of-{now[0]}")
                due = self._monotonic() + self.backups.plan.every
            elif self._monotonic() >= due:
                self._take("timer")
                due = self._monotonic() + self.backups.plan.every

    def _take(self, why: str) -> None:
        path = self.backups.try_take(why)
        if path is not None:
            self.taken.append(path)


def round_progress(tournament: Tournament) -> tuple[int, int]:
    """(rounds paired, rounds whose every game has a result): a change to either is a moment
    worth a copy."""
    rounds = [number for number, _ in tournament.store.round_numbers()]
    return len(rounds), sum(1 for number in rounds if not tournament.round_open(number))
