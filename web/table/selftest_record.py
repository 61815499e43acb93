"""The board's last self-test, kept beside the match log.

``skitter selftest`` and the referee page's self-test both end by writing their check sheet
here (``selftest.json``, replaced whole, never half-written), so ``skitter serve`` can show it
and send it to the tournament hub, whichever of them ran it. It is kept as made, in English,
with each row's data (its kind, key, result key and count): :func:`worded` words it again in
the reader's language. A sheet kept before rows carried their data shows as it was written.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from firmware_bridge.files import replace_file
from firmware_bridge.selftest import Sheet
from firmware_bridge.selftest_words import (
    RowKind,
    expander_part,
    item_words,
    outcome_words,
    part_words,
    summary_words,
    verdict_words,
)
from scorekeeper.words import ENGLISH, Words
from tournament_wire import selftest_wire

FILE = "selftest.json"
MAX_BYTES = 256 * 1024
"""A file larger than this is not ours (a sheet of 128 cells is ~15 kB)."""


def path_in(directory: Path) -> Path:
    return directory / FILE


def save(directory: Path, sheet: Sheet) -> Path:
    """Write ``sheet`` as the board's last self-test (atomically)."""
    directory.mkdir(parents=True, exist_ok=True)
    target = path_in(directory)
    replace_file(target, json.dumps(sheet.to_json(), ensure_ascii=False, indent=1), sync=True)
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
            "failed": [f[:80] for f in failed[:selftest_wire.MAX_FAILED]],
            "failed_count": len(failed)}


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _row_in(row: dict[str, Any], t: Words) -> dict[str, Any]:
    kind = row.get("kind")
    if kind not in tuple(RowKind):
        return row  # kept before rows carried their data: as it was written
    step = str(row.get("step") or "")
    part = part_words(step, t) if step else (
        expander_part(t) if kind == RowKind.EXPANDER else row.get("part", ""))
    return {**row, "item": item_words(kind, str(row.get("label", "")), t), "part": part,
            "result": outcome_words(kind, str(row.get("code", "")), _count(row.get("count")), t)}


def worded(sheet: dict[str, Any], t: Words = ENGLISH) -> dict[str, Any]:
    """A kept sheet (:func:`load`) in the language ``t``: each row's item, part and result,
    the ``summary`` and the ``verdict`` (the sheet's heading), made from its data."""
    rows = [r for r in sheet.get("rows") or [] if isinstance(r, dict)]
    passed = bool(sheet.get("passed"))
    failed = sum(1 for r in rows if not r.get("passed"))
    return {**sheet, "rows": [_row_in(r, t) for r in rows],
            "summary": summary_words(passed, failed, len(rows), t),
            "verdict": verdict_words(passed, failed, len(rows), t)}
