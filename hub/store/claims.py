"""Results that wait for the hub's referee, and the referee's decisions.

A board's finished game counts by itself only when it is the game paired to that board and
the hub's replay of its steps ends where the board says (``hub.verify``).
Anything else is kept here as a claim until the referee accepts or rejects it; every
decision of the referee about a result (accepting, rejecting, entering or removing one) is
kept in the ``decisions`` table, with its reason, and never rewritten.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hub.model import Claim
from hub.said import Sentence, said_or
from hub.store.connection import StoreBase, dump_json, load_json
from hub.store.tournament import GAME_COLUMNS, game_fields, game_values


class ClaimTables(StoreBase):
    """Claims waiting for the referee, and the log of the referee's decisions."""

    def save_claim(self, claim: Claim) -> None:
        values = (*game_values(claim), str(claim.why),
                  dump_json(claim.why.to_json()) if isinstance(claim.why, Sentence) else None)
        with self._tx() as db:
            self._touch(claim.board, tournament=True)
            db.execute(f"INSERT OR REPLACE INTO claims ({GAME_COLUMNS}, why, why_said)"
                       f" VALUES ({', '.join('?' * len(values))})", values)

    def drop_claim(self, board: str, match_id: int) -> bool:
        with self._tx() as db:
            gone = db.execute("DELETE FROM claims WHERE board = ? AND match_id = ?",
                              (board, match_id)).rowcount > 0
            if gone:
                self._touch(board, tournament=True)
        return gone

    def claims(self) -> list[Claim]:
        rows = self._all(f"SELECT {GAME_COLUMNS}, why, why_said FROM claims"
                         " ORDER BY finished_at, board, match_id")
        return [Claim(*game_fields(r), said_or(r[13], load_json(r[14]))) for r in rows]

    def claim(self, board: str, match_id: int) -> Claim | None:
        return next((c for c in self.claims() if (c.board, c.match_id) == (board, match_id)),
                    None)

    def log_decision(self, action: str, *, at: float, reason: str,
                     round_number: int | None = None, table: int | None = None,
                     board: str | None = None, match_id: int | None = None,
                     result: Mapping[str, Any] | None = None) -> None:
        """Keep one decision of the referee (never changed afterwards)."""
        with self._tx() as db:
            self._touch(tournament=True)
            db.execute(
                "INSERT INTO decisions (at, action, round, tbl, board, match_id, reason, result)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (at, action, round_number, table, board, match_id, reason,
                 None if result is None else dump_json(dict(result))),
            )

    def decisions(self) -> list[dict[str, Any]]:
        """The referee's decisions about results, oldest first."""
        rows = self._all("SELECT id, at, action, round, tbl, board, match_id, reason, result"
                         " FROM decisions ORDER BY id")
        return [{"id": r[0], "at": r[1], "action": r[2], "round": r[3], "table": r[4],
                 "board": r[5], "match_id": r[6], "reason": r[7],
                 "result": None if r[8] is None else json.loads(r[8])} for r in rows]
