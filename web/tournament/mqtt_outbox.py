"""What the broker has acknowledged, per match, kept by the board's tournament link.

A small SQLite file of the link's own (``mqtt-outbox.db`` next to the match log): the match
log's schema is never touched. After a restart the link publishes again every event above
the acknowledged ``seq``; the hub counts an event once whatever it receives twice.
"""

from __future__ import annotations

import threading
from pathlib import Path

from scorekeeper.store import open_sqlite

OUTBOX_SCHEMA = """
CREATE TABLE IF NOT EXISTS acked (
    board TEXT NOT NULL, match_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    PRIMARY KEY (board, match_id));
"""


class Outbox:
    """The last ``seq`` the broker acknowledged per match, in ``<data_dir>/mqtt-outbox.db``."""

    def __init__(self, path: str | Path, board_id: str) -> None:
        self.board = board_id
        self._lock = threading.Lock()
        self._db = open_sqlite(path, OUTBOX_SCHEMA)

    def acked(self) -> dict[int, int]:
        with self._lock:
            rows = self._db.execute(
                "SELECT match_id, seq FROM acked WHERE board = ?", (self.board,)
            ).fetchall()
        return {int(m): int(s) for m, s in rows}

    def track(self, match_id: int) -> None:
        """Start following a match (nothing acknowledged yet)."""
        with self._lock:
            self._db.execute(
                "INSERT OR IGNORE INTO acked (board, match_id, seq) VALUES (?, ?, 0)",
                (self.board, match_id),
            )

    def set_acked(self, match_id: int, seq: int) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO acked (board, match_id, seq) VALUES (?, ?, ?) "
                "ON CONFLICT(board, match_id) DO UPDATE SET seq = MAX(seq, excluded.seq)",
                (self.board, match_id, seq),
            )

    def close(self) -> None:
        with self._lock:
            self._db.close()


class AckWindow:
    """Acknowledged ``seq`` numbers above the persisted watermark of one match."""

    def __init__(self, watermark: int) -> None:
        self.watermark = watermark
        self.above: set[int] = set()

    def add(self, seq: int) -> bool:
        """Record an ack; True when the watermark moved."""
        if seq <= self.watermark:
            return False
        self.above.add(seq)
        moved = False
        while self.watermark + 1 in self.above:
            self.watermark += 1
            self.above.discard(self.watermark)
            moved = True
        return moved
