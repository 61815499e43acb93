"""The sensor timelines kept beside the shots of the match log, read and pruned.

A shot's timeline is written with its step (:meth:`~scorekeeper.store.MatchStore.append`);
it is read for the referee's review and for exports, and old ones may be pruned to save
space while the steps themselves stay.
"""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.store.logfile import LogFile, StoreError


class LogTimelines(LogFile):
    """A step's sensor timeline, a match's timelines, and pruning old ones."""

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
