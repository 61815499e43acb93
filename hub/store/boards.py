"""The boards as the hub last heard of them, and the commands it sent them.

A board's retained status and state messages land here (online or not, the latest full
state); each command the referee sends to a board is kept with the board's answer once it
comes, so the page can show both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hub.store.connection import StoreBase, dump_json, load_json


class BoardTables(StoreBase):
    """Board status and state, and commands with their answers."""

    # Boards --------------------------------------------------------------------------

    def set_board_status(self, board: str, online: bool, *, at: float,
                         version: str | None = None) -> None:
        """``version``: the skitter the board runs, as its status says (None: it says none).
        A new version touches every board: each card compares its own with the others'."""
        with self._tx() as db:
            row = db.execute("SELECT version FROM boards WHERE board = ?", (board,)).fetchone()
            self._touch(board, all_boards=(row[0] if row else None) != version)
            db.execute(
                "INSERT INTO boards (board, online, status_at, version) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(board) DO UPDATE SET online = excluded.online,"
                " status_at = excluded.status_at, version = excluded.version",
                (board, int(online), at, version),
            )

    def set_board_state(self, board: str, payload: Mapping[str, Any], *, at: float) -> None:
        with self._tx() as db:
            # a board moving to another match may leave a game for the referee to look at
            moved = self._current_match(db, board) != payload.get("match_id")
            self._touch(board, tournament=moved)
            db.execute(
                "INSERT INTO boards (board, state, state_at) VALUES (?, ?, ?) "
                "ON CONFLICT(board) DO UPDATE SET state = excluded.state,"
                " state_at = excluded.state_at",
                (board, dump_json(dict(payload)), at),
            )

    def boards(self, only: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """Every board heard of (or those of ``only``), by name: ``board``, ``online``,
        ``status_at``, ``state`` (payload), ``version`` (None: not sent)."""
        sql = "SELECT board, online, status_at, state, state_at, version FROM boards"
        args: list[str] = []
        if only is not None:
            args = sorted(set(only))
            sql += f" WHERE board IN ({','.join('?' * len(args))})"
        rows = self._all(sql + " ORDER BY board", args)
        return [
            {
                "board": r[0],
                "online": bool(r[1]),
                "status_at": r[2],
                "state": load_json(r[3]) if r[3] else None,
                "state_at": r[4],
                "version": r[5],
            }
            for r in rows
        ]

    def refuse(self, board: str | None, reason: str, *, at: float) -> None:
        """Count a message from ``board`` that was dropped, and keep why (the latest); None:
        a topic that names no usable board."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO counters (key, value) VALUES ('rejected', 1) "
                "ON CONFLICT(key) DO UPDATE SET value = value + 1"
            )
            if board is None:
                return
            self._touch(board)
            db.execute("INSERT OR IGNORE INTO boards (board) VALUES (?)", (board,))
            db.execute(
                "INSERT INTO refusals (board, count, reason, at) VALUES (?, 1, ?, ?) "
                "ON CONFLICT(board) DO UPDATE SET count = count + 1, reason = excluded.reason,"
                " at = excluded.at",
                (board, reason, at),
            )

    def refusals(self) -> dict[str, tuple[int, str]]:
        """``board: (messages refused, the latest reason)``."""
        return {r[0]: (r[1], r[2])
                for r in self._all("SELECT board, count, reason FROM refusals")}

    # Commands ------------------------------------------------------------------------

    def add_command(
        self, command_id: str, board: str, body: Mapping[str, Any], *, at: float
    ) -> None:
        with self._tx() as db:
            self._touch(board)
            db.execute(
                "INSERT INTO commands (id, board, body, sent_at) VALUES (?, ?, ?, ?)",
                (command_id, board, dump_json(dict(body)), at),
            )

    def set_command_result(self, command_id: str, result: Mapping[str, Any], *, board: str,
                           at: float) -> bool:
        """Attach ``board``'s answer; False for an unknown command id or one sent to another
        board (only the board a command went to may answer it)."""
        with self._tx() as db:
            cur = db.execute(
                "UPDATE commands SET result = ?, result_at = ? WHERE id = ? AND board = ?"
                " RETURNING board",
                (dump_json(dict(result)), at, command_id, board),
            )
            found = cur.fetchall()
            for (board,) in found:
                self._touch(board)
        return bool(found)

    def commands(self, board: str | None = None, limit: int = 20) -> list[dict[str, Any]]:
        """The latest commands (newest first) with their answers once they came."""
        sql = "SELECT id, board, body, sent_at, result, result_at FROM commands"
        args: tuple[Any, ...] = ()
        if board is not None:
            sql += " WHERE board = ?"
            args = (board,)
        rows = self._all(sql + " ORDER BY sent_at DESC, rowid DESC LIMIT ?", (*args, limit))
        return [
            {
                "id": r[0],
                "board": r[1],
                "command": load_json(r[2], {}),
                "sent_at": r[3],
                "result": load_json(r[4]) if r[4] else None,
                "result_at": r[5],
            }
            for r in rows
        ]
