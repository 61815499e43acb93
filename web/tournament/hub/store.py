"""The hub's own SQLite file: players, rounds, pairings, games, every event received.

The hub keeps the tournament apart from any board's match log: boards come and go, the
standings must survive a restart of the hub. Events are kept one row per event id
(``<board>:<match>:<seq>``), so a board that re-publishes after a broker outage adds nothing;
the duplicates are only counted. One connection serves the MQTT thread and the web app,
behind a lock (SQLite itself would serialise them anyway; the lock keeps each multi-statement
change whole).

The store also notes which boards and whether the rest of the tournament changed since the
page's refresher last asked (:meth:`HubStore.take_touched`): every write passes through here,
so the page can rebuild only what changed without every caller having to say what that is.
A burst of messages can be stored in one transaction (:meth:`HubStore.batch`): one commit for
the burst, each message still whole or not at all.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scorekeeper.store import open_sqlite
from web.tournament.hub.model import GameResult, Pairing, ReceivedEvent, StoredGame
from web.tournament.hub.touched import Journal, Touched

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS players (
    name TEXT PRIMARY KEY, seed INTEGER NOT NULL, added_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS rounds (
    number INTEGER PRIMARY KEY, system TEXT NOT NULL, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pairings (
    round INTEGER NOT NULL REFERENCES rounds(number), tbl INTEGER NOT NULL,
    black TEXT NOT NULL, white TEXT, board TEXT, PRIMARY KEY (round, tbl));
CREATE TABLE IF NOT EXISTS games (
    board TEXT NOT NULL, match_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    black TEXT NOT NULL, white TEXT NOT NULL, winner TEXT,
    black_rounds INTEGER NOT NULL, white_rounds INTEGER NOT NULL,
    black_points INTEGER NOT NULL, white_points INTEGER NOT NULL,
    finished_at REAL NOT NULL, round INTEGER, tbl INTEGER,
    PRIMARY KEY (board, match_id));
CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY, board TEXT NOT NULL, match_id INTEGER NOT NULL, seq INTEGER NOT NULL,
    at REAL NOT NULL, source TEXT NOT NULL, body TEXT NOT NULL, state TEXT NOT NULL,
    names TEXT NOT NULL, received_at REAL NOT NULL);
CREATE INDEX IF NOT EXISTS events_by_match ON events (board, match_id, seq);
CREATE TABLE IF NOT EXISTS boards (
    board TEXT PRIMARY KEY, online INTEGER NOT NULL DEFAULT 0, status_at REAL,
    state TEXT, state_at REAL);
CREATE TABLE IF NOT EXISTS commands (
    id TEXT PRIMARY KEY, board TEXT NOT NULL, body TEXT NOT NULL, sent_at REAL NOT NULL,
    result TEXT, result_at REAL);
CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
"""


STATE_KEYS = ("phase", "round", "rounds", "score", "round_wins", "winner", "last_effects")
"""What the hub reads of the state after each event (results, points, the match log's
lines); the rest of a board's state (its fields, turn, options) stays with the board, and
the latest full state is kept per board from its retained ``state`` message."""


def kept_state(state: Mapping[str, Any]) -> dict[str, Any]:
    """The part of an event's state the hub stores."""
    return {k: state[k] for k in STATE_KEYS if k in state}


class HubStoreError(Exception):
    """The hub's file cannot be used, or a change breaks the tournament's own rules."""


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


