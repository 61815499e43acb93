"""Will the match log survive a power cut? Not when its folder lives in RAM.

Raspberry Pi OS's "overlay file system" (raspi-config, for a read-only SD card) mounts ``/``
as an overlay whose writable upper layer is a tmpfs: everything written under
``/var/lib/skitter`` then vanishes at the next power cut, the whole match log with it. A data
folder on a plain tmpfs or ramfs is the same. This module finds the file system that holds a
path in ``/proc/self/mountinfo`` and says so in one sentence.

An overlay whose upper layer is on a disk (a container's root, for instance) keeps what is
written, so it is not flagged; nor is one whose upper layer this process cannot see.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

MOUNTINFO = Path("/proc/self/mountinfo")
IN_RAM = frozenset({"tmpfs", "ramfs"})


@dataclass(frozen=True)
class Mount:
    point: str
    fstype: str
    options: tuple[str, ...]
    """The file system's own (super block) options, e.g. ``upperdir=...`` of an overlay."""


def parse_mountinfo(text: str) -> list[Mount]:
    """The mounts of a ``/proc/<pid>/mountinfo`` text, in order (a later one hides an earlier
    one at the same point)."""
    mounts = []
    for line in text.splitlines():
        fields = line.split()
        if "-" not in fields or len(fields) < 5:
            continue
        dash = fields.index("-")
        if len(fields) < dash + 3:
            continue
        point = _unescape(fields[4])
        options = tuple(fields[dash + 3].split(",")) if len(fields) > dash + 3 else ()
        mounts.append(Mount(point, fields[dash + 1], options))
    return mounts


def mount_of(path: str, mounts: list[Mount]) -> Mount | None:
    """The mount that holds ``path`` (absolute, resolved)."""
    best: Mount | None = None
    for mount in mounts:
        point = mount.point.rstrip("/") or "/"
        inside = point == "/" or path == point or path.startswith(point + "/")
        if inside and (best is None or len(point) >= len(best.point.rstrip("/") or "/")):
            best = mount
    return best


def volatile_reason(path: str | Path, mountinfo: str | None = None) -> str | None:
    """Why what is written at ``path`` would not survive a power cut, or None.

    ``mountinfo``: the text of ``/proc/self/mountinfo`` (read when None; None is returned
    where there is none, off Linux)."""
    if mountinfo is None:
        try:
            mountinfo = MOUNTINFO.read_text()
        except OSError:
            return None
    mounts = parse_mountinfo(mountinfo)
    where = str(Path(path).resolve())
    mount = mount_of(where, mounts)
    if mount is None:
        return None
    if mount.fstype in IN_RAM:
        return f"{where} is on a {mount.fstype} in RAM (mounted at {mount.point})"
    if mount.fstype == "overlay":
        upper = next((o[len("upperdir="):] for o in mount.options
                      if o.startswith("upperdir=")), None)
        below = mount_of(upper, mounts) if upper else None
        if below is not None and below.fstype in IN_RAM and below.point != mount.point:
            return (f"{where} is on an overlay file system (mounted at {mount.point}) whose "
                    f"writable layer is a {below.fstype} in RAM")
    return None


def _unescape(field: str) -> str:
    """mountinfo writes space, tab, newline and backslash as octal escapes."""
    for code, char in (("\\040", " "), ("\\011", "\t"), ("\\012", "\n"), ("\\134", "\\")):
        field = field.replace(code, char)
    return field
