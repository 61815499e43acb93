"""The tournament's values: pairings, game results, standings rows, received events and
recorded games.

A game started from the hub's offer carries its pairing's id (``tournament_wire.offer``), and
its result finds the pairing by that id; a game started by hand on a board is found by the
two players' names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

ROUND_ROBIN = "round_robin"
SWISS = "swiss"
KNOCKOUT = "knockout"
"""The system of a knockout round (``hub.bracket``)."""
ROUND_ROBIN_MAX_PLAYERS = 8
"""Up to this many players everybody meets everybody; more are paired Swiss."""


@dataclass(frozen=True)
class Pairing:
    """One game of a tournament round (or a bye)."""

    round: int
    """Tournament round number, from 1."""
    table: int
    """Position in the round's list, from 1 (byes come last)."""
    black: str
    """The player who plays black (for a bye: the player who sits out)."""
    white: str | None
    """The player who plays white; None for a bye."""
    board: str | None = None
    """The board the game is played on, once known."""

    @property
    def is_bye(self) -> bool:
        return self.white is None

    def players(self) -> frozenset[str]:
        return frozenset(p for p in (self.black, self.white) if p is not None)


@dataclass(frozen=True)
class GameResult:
    """A finished game between two players, as the board's final state says."""

    black: str
    white: str
    winner: str | None
    """The winner's name; None when the game ended without one."""
    black_rounds: int
    """Rounds won by black."""
    white_rounds: int
    black_points: int
    """Points black scored over the whole game (see ``hub.tournament.points_of``)."""
    white_points: int

    def to_json(self) -> dict[str, Any]:
        """Every part by its name, as the pages and the API show a result."""
        return {"black": self.black, "white": self.white, "winner": self.winner,
                "black_rounds": self.black_rounds, "white_rounds": self.white_rounds,
                "black_points": self.black_points, "white_points": self.white_points}


@dataclass(frozen=True)
class Standing:
    """One line of the standings table."""

    player: str
    played: int = 0
    """Games played (a bye counts as played and won)."""
    won: int = 0
    lost: int = 0
    byes: int = 0
    rounds_won: int = 0
    rounds_lost: int = 0
    points_for: int = 0
    points_against: int = 0
    buchholz: int = 0
    """Sum of the games won by the opponents met (``hub.standings``)."""
    dropped: bool = False
    """Left the tournament: never paired again; the games played still count."""

    @property
    def round_difference(self) -> int:
        return self.rounds_won - self.rounds_lost

    @property
    def points_difference(self) -> int:
        return self.points_for - self.points_against

    def to_json(self) -> dict[str, object]:
        return {
            "player": self.player,
            "played": self.played,
            "won": self.won,
            "lost": self.lost,
            "byes": self.byes,
            "rounds_won": self.rounds_won,
            "rounds_lost": self.rounds_lost,
            "round_difference": self.round_difference,
            "points_for": self.points_for,
            "points_against": self.points_against,
            "points_difference": self.points_difference,
            "buchholz": self.buchholz,
            "dropped": self.dropped,
        }


@dataclass(frozen=True)
class ReceivedEvent:
    """One match event as a board published it."""

    id: str
    board: str
    match_id: int
    seq: int
    at: float
    source: str
    event: Mapping[str, Any]
    state: Mapping[str, Any]
    """The board's state right after this event."""
    names: Mapping[str, str]
    """Player names by colour, as the board's match has them."""
    rules: Mapping[str, Any] | None = None
    """The match's rules and setup as the board sent them (checked by the rules engine):
    what the hub replays the game's steps with before it believes the board's result."""
    setup: Mapping[str, Any] | None = None
    pairing: Mapping[str, Any] | None = None
    """The pairing the board's match was started from (``{"id", "round", "table"}``), when
    it was started from the hub's offer (``tournament_wire.offer``)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "board": self.board,
            "match_id": self.match_id,
            "seq": self.seq,
            "at": self.at,
            "source": self.source,
            "event": dict(self.event),
            "state": dict(self.state),
            "names": dict(self.names),
        }


@dataclass(frozen=True)
class StoredGame:
    """A finished game as the hub recorded it, with the pairing it answers (if any)."""

    board: str
    match_id: int
    seq: int
    """The event that finished it."""
    result: GameResult
    finished_at: float
    round: int | None
    table: int | None


@dataclass(frozen=True)
class Claim:
    """A finished game a board reported that does not count until the referee says so."""

    board: str
    match_id: int
    seq: int
    """The step that finished it (a later step makes it a new claim)."""
    result: GameResult
    finished_at: float
    round: int | None
    """The open pairing these players fit, if any (it may be on another board)."""
    table: int | None
    why: str
    """Why it did not count by itself, in words (a ``Sentence`` when the hub made them: the
    page words it in its language)."""