class HubStore:
    """The tournament on disk. Every method is safe to call from any thread."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        try:
            self._db = open_sqlite(path, SCHEMA)
        except sqlite3.DatabaseError as exc:
            raise HubStoreError(f"cannot open the hub's file {path}: {exc}") from exc
        self._touched = Journal()
        self.commits = 0
        """Transactions committed so far (the MQTT side batches; tests count them)."""

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One change, whole or not at all: its own transaction, or a savepoint inside a
        :meth:`batch` (then the batch's commit makes it durable)."""
        with self._lock:
            if self._db.in_transaction:
                self._db.execute("SAVEPOINT change")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK TO change")
                    self._db.execute("RELEASE change")
                    raise
                self._db.execute("RELEASE change")
                return
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")
            except BaseException:
                if self._db.in_transaction:  # a failed COMMIT (disk full) leaves it open
                    self._db.execute("ROLLBACK")
                raise
            self.commits += 1

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Every change inside is committed at once, when the block ends (one fsync for a
        burst of messages); an exception rolls all of them back. Other threads wait for
        the store meanwhile, so nobody reads what is not yet committed."""
        with self._tx():
            yield

    def take_touched(self) -> Touched:
        """What changed since the last call (everything, the first time)."""
        with self._lock:
            j = self._touched
            self._touched = Journal(all_boards=False, tournament=False)
            return Touched(frozenset(j.boards), j.all_boards, j.tournament)

    def touch_again(self, touched: Touched) -> None:
        """Put back what a refresh took but could not rebuild, for the next one."""
        with self._lock:
            self._touch(*touched.boards, tournament=touched.tournament,
                        all_boards=touched.all_boards)

    def _touch(self, *boards: str | None, tournament: bool = False,
               all_boards: bool = False) -> None:
        self._touched.boards.update(b for b in boards if b is not None)
        self._touched.tournament |= tournament
        self._touched.all_boards |= all_boards

    def _current_match(self, db: sqlite3.Connection, board: str) -> Any:
        row = db.execute(
            "SELECT json_extract(state, '$.match_id') FROM boards WHERE board = ?", (board,)
        ).fetchone()
        return None if row is None else row[0]

    def _all(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    # Settings ------------------------------------------------------------------------

    def get_meta(self, key: str, default: str | None = None) -> str | None:
        rows = self._all("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else default

    def set_meta(self, key: str, value: str) -> None:
        with self._tx() as db:
            self._touch(tournament=True)
            db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    # Players -------------------------------------------------------------------------

    def add_player(self, name: str, *, at: float) -> None:
        with self._tx() as db:
            if db.execute("SELECT 1 FROM players WHERE name = ?", (name,)).fetchone():
                raise HubStoreError(f"player {name!r} is already registered")
            self._touch(tournament=True)
            seed = db.execute("SELECT COALESCE(MAX(seed), 0) + 1 FROM players").fetchone()[0]
            db.execute(
                "INSERT INTO players (name, seed, added_at) VALUES (?, ?, ?)", (name, seed, at)
            )

    def remove_player(self, name: str) -> None:
        with self._tx() as db:
            if db.execute("DELETE FROM players WHERE name = ?", (name,)).rowcount == 0:
                raise HubStoreError(f"no player {name!r}")
            self._touch(tournament=True)

    def players(self) -> list[str]:
        """Registered players in seeding (registration) order."""
        return [r[0] for r in self._all("SELECT name FROM players ORDER BY seed")]

    # Rounds and pairings -------------------------------------------------------------

    def add_round(
        self, number: int, system: str, pairs: Sequence[tuple[str, str | None]], *, at: float
    ) -> list[Pairing]:
        """Store tournament round ``number`` with its pairs, in the order given."""
        pairings = [Pairing(number, i, b, w) for i, (b, w) in enumerate(pairs, start=1)]
        with self._tx() as db:
            if db.execute("SELECT 1 FROM rounds WHERE number = ?", (number,)).fetchone():
                raise HubStoreError(f"tournament round {number} already exists")
            self._touch(tournament=True, all_boards=True)
            db.execute(
                "INSERT INTO rounds (number, system, created_at) VALUES (?, ?, ?)",
                (number, system, at),
            )
            db.executemany(
                "INSERT INTO pairings (round, tbl, black, white, board) VALUES (?, ?, ?, ?, NULL)",
                [(p.round, p.table, p.black, p.white) for p in pairings],
            )
        return pairings

    def round_numbers(self) -> list[tuple[int, str]]:
        """``(number, system)`` of every tournament round, in order."""
        return [(r[0], r[1]) for r in self._all("SELECT number, system FROM rounds ORDER BY 1")]

    def pairings(self, round_number: int | None = None) -> list[Pairing]:
        sql = "SELECT round, tbl, black, white, board FROM pairings"
        args: tuple[Any, ...] = ()
        if round_number is not None:
            sql += " WHERE round = ?"
            args = (round_number,)
        rows = self._all(sql + " ORDER BY round, tbl", args)
        return [Pairing(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def set_pairing_board(self, round_number: int, table: int, board: str | None) -> None:
        with self._tx() as db:
            cur = db.execute(
                "UPDATE pairings SET board = ? WHERE round = ? AND tbl = ?",
                (board, round_number, table),
            )
            if cur.rowcount == 0:
                raise HubStoreError(f"no table {table} in tournament round {round_number}")
            self._touch(tournament=True, all_boards=True)

    # Events --------------------------------------------------------------------------

    def add_event(self, ev: ReceivedEvent, *, received_at: float) -> bool:
        """Keep ``ev`` unless its id is already known; True when it was new."""
        with self._tx() as db:
            cur = db.execute(
                "INSERT OR IGNORE INTO events (id, board, match_id, seq, at, source, body, state,"
                " names, received_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    ev.id, ev.board, ev.match_id, ev.seq, ev.at, ev.source, _dump(ev.event),
                    _dump(kept_state(ev.state)), _dump(ev.names), received_at,
                ),
            )
            new = cur.rowcount == 1
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
                r[0], r[1], r[2], r[3], r[4], r[5], json.loads(r[6]), json.loads(r[7]),
                json.loads(r[8]),
            )
            for r in rows
        ]

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

    # Games ---------------------------------------------------------------------------

    def save_game(self, game: StoredGame) -> None:
        r = game.result
        with self._tx() as db:
            self._touch(game.board, tournament=True)
            db.execute(
                "INSERT OR REPLACE INTO games (board, match_id, seq, black, white, winner,"
                " black_rounds, white_rounds, black_points, white_points, finished_at, round, tbl)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game.board, game.match_id, game.seq, r.black, r.white, r.winner,
                    r.black_rounds, r.white_rounds, r.black_points, r.white_points,
                    game.finished_at, game.round, game.table,
                ),
            )
            if game.round is not None:
                moved = db.execute(
                    "SELECT board FROM pairings WHERE round = ? AND tbl = ?",
                    (game.round, game.table),
                ).fetchone()
                self._touch(moved[0] if moved else None)
                db.execute(
                    "UPDATE pairings SET board = ? WHERE round = ? AND tbl = ?",
                    (game.board, game.round, game.table),
                )

    def drop_game(self, board: str, match_id: int) -> None:
        """Forget a result (the board undid the game's last step)."""
        with self._tx() as db:
            self._touch(board, tournament=True)
            db.execute("DELETE FROM games WHERE board = ? AND match_id = ?", (board, match_id))

    def games(self) -> list[StoredGame]:
        rows = self._all(
            "SELECT board, match_id, seq, black, white, winner, black_rounds, white_rounds,"
            " black_points, white_points, finished_at, round, tbl FROM games"
            " ORDER BY finished_at, board, match_id"
        )
        return [
            StoredGame(
                r[0], r[1], r[2], GameResult(r[3], r[4], r[5], r[6], r[7], r[8], r[9]), r[10],
                r[11], r[12],
            )
            for r in rows
        ]

    def game(self, board: str, match_id: int) -> StoredGame | None:
        return next(
            (g for g in self.games() if g.board == board and g.match_id == match_id), None
        )

    # Boards --------------------------------------------------------------------------

    def set_board_status(self, board: str, online: bool, *, at: float) -> None:
        with self._tx() as db:
            self._touch(board)
            db.execute(
                "INSERT INTO boards (board, online, status_at) VALUES (?, ?, ?) "
                "ON CONFLICT(board) DO UPDATE SET online = excluded.online,"
                " status_at = excluded.status_at",
                (board, int(online), at),
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
                (board, _dump(dict(payload)), at),
            )

    def boards(self, only: Iterable[str] | None = None) -> list[dict[str, Any]]:
        """Every board heard of (or those of ``only``), by name: ``board``, ``online``,
        ``status_at``, ``state`` (payload)."""
        sql = "SELECT board, online, status_at, state, state_at FROM boards"
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
                "state": json.loads(r[3]) if r[3] else None,
                "state_at": r[4],
            }
            for r in rows
        ]

    # Commands ------------------------------------------------------------------------

    def add_command(
        self, command_id: str, board: str, body: Mapping[str, Any], *, at: float
    ) -> None:
        with self._tx() as db:
            self._touch(board)
            db.execute(
                "INSERT INTO commands (id, board, body, sent_at) VALUES (?, ?, ?, ?)",
                (command_id, board, _dump(dict(body)), at),
            )

    def set_command_result(self, command_id: str, result: Mapping[str, Any], *, at: float) -> bool:
        """Attach the board's answer; False for an unknown command id."""
        with self._tx() as db:
            cur = db.execute(
                "UPDATE commands SET result = ?, result_at = ? WHERE id = ? RETURNING board",
                (_dump(dict(result)), at, command_id),
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
                "command": json.loads(r[2]),
                "sent_at": r[3],
                "result": json.loads(r[4]) if r[4] else None,
                "result_at": r[5],
            }
            for r in rows
        ]
