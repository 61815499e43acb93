"""Replacing a file so that a reader, or a power cut, finds the old one or the new one whole,
never half of either: the text goes to a temporary file beside it, which then takes its name.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def replace_file(path: Path, text: str, *, mode: int | None = None, encoding: str = "utf-8",
                 owner: tuple[int, int] | None = None, sync: bool = False) -> None:
    """Write ``text`` as ``path`` atomically. ``mode``: the new file's permissions (else
    ``mkstemp``'s 0600); ``owner``: ``(uid, gid)`` to hand it to (a root command writing a
    service's file); ``sync``: on the disk before it takes the name. A failed write leaves
    the old file as it was and no temporary file behind."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding=encoding) as f:
            f.write(text)
            if sync:
                f.flush()
                os.fsync(f.fileno())
        if owner is not None:
            os.chown(tmp, *owner)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
