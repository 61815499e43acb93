"""Writing the match log: a new match, and steps appended whole with their timelines.

Every write is committed before it returns; a write that fails in any way (a full or
read-only disk, an I/O error, a damaged page, a broken constraint) keeps nothing and is
reported as :class:`~scorekeeper.store.logfile.StoreUnwritable` (``write_problem`` says why
until a later write succeeds), so the caller has one error to handle.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorekeeper.store.logfile import LogFile, dump_json, unwritable
from scorekeeper.store.schema import row_sum
from scorekeeper.store.values import StepSource

WRITE_FAILURES = (sqlite3.Error, OSError)
"""Whatever a write can raise from SQLite or the file system: each becomes
:class:`~scorekeeper.store.logfile.StoreUnwritable`."""


class LogWriting(LogFile):
    """Creating matches and appending steps (each with its checksum)."""

    def create_match(
        self,
        rules: Any,
        setup: Any,
        names: Mapping[str, str] | None = None,
        *,
        at: float,
        meta: Mapping[str, Any] | None = None,
    ) -> int:
        """Start a new match log and return its id. ``rules``/``setup`` are values or JSON."""
        self._check_file()
        try:
            cur = self._db.execute(
                "INSERT INTO matches (created_at, rules, setup, names, meta) "
                "VALUES (?, ?, ?, ?, ?)",
                (at, dump_json(rules), dump_json(setup), dump_json(dict(names or {})),
                 dump_json(dict(meta or {}))),
            )
        except WRITE_FAILURES as exc:
            self.write_problem = str(unwritable(exc))
            raise unwritable(exc) from exc
        self._check_file()  # deleted while it was written: not kept, whatever SQLite says
        self.write_problem = None
        return int(cur.lastrowid or 0)

    def resume_match(self, match_id: int, *, at: float) -> None:
        """Make a stored match the one in play again (a match a new one replaced): recorded,
        never by changing a match, so every match stays as it was logged."""
        try:
            with self._transaction():
                self._db.execute(
                    "INSERT INTO resumes (match_id, at, newest) "
                    "SELECT ?, ?, MAX(id) FROM matches", (match_id, at))
        except WRITE_FAILURES as exc:
            self.write_problem = str(unwritable(exc))
            raise unwritable(exc) from exc
        self.write_problem = None

    def append(
        self, match_id: int, event: Any, *, at: float, source: str = StepSource.MANUAL,
        timeline: Mapping[str, Any] | None = None,
    ) -> int:
        """Append ``event`` (an event value or its step object) and return its ``seq``.

        ``timeline``: the shot's sensor timeline (JSON with its version ``v``), written in
        the same transaction, so a step and its timeline are on disk together or not at all.
        The row is committed before this returns.
        """
        return self.append_many(match_id, [event], at=at, source=source,
                                timelines=[timeline])[0]

    def append_many(
        self, match_id: int, events: Iterable[Any], *, at: float, source: str = StepSource.MANUAL,
        timelines: Sequence[Mapping[str, Any] | None] | None = None,
    ) -> list[int]:
        """Append several steps in ONE transaction (an amend's undo and its new shot): all
        are committed, or none (:class:`StoreUnwritable` when the disk refuses). ``timelines``
        gives each step's sensor timeline, or None, in the same order."""
        bodies = [dump_json(e) for e in events]
        self._check_file()
        try:
            with self._transaction():
                row = self._db.execute(
                    "SELECT COALESCE(MAX(seq), 0) FROM events WHERE match_id = ?", (match_id,)
                ).fetchone()
                seqs = [int(row[0]) + i for i in range(1, len(bodies) + 1)]
                for i, (seq, body) in enumerate(zip(seqs, bodies, strict=True)):
                    self._insert(match_id, seq, at, source, body)
                    timeline = timelines[i] if timelines else None
                    if timeline is not None:
                        self._db.execute(
                            "INSERT INTO timelines (match_id, seq, version, body) "
                            "VALUES (?, ?, ?, ?)",
                            (match_id, seq, int(timeline.get("v", 1)), dump_json(dict(timeline))),
                        )
        except WRITE_FAILURES as exc:
            self.write_problem = str(unwritable(exc))
            raise unwritable(exc) from exc
        self._check_file()
        self.write_problem = None
        return seqs

    def _insert(self, match_id: int, seq: int, at: float, source: str, body: str) -> None:
        self._db.execute(
            "INSERT INTO events (match_id, seq, at, source, body, sum) VALUES (?,?,?,?,?,?)",
            (match_id, seq, at, source, body, row_sum(match_id, seq, at, source, body)),
        )
