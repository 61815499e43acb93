"""What the boards sent: every event received, one row per event id, and the counters.

Events are kept one row per event id (``<board>:<match>:<seq>``), so a board that re-publishes
after a broker outage adds nothing; the duplicates are only counted. The hub finds gaps here
(:meth:`ReceivedTables.contiguous_seq`) and asks the board to resend.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.model import ReceivedEvent
from hub.store.connection import StoreBase, dump_json, load_json

STATE_KEYS = ("phase", "round", "rounds", "score", "round_wins", "winner", "last_effects")
"""What the hub reads of the state after each event (results, points, the match log's
lines); the rest of a board's state (its fields, turn, options) stays with the board, and
the latest full state is kept per board from its retained ``state`` message."""


def kept_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The part of an event's state the hub stores."""
    return {k: state[k] for k in STATE_KEYS if k in state}


class ReceivedTables(StoreBase):
    """Received events and the counters (``duplicates``, ``rejected``)."""

    # Events --------------------------------------------------------------------------

    def add_event(self, ev: ReceivedEvent, *, received_at: float) -> bool:
        """Keep ``ev`` unless its id is already known; True when it was new."""
        with self._tx() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO events (id, board, match_id, seq, at, source, body, state,"
                " names, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    ev.id, ev.board, ev.match_id, ev.seq, ev.at, ev.source, dump_json(ev.event),
                    dump_json(kept_state(ev.state)), dump_json(ev.names), received_at,
                ),
            )
            new = cur.rowcount == 1
            if new and ev.rules is not None and ev.setup is not None:
                # the first the hub hears of them: a match's rules never change
                db.execute(
                    "INSERT OR IGNORE INTO match_rules (board, match_id, rules, setup)"
                    " VALUES (?, ?, ?, ?)",
                    (ev.board, ev.match_id, dump_json(ev.rules), dump_json(ev.setup)),
                )
            if new and ev.pairing is not None:
                # the pairing the match was started from (an offer): fixed with the match
                db.execute(
                    "INSERT OR IGNORE INTO match_pairings (board, match_id, pairing)"
                    " VALUES (?, ?, ?)", (ev.board, ev.match_id, dump_json(ev.pairing)),
                )
            if new:
                # A step of the board's current match changes its card only; one of another
                # match may change what the referee must look at (a game left unfinished).
                current = self._current_match(db, ev.board)
                self._touch(ev.board, tournament=current != ev.match_id)
            else:
                db.execute(
                    "INSERT INTO counters (key, value) VALUES ('duplicates', 1) "
                    "ON CONFLICT(key) DO UPDATE SET value = value + 1"
                )
        return new

    def events(
        self, board: str, match_id: int, *, latest_only: bool = False
    ) -> list[ReceivedEvent]:
        """The match's events as received, in ``seq`` order (or just the latest one)."""
        rows = self._all(
            "SELECT id, board, match_id, seq, at, source, body, state, names FROM events "
            "WHERE board = ? AND match_id = ? ORDER BY seq"
            + (" DESC LIMIT 1" if latest_only else ""),
            (board, match_id),
        )
        return [
            ReceivedEvent(
                r[0], r[1], r[2], r[3], r[4], r[5], load_json(r[6], {}), load_json(r[7], {}),
                load_json(r[8], {}),
            )
            for r in rows
        ]

    def match_rules(
        self, board: str, match_id: int
    ) -> tuple[dict[str, Any], dict[str, Any]] | None:
        """The rules and setup the board sent with the match's events, if it did."""
        rows = self._all("SELECT rules, setup FROM match_rules WHERE board = ? AND match_id = ?",
                         (board, match_id))
        return (load_json(rows[0][0], {}), load_json(rows[0][1], {})) if rows else None

    def match_pairing(self, board: str, match_id: int) -> dict[str, Any] | None:
        """The pairing (``{"id", "round", "table"}``) the board's match was started from,
        when it was started from an offer."""
        rows = self._all("SELECT pairing FROM match_pairings WHERE board = ? AND match_id = ?",
                         (board, match_id))
        return load_json(rows[0][0], {}) if rows else None

    def latest_event(self, board: str, match_id: int) -> ReceivedEvent | None:
        """The received event with the highest ``seq`` of the match."""
        found = self.events(board, match_id, latest_only=True)
        return found[0] if found else None

    def seqs(self, board: str, match_id: int) -> list[int]:
        rows = self._all(
            "SELECT seq FROM events WHERE board = ? AND match_id = ? ORDER BY seq",
            (board, match_id),
        )
        return [r[0] for r in rows]

    def contiguous_seq(self, board: str, match_id: int) -> int:
        """The largest ``n`` such that events 1..n of the match are all here."""
        n = 0
        for seq in self.seqs(board, match_id):
            if seq != n + 1:
                break
            n = seq
        return n

    def previous_match(self, board: str, match_id: int) -> int | None:
        """The board's latest match before ``match_id`` the hub has events of."""
        rows = self._all(
            "SELECT MAX(match_id) FROM events WHERE board = ? AND match_id < ?",
            (board, match_id),
        )
        return None if rows[0][0] is None else int(rows[0][0])

    def match_spans(self) -> dict[tuple[str, int], tuple[float, float]]:
        """``(board, match_id)`` -> when the hub received the match's first and latest event
        (by the hub's clock, so a board's clock set wrong does not skew a game's length)."""
        return {
            (r[0], r[1]): (float(r[2]), float(r[3]))
            for r in self._all("SELECT board, match_id, MIN(received_at), MAX(received_at)"
                               " FROM events GROUP BY board, match_id")
        }

    def matches_received(self) -> list[tuple[str, int, int]]:
        """``(board, match_id, events)`` for every match seen, by board then match."""
        return [
            (r[0], r[1], r[2])
            for r in self._all(
                "SELECT board, match_id, COUNT(*) FROM events GROUP BY board, match_id "
                "ORDER BY board, match_id"
            )
        ]

    def bump(self, key: str) -> None:
        """Add one to a counter (``duplicates``, ``rejected``)."""
        with self._tx() as db:
            db.execute(
                "INSERT INTO counters (key, value) VALUES (?, 1) "
                "ON CONFLICT(key) DO UPDATE SET value = value + 1",
                (key,),
            )

    def counter(self, key: str) -> int:
        rows = self._all("SELECT value FROM counters WHERE key = ?", (key,))
        return int(rows[0][0]) if rows else 0
