"""Reading the match log: the matches, a match's header, and its steps, streamed and checked.

Every step read is checked against its checksum first, so a row changed outside the
scorekeeper is refused rather than replayed. A restart reads the steps as text
(:meth:`LogReading.iter_bodies`), fetched :data:`BULK_ROWS` at a time.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from scorekeeper.store.logfile import LogFile, StoreError, damaged
from scorekeeper.store.schema import row_sum
from scorekeeper.store.values import StoredEvent, StoredMatch

BULK_ROWS = 4096
"""Rows fetched per round trip when a whole log is read as text."""


class LogReading(LogFile):
    """Matches, headers and steps as stored."""

    def latest_match_id(self) -> int | None:
        """The match in play: the most recently created one, unless an older one was taken
        up again since (:meth:`~scorekeeper.store.writing.LogWriting.resume_match`); None
        for an empty file."""
        row = self._db.execute("SELECT MAX(id) FROM matches").fetchone()
        if row[0] is None:
            return None
        again = self._db.execute(
            "SELECT match_id, newest FROM resumes ORDER BY id DESC LIMIT 1").fetchone()
        if again is not None and again[1] == row[0]:
            return int(again[0])
        return int(row[0])

    def list_matches(self) -> list[dict[str, Any]]:
        """Every match's header with its event count, newest first."""
        with self._reading():
            rows = self._db.execute(
                "SELECT m.id, m.created_at, m.names, m.rules, COUNT(e.seq) FROM matches m "
                "LEFT JOIN events e ON e.match_id = m.id GROUP BY m.id ORDER BY m.id DESC"
            ).fetchall()
        return [
            {
                "id": r[0],
                "created_at": r[1],
                "names": self._decoded(r[2], f"the header of match {r[0]}"),
                "rules": self._decoded(r[3], f"the header of match {r[0]}"),
                "events": r[4],
            }
            for r in rows
        ]

    def load(self, match_id: int) -> StoredMatch:
        """The match's header and all its events, in order."""
        head = self.load_header(match_id)
        return replace(head, events=tuple(self.iter_events(match_id)))

    def load_header(self, match_id: int) -> StoredMatch:
        """The match's header alone (``events`` is empty): what a replay from
        :meth:`iter_bodies` or :meth:`iter_rows` needs besides the events."""
        with self._reading():
            head = self._db.execute(
                "SELECT id, created_at, rules, setup, names, meta FROM matches WHERE id = ?",
                (match_id,),
            ).fetchone()
        if head is None:
            raise StoreError(f"no match {match_id} in {self.path}")
        what = f"the header of match {match_id}"
        created = head[1]
        if not isinstance(created, (int, float)):
            raise damaged(self.path, f"{what} has no valid time")
        return StoredMatch(
            id=head[0],
            created_at=created,
            rules=self._decoded(head[2], what),
            setup=self._decoded(head[3], what),
            names=self._decoded(head[4], what),
            meta=self._decoded(head[5], what),
            events=(),
        )

    def iter_events(self, match_id: int, after: int = 0) -> Iterator[StoredEvent]:
        """Events of ``match_id`` with ``seq > after``, in order (streamed, not all in memory)."""
        for seq, at, source, body in self.iter_rows(match_id, after):
            try:
                decoded = json.loads(body)
            except json.JSONDecodeError as exc:
                raise StoreError(f"match {match_id} event {seq} is not valid JSON: {exc}") from exc
            yield StoredEvent(seq=seq, at=at, source=source, body=decoded)

    def iter_bodies(self, match_id: int, after: int = 0) -> Iterator[str]:
        """The JSON text of each event of ``match_id`` with ``seq > after``, in order, not
        decoded (for :meth:`~scorekeeper.match.Match.replay_json`). Rows are fetched
        :data:`BULK_ROWS` at a time: far fewer round trips than one per row, bounded memory."""
        for row in self.iter_rows(match_id, after):
            yield row[3]

    def iter_rows(self, match_id: int, after: int = 0) -> Iterator[tuple[int, float, str, str]]:
        """``(seq, at, source, body text)`` for each event of ``match_id`` with
        ``seq > after``, in order: :meth:`iter_events` without decoding the bodies.
        Every row's checksum is verified: a row changed outside the scorekeeper is refused."""
        cur = self._db.execute(
            "SELECT seq, at, source, body, sum FROM events WHERE match_id = ? AND seq > ? "
            "ORDER BY seq",
            (match_id, after),
        )
        try:
            while rows := cur.fetchmany(BULK_ROWS):
                for seq, at, source, body, stored in rows:
                    if not isinstance(body, str) or stored != row_sum(
                        match_id, seq, at, source, body
                    ):
                        raise damaged(
                            self.path, f"step {seq} of match {match_id} does not match its "
                            "checksum: it was changed outside the scorekeeper"
                        )
                    yield seq, at, source, body
        except sqlite3.DatabaseError as exc:
            raise damaged(self.path, str(exc).splitlines()[0][:120]) from exc

    def event_count(self, match_id: int) -> int:
        row = self._db.execute(
            "SELECT COUNT(*) FROM events WHERE match_id = ?", (match_id,)
        ).fetchone()
        return int(row[0])
