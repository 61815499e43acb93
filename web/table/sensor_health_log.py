"""What the board's sensor health said during each match, kept for the sensor audit.

Flags (stuck, jittery) and I2C errors live only in the running process; the audit across
matches needs them afterwards. :class:`HealthLog` sees every published snapshot (it is one of
the table's publishers, see ``web.table.wiring``) and notes, per match, each cell's flag
kinds and the I2C errors counted while the match was on, in ``sensor-health.json`` beside
the match log. It writes only when something new was noted, so a snapshot costs a
comparison; the file keeps the newest ``KEEP`` matches.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from firmware_bridge.files import replace_file

log = logging.getLogger(__name__)

FILE = "sensor-health.json"
KEEP = 200
MAX_BYTES = 2 * 1024 * 1024


def load(directory: Path) -> dict[str, dict[str, Any]]:
    """Match id (as text) → ``{"flags": {cell: [kinds]}, "i2c_errors": n}``; {} if none."""
    path = directory / FILE
    try:
        if path.stat().st_size > MAX_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


class HealthLog:
    """Notes each match's sensor flags and I2C errors from the snapshots published."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._lock = threading.Lock()
        self._matches = load(directory)
        self._errors_seen: int | None = None

    def observe(self, snapshot: Mapping[str, Any]) -> None:
        """A snapshot was published: note what is new (never raises)."""
        try:
            self._observe(snapshot)
        except Exception:  # noqa: BLE001 - the audit must never disturb publishing
            log.exception("sensor health log")

    def _observe(self, snapshot: Mapping[str, Any]) -> None:
        match_id = snapshot.get("match_id")
        if not isinstance(match_id, int):
            return
        sensors = snapshot.get("sensors") or {}
        link = snapshot.get("link") or {}
        errors = link.get("errors") if isinstance(link.get("errors"), int) else 0
        with self._lock:
            entry = self._matches.setdefault(str(match_id), {"flags": {}, "i2c_errors": 0})
            changed = False
            for flag in sensors.get("flags") or ():
                cell, kind = str(flag.get("cell")), str(flag.get("kind"))
                kinds = entry["flags"].setdefault(cell, [])
                if kind not in kinds:
                    kinds.append(kind)
                    changed = True
            if self._errors_seen is not None and errors > self._errors_seen:
                entry["i2c_errors"] += errors - self._errors_seen
                changed = True
            self._errors_seen = errors
            if changed:
                self._save()

    def _save(self) -> None:
        keep = sorted(self._matches, key=lambda k: int(k) if k.isdigit() else -1)[-KEEP:]
        self._matches = {k: self._matches[k] for k in keep}
        self.directory.mkdir(parents=True, exist_ok=True)
        replace_file(self.directory / FILE, json.dumps(self._matches))
