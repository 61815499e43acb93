"""One ``skitter serve`` per data folder: a lock file holding the server's process id.

The lock is the kernel's (``flock`` on ``skitter.lock`` in the data folder), so it is released
when the process ends, however it ends: a lock file left by a crash names a process that no
longer holds it, and the next server takes it over. The process id written in the file is only
what the refusal names; the kernel's lock decides.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

LOCK_FILE_NAME = "skitter.lock"


class FolderInUse(Exception):
    """Another process holds the data folder; ``pid`` is the one its lock file names
    (None when it wrote none yet)."""

    def __init__(self, folder: Path, pid: int | None) -> None:
        super().__init__(folder, pid)
        self.folder = folder
        self.pid = pid


class FolderLock:
    """Holds the data folder ``folder`` from :meth:`acquire` until :meth:`release`."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / LOCK_FILE_NAME
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the folder, writing this process's id into the lock file.

        Raises :class:`FolderInUse` when another process holds it, and ``OSError`` when the
        folder cannot be made or written.
        """
        self.path.parent.mkdir(parents=True, exist_ok=True)
        file = open(self.path, "a+", encoding="utf-8")  # noqa: SIM115 - held until release
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            file.seek(0)
            text = file.read().strip()
            file.close()
            raise FolderInUse(self.path.parent, int(text) if text.isdigit() else None) from None
        file.seek(0)
        file.truncate()
        file.write(f"{os.getpid()}\n")
        file.flush()
        self._file = file

    def release(self) -> None:
        """Let the folder go: the lock file is emptied (it names no one) and unlocked."""
        if self._file is None:
            return
        self._file.seek(0)
        self._file.truncate()
        self._file.flush()
        fcntl.flock(self._file, fcntl.LOCK_UN)
        self._file.close()
        self._file = None
