"""The board's last self-test, kept beside the match log.

``skitter selftest`` and the referee page's self-test both end by writing their check sheet
here (``selftest.json``, replaced whole, never half-written), so ``skitter serve`` can show it
and send it to the tournament hub, whichever of them ran it.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from firmware_bridge.selftest import Sheet

FILE = "selftest.json"
MAX_BYTES = 256 * 1024
"""A file larger than this is not ours (a sheet of 128 cells is ~15 kB)."""


def path_in(directory: Path) -> Path:
    return directory / FILE


def save(directory: Path, sheet: Sheet) -> Path:
    """Write ``sheet`` as the board's last self-test (atomically)."""
    directory.mkdir(parents=True, exist_ok=True)
    target = path_in(directory)
    fd, tmp = tempfile.mkstemp(prefix=".selftest-", suffix=".json", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(sheet.to_json(), f, ensure_ascii=False, indent=1)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def load(directory: Path) -> dict[str, Any] | None:
    """The last self-test's sheet as saved, or None (none yet, or a file that is not one)."""
    target = path_in(directory)
    try:
        if target.stat().st_size > MAX_BYTES:
            return None
        data = json.loads(target.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("passed"), bool):
        return None
    return data


def summary(sheet: dict[str, Any]) -> dict[str, Any]:
    """What the hub is told of a self-test: when, whether it passed, what failed (at most
    a few rows, so the message stays small)."""
    rows = sheet.get("rows") if isinstance(sheet.get("rows"), list) else []
    failed = [f"{r.get('item')}: {r.get('result')}" for r in rows
              if isinstance(r, dict) and not r.get("passed")]
    return {"date": str(sheet.get("date", ""))[:40], "passed": bool(sheet.get("passed")),
            "summary": str(sheet.get("summary", ""))[:120],
            "failed": [f[:80] for f in failed[:8]], "failed_count": len(failed)}
