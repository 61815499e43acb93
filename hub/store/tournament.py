"""The tournament's own tables: settings, players, rounds and pairings, and game results.

What the organiser decides (who plays, who meets whom at which table) and what each finished
game counts for the standings; a result also moves its pairing to the board that played it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hub.model import Claim, GameResult, Pairing, StoredGame
from hub.said import MARK
from hub.store.connection import HubStoreError, StoreBase, no_table

GAME_COLUMNS = ("board, match_id, seq, black, white, winner, black_rounds, white_rounds,"
                " black_points, white_points, finished_at, round, tbl")
"""A finished game's columns, in one order for the games and the claims (which add why)."""


def game_values(game: StoredGame | Claim) -> tuple[Any, ...]:
    """A game's values in the order of :data:`GAME_COLUMNS`."""
    r = game.result
    return (game.board, game.match_id, game.seq, r.black, r.white, r.winner, r.black_rounds,
            r.white_rounds, r.black_points, r.white_points, game.finished_at, game.round,
            game.table)


def game_fields(row: Sequence[Any]) -> tuple[Any, ...]:
    """A row read by :data:`GAME_COLUMNS` as a game's fields, its result made whole
    (``StoredGame(*game_fields(row))``; a claim adds its why)."""
    return (*row[:3], GameResult(*row[3:10]), *row[10:13])


class TournamentTables(StoreBase):
    """Settings, players, rounds, pairings and games: the part of the hub's file the
    standings and the draw are made from."""

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
                raise HubStoreError(MARK.gettext("player '{name}' is already registered"),
                                    name=name)
            self._touch(tournament=True)
            seed = db.execute("SELECT COALESCE(MAX(seed), 0) + 1 FROM players").fetchone()[0]
            db.execute(
                "INSERT INTO players (name, seed, added_at) VALUES (?, ?, ?)", (name, seed, at)
            )

    def remove_player(self, name: str) -> None:
        with self._tx() as db:
            if db.execute("DELETE FROM players WHERE name = ?", (name,)).rowcount == 0:
                raise HubStoreError(MARK.gettext("no player '{name}'"), name=name)
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
                raise HubStoreError(MARK.gettext("tournament round {round} already exists"),
                                    round=number)
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
                raise HubStoreError(no_table(table, round_number))
            self._touch(tournament=True, all_boards=True)

    # Games ---------------------------------------------------------------------------

    def save_game(self, game: StoredGame) -> None:
        values = game_values(game)
        with self._tx() as db:
            self._touch(game.board, tournament=True)
            db.execute(f"INSERT OR REPLACE INTO games ({GAME_COLUMNS})"
                       f" VALUES ({', '.join('?' * len(values))})", values)
            if game.round is not None and game.match_id > 0:
                # the pairing moves to the board that played it (a result the referee
                # entered, with a negative id, leaves it where it was)
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
            f"SELECT {GAME_COLUMNS} FROM games ORDER BY finished_at, board, match_id")
        return [StoredGame(*game_fields(r)) for r in rows]

    def game(self, board: str, match_id: int) -> StoredGame | None:
        return next(
            (g for g in self.games() if g.board == board and g.match_id == match_id), None
        )
