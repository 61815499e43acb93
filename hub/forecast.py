"""When the current round should end, from the pace the tournament's games were played at.

Organisers call the next round and plan breaks by it. The pace is measured, not assumed:
the typical length of the games finished so far (their median, so one game that stood
still for a broken board does not stretch every forecast). A game under way needs what
it lacks of that length, a game not begun needs all of it, and games waiting for the same
board are played one after the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

from hub.model import Pairing
from hub.tournament import Tournament


@dataclass(frozen=True)
class OpenGame:
    """A game of the round still without a result."""

    board: str | None
    """The board it is on (None: any free board)."""
    started_at: float | None
    """When its match began on the board; None while it has not."""


@dataclass(frozen=True)
class Forecast:
    round: int
    ends_at: float
    games_left: int
    minutes_per_game: float

    def to_json(self) -> dict[str, object]:
        return {"round": self.round, "ends_at": self.ends_at, "games_left": self.games_left,
                "minutes_per_game": round(self.minutes_per_game, 1)}


def round_end(lengths: Sequence[float], games: Sequence[OpenGame], now: float) -> float | None:
    """The time the last of ``games`` should end, given the ``lengths`` (seconds) of the
    games finished so far; None while no game has finished (no pace to go by). A game
    already longer than the pace is taken to end now."""
    if not lengths:
        return None
    pace = median(lengths)
    by_board: dict[str | None, float] = {}
    spare = 0.0
    for game in games:
        left = pace if game.started_at is None else max(pace - (now - game.started_at), 0.0)
        if game.board is None:
            spare = max(spare, left)  # it takes the first free board
        else:
            by_board[game.board] = by_board.get(game.board, 0.0) + left
    return now + max([spare, *by_board.values()])


def forecast(t: Tournament) -> Forecast | None:
    """The forecast for the latest round while it has games without a result."""
    rounds = t.store.round_numbers()
    if not rounds:
        return None
    number = rounds[-1][0]
    waiting = t.round_open(number)
    if not waiting:
        return None
    spans = t.store.match_spans()
    lengths = [spans[(g.board, g.match_id)][1] - spans[(g.board, g.match_id)][0]
               for g in t.store.games() if (g.board, g.match_id) in spans]
    lengths = [x for x in lengths if x > 0]
    current = {b["board"]: (b.get("state") or {}).get("match_id") for b in t.store.boards()}
    counted = {(g.board, g.match_id) for g in t.store.games()}
    games = []
    for p in waiting:
        game = _open_game(p, current, spans, counted)
        if game.started_at is not None:
            current.pop(game.board or "", None)  # one match under way per board
        games.append(game)
    ends = round_end(lengths, games, t.clock.now())
    if ends is None:
        return None
    return Forecast(number, ends, len(waiting), median(lengths) / 60)


def _open_game(p: Pairing, current: dict[str, object],
               spans: dict[tuple[str, int], tuple[float, float]],
               counted: set[tuple[str, int]]) -> OpenGame:
    """A pairing's game: begun when its board's current match is under way."""
    match = current.get(p.board) if p.board else None
    if isinstance(match, int) and (p.board, match) in spans and (p.board, match) not in counted:
        return OpenGame(p.board, spans[(p.board, match)][0])
    return OpenGame(p.board, None)
