"""What each hub call answers, as its ``/openapi.json`` documents it.

As for the board (``web.api.responses``), the handlers build plain dicts and these models
describe them; ``extra="allow"`` keeps every key a handler adds.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from web.api.responses import Described


class HubHealth(Described):
    ok: bool = Field(description="True while connected to the broker and nothing below is "
                     "wrong (200; 503 else).")
    broker: str = Field(description="connected or not connected.")
    problems: list[str] = Field(description="What keeps the hub from hearing the boards, in "
                                "words: a thread of the hub stopped or behind, its file not "
                                "writable.")


class Note(Described):
    kind: str = Field(description="offline, missing, restore, names, or a board's own alert.")
    message: str = Field(description="What the referee should know, in words.")


class Seat(Described):
    round: int
    table: int


class BoardCard(Described):
    """One board's card on the tournament page."""

    board: str
    online: bool
    match_id: int | None
    seq: int = Field(description="The board's last event.")
    received: int = Field(description="Events received without a gap.")
    names: dict[str, str]
    phase: str | None
    turn: str | None
    winner: str | None
    round: int | None
    score: dict[str, int]
    round_wins: dict[str, int]
    alerts: list[Note]
    pairing: Seat | None = Field(description="The game of the tournament played on it.")
    last_command: dict[str, Any] | None = Field(description="The last command and its answer.")
    refused: int = Field(description="Messages from this board the hub refused (not stored).")


class GameResult(Described):
    black: str
    white: str
    winner: str | None
    black_rounds: int
    white_rounds: int
    black_points: int
    white_points: int


class PlayedGame(GameResult):
    board: str
    match_id: int
    round: int | None
    table: int | None
    finished_at: float


class RecordedResult(GameResult):
    board: str
    match_id: int


class PairingRow(Described):
    table: int
    black: str
    white: str | None
    bye: bool
    board: str | None
    result: RecordedResult | None


class RoundRow(Described):
    number: int
    system: str
    pairings: list[PairingRow]


class Standing(Described):
    player: str
    played: int
    won: int
    lost: int
    byes: int
    rounds_won: int
    rounds_lost: int
    round_difference: int
    points_for: int
    points_against: int
    points_difference: int


class Attention(Described):
    kind: str = Field(description="claim (a result waiting for the referee), unpaired or "
                      "no_result.")
    board: str
    match_id: int
    message: str
    seq: int | None = Field(default=None, description="A claim: the step that finished it.")
    round: int | None = Field(default=None, description="A claim: the game it fits, if any.")
    table: int | None = None
    result: GameResult | None = Field(default=None, description="A claim: what it says.")


class Decision(Described):
    """One decision of the hub referee about a result, as kept in the hub's log."""

    id: int
    at: float
    action: str = Field(description="accepted, rejected, entered or removed.")
    round: int | None
    table: int | None
    board: str | None
    match_id: int | None
    reason: str
    result: dict[str, Any] | None = Field(description="The result decided about.")


class DecisionMade(Described):
    decision: str = Field(description="accepted, rejected, entered or removed.")
    game: PlayedGame | None = Field(description="The result now counted or taken off.")


class HubState(Described):
    """The whole tournament page, as the live feed's ``full`` frame at ``version``."""

    type: str = Field(description="Always `full`.")
    version: int = Field(description="The live feed's version; deltas apply after it.")
    boards: list[BoardCard]
    broker_connected: bool
    problems: list[str] = Field(description="As `/healthz` names them; empty when all is well.")
    duplicates: int
    rejected: int
    system: str = Field(description="round_robin or swiss.")
    planned_rounds: int
    next_round_blocked: str | None = Field(description="Why the next round cannot be paired.")
    attention: list[Attention]
    decisions: list[Decision] = Field(description="The referee's decisions about results.")
    players: list[str]
    standings: list[Standing]
    rounds: list[RoundRow]
    games: list[PlayedGame]


class ReceivedStep(Described):
    seq: int
    at: float
    source: str
    event: dict[str, Any] = Field(description="The step as the board sent it.")
    text: str = Field(description="The step in words.")
    score: dict[str, int] | None
    round: int | None
    effects: list[str]


class HubMatchLog(Described):
    board: str
    match_id: int
    names: dict[str, str]
    complete: bool = Field(description="True when no event is missing.")
    result: GameResult | None
    counted: bool = Field(description="False while the result waits for the hub referee.")
    events: list[ReceivedStep]


class PlayerAdded(Described):
    player: str


class PlayerRemoved(Described):
    removed: str


class PlannedRounds(Described):
    planned_rounds: int


class RoundPaired(Described):
    round: int
    pairings: int = Field(description="Games paired, byes included.")


class BoardAssigned(Described):
    round: int
    table: int
    board: str | None


class CommandSent(Described):
    id: str = Field(description="The command's id; the board's answer names it.")
    board: str
    kind: str


class RatingRow(Described):
    player: str
    rating: float | None = Field(description="None until the player finished a game.")
    games: int
