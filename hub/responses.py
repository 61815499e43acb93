"""What each hub call answers, as its ``/openapi.json`` documents it.

As for the board, the handlers build plain dicts and these models (``web_common.schemas.Described``)
describe them; ``extra="allow"`` keeps every key a handler adds.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from web_common.schemas import Described


def _said() -> Any:
    return Field(default=None, description="The same sentence as its catalog entry (`id`, "
                 "`args`; a plural's `plural` and `n`), for the page to word in its language.")

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
    alerts: list[Note] = Field(description="What is wrong and needs someone (shown as a fault).")
    notes: list[Note] = Field(description="Normal moments of play (the board to put back, "
                              "a finished game): shown plainly, never as a fault.")
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
    version: str = Field(description="The table's result as seen: what a change of it "
                         "carries (empty while it never had one).")


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
    buchholz: int = Field(description="Sum of the games won by the opponents met.")
    dropped: bool = Field(description="Left the tournament (never paired again).")


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
    action: str = Field(description="accepted, rejected, entered, corrected or removed.")
    round: int | None
    table: int | None
    board: str | None
    match_id: int | None
    reason: str
    result: dict[str, Any] | None = Field(description="The result decided about.")


class DecisionMade(Described):
    decision: str = Field(description="accepted, rejected, entered, corrected or removed.")
    game: PlayedGame | None = Field(description="The result now counted or taken off.")


class Forecast(Described):
    round: int
    ends_at: float = Field(description="Unix time the round's last game should end.")
    games_left: int
    minutes_per_game: float = Field(description="The measured pace the forecast uses.")


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
    format: dict[str, Any] | None = Field(
        description="The tournament's one format (points_to_win_round, rounds_to_win_game, "
        "flipping, variant, and `words`); null while none is set (games of any format count).")
    planned_rounds: int
    next_round_blocked: str | None = Field(description="Why the next round cannot be paired.")
    next_round_blocked_said: dict[str, Any] | None = _said()
    attention: list[Attention]
    decisions: list[Decision] = Field(description="The referee's decisions about results.")
    players: list[str]
    standings: list[Standing]
    rounds: list[RoundRow]
    games: list[PlayedGame]
    forecast: Forecast | None = Field(description="When the current round should end, from "
                                      "the games' measured pace (none before a game ended).")
    field_seq: int = Field(description="The tournament's version: a change to the field "
                           "(late entry, drop, swap, knockout) carries the one its person saw.")
    field_changes: list[dict[str, Any]] = Field(description="The field's log, oldest first: "
                                                "seq, at, kind, player, round, words, reason.")
    dropped: list[str] = Field(description="Players who dropped out.")
    knockout_blocked: str | None = Field(description="Why the knockout cannot start now.")
    knockout_blocked_said: dict[str, Any] | None = _said()
    bracket: dict[str, Any] | None = Field(description="The knockout bracket, once started "
                                           "(as `/api/bracket`).")


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


class FormatSet(Described):
    format: dict[str, Any] = Field(description="points_to_win_round, rounds_to_win_game, "
                                   "flipping, variant")
    words: str = Field(description="The format as the page says it.")


class RoundPaired(Described):
    round: int
    pairings: int = Field(description="Games paired, byes included.")


class BoardAssigned(Described):
    round: int
    table: int
    board: str | None


class FieldChangeRow(Described):
    """One change to the field, as the field's log keeps it."""

    seq: int = Field(description="The tournament's version this change made.")
    at: float
    kind: str = Field(description="registered, withdrawn, system, paired, late_entry, "
                      "dropped, swapped.")
    player: str | None
    round: int | None
    words: str = Field(description="What changed, in a sentence (English).")
    said: dict[str, Any] | None = _said()
    reason: str


class BracketGame(Described):
    round: int
    table: int
    third_place: bool
    first: str | None = Field(description="None while the stage before is being played.")
    second: str | None
    first_seed: int | None
    second_seed: int | None
    board: str | None
    winner: str | None
    score: str | None = Field(description="Rounds won, the first player's first.")
    waits_for: str | None = Field(description="Who will play a game not yet paired, in words.")
    waits_for_said: dict[str, Any] | None = _said()


class BracketStage(Described):
    name: str = Field(description="Quarter-finals, Semi-finals, Final ...")
    name_said: dict[str, Any] | None = _said()
    round: int = Field(description="The tournament round it is.")
    paired: bool
    games: list[BracketGame]


class BracketView(Described):
    size: int
    third_place: bool
    champion: str | None
    seeds: list[str] = Field(description="The players, best seed first.")
    stages: list[BracketStage]


class FieldChanged(Described):
    done: str = Field(description="What changed, in words, as the field's log keeps it.")
    seq: int = Field(description="The tournament's version after the change.")
    result: str | None = Field(description="The player's name as registered (a late entry).")


class CommandSent(Described):
    id: str = Field(description="The command's id; the board's answer names it.")
    board: str
    kind: str


class RatingRow(Described):
    player: str
    rating: float | None = Field(description="None until the player finished a game.")
    games: int
