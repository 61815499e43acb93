"""What each call answers, as ``/openapi.json`` documents it.

The handlers build plain dicts (the WebSocket sends the same snapshot); these models only
describe them. ``extra="allow"`` keeps every key the state carries, so an answer's content is
exactly what the handler built, and a key added to the state is never silently dropped.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import Response
from pydantic import BaseModel, Field

from web_common.schemas import Described


class Link(Described):
    up: bool = Field(description="True while sensor events arrive.")
    message: str | None = Field(description="Why the link is down or degraded, in words.")
    degraded: bool = False
    errors: int = 0


class Alert(Described):
    kind: str = Field(description="link, sensor, restore, review, paused, decision, "
                      "shootoff or game_over.")
    message: str = Field(description="What stops play, in words for the players.")


class Snapshot(Described):
    """The published state: ``GET /api/state``, every change's answer, every WebSocket frame."""

    seq: int = Field(description="Changes made since start; a change must carry it (409 else).")
    boot: str = Field(description="This process's start; a new value means a restart.")
    version: int
    match_id: int
    names: dict[str, str] = Field(
        description="What the pages call each player: the name, or the seat in words "
        "(`First player`) when none was given.")
    given_names: dict[str, str] = Field(
        description="The names as given at the new match (`\"\"` where none was).")
    handicaps: dict[str, Any]
    state: dict[str, Any] = Field(description="The match: phase, turn, score, board, pot...")
    can_undo: bool
    log: list[dict[str, Any]] = Field(description="The last steps of the match log.")
    last_step: dict[str, Any] | None
    log_length: int
    tracker: dict[str, Any] = Field(description="What the sensing expects: ready, review, ...")
    link: Link
    sensors: dict[str, Any] | None
    sensing: dict[str, Any]
    virtual: dict[str, Any] | None = Field(description="The simulated board, if any.")
    alerts: list[Alert] = Field(description="Everything that stops play, most urgent first.")
    taken_back: dict[str, Any] | None = Field(
        None, description="When the last step is an undo: the log entry it took back.")
    decided_shot: dict[str, Any] | None = Field(
        None, description="When the last step is a late decision: the shot it decided.")


class MatchLog(Described):
    match_id: int
    seq: int
    names: dict[str, str] = Field(description="The players as the pages call them.")
    entries: list[dict[str, Any]] = Field(description="Every step with its effects and score.")


class StoredMatch(Described):
    id: int
    created_at: float
    names: dict[str, str]
    rules: dict[str, Any]
    events: int = Field(description="Steps in its log.")


class BoardView(Described):
    profile: dict[str, Any] | None = Field(description="The board profile (fields, cells).")
    virtual: dict[str, Any] | None = Field(description="The simulated board, if any.")


class About(Described):
    scoreboard: str
    pages: dict[str, str]
    source: str
    virtual_board: bool
    version: str = Field(description="The version of skitter this board runs.")


class Health(Described):
    ok: bool
    problems: list[str] = Field(description="Each problem in words; empty when all is well.")
    warnings: list[str] = Field(default_factory=list, description="What works now but would "
                                "lose data later, e.g. a match log kept in RAM (still 200).")
    link: dict[str, Any]
    store: dict[str, Any]
    source: str
    uptime: float = Field(description="Seconds since start.")
    seq: int


class ReviewFile(Described):
    """A step and its timeline to take away: ``skitter serve --source replay:FILE`` plays it."""

    skitter_review: int = Field(description="The file format's version.")
    profile: str
    cells: int
    match_id: int
    seq: int
    at: float
    source: str
    names: dict[str, str]
    step: dict[str, Any]
    timeline: dict[str, Any] | None


class Review(Described):
    """One step of the log and the sensor timeline that made it, frame by frame."""

    seq: int
    source: str = Field(description="sensor, tablet, referee...: who made the step.")
    recorded: str = Field(description="The step in words.")
    score: str = Field(description="The score after it, in words.")
    later: list[str] = Field(description="What later steps did to it (taken back, amended).")
    can_amend: bool = Field(description="True for the last standing shot.")
    file: ReviewFile = Field(description="The same as the download: the step and timeline.")
    frames: list[dict[str, Any]] = Field(description="The board before the shot, then after "
                                         "each change the sensors saw.")
    note: str = Field(description="Why there is no timeline, or what it shows, in words.")
    settled_ms: int | None = None
    reading: dict[str, Any] | None = None


class CallerStatus(Described):
    """The caller's settings as the tablet shows them."""

    version: int = Field(description="A change must carry it (409 else).")
    language: str
    languages: list[str]
    muted: bool
    available: bool = Field(description="False when no speech engine is installed.")
    silent: str | None = Field(description="Why the caller is silent, in words; None if not.")


class StaleCaller(BaseModel):
    detail: str
    caller: CallerStatus = Field(description="The settings now, to decide again from.")


class CallerLine(Described):
    """The sentence for the newest step, and where its audio is."""

    match_id: int
    seq: int | None = Field(description="The step spoken; None before the first step.")
    text: str | None
    language: str
    audio: str | None = Field(description="The address of the spoken sentence (WAV).")
    silent: str | None = Field(description="Why there is no audio, in words.")
    next: dict[str, Any] | None = Field(
        default=None, description="While the hub offers this board its next tournament game: "
        "its `id`, the sentence (`text`: \"Next: Anna v Ben, round 2, table 3\") and `audio`.")


class PlayerFigures(Described):
    name: str = Field(description="The spelling used in the player's newest match.")
    matches: int
    matches_won: int
    rounds_won: int
    rounds_played: int
    shots: int
    points: int
    points_per_shot: float
    red_advance: int
    red_back: int
    penalties: int
    own_goals: int
    clearings: int
    chains: int
    shots_per_round: float


class PlayerRow(PlayerFigures):
    rating: float | None = Field(description="The shown rating (mu - 3 sigma).")


class PlayerRating(Described):
    name: str
    rating: float
    mu: float
    sigma: float
    matches: int


class PlayerDetail(PlayerFigures):
    rating: PlayerRating | None


class RatingHistory(Described):
    names: list[str]
    after_match: list[list[float | None]] = Field(
        description="Each player's rating (in the order of `names`) after each counted match.")


class StatsOverview(Described):
    players: list[PlayerRow] = Field(description="Best rating first.")
    matches: int = Field(description="Matches counted (finished, between two named people).")
    ratings: RatingHistory
    problems: list[str] = Field(description="Stored matches that could not be read, in words.")


class HeadToHead(Described):
    names: list[str]
    matches: int
    wins: list[int] = Field(description="Matches won, in the order of `names`.")
    rounds: list[int] = Field(description="Rounds won, in the order of `names`.")


class Refusal(BaseModel):
    detail: str | list[dict[str, Any]] = Field(description="What was wrong, in words.")
    field: str | None = Field(default=None, description="The field at fault.")
    rule: str | None = Field(default=None, description="The ruling that refused (R19), if any.")
    message: str | None = Field(default=None, description="The refusal in the reader's words.")
    plain: str | None = Field(default=None, description="`message` without the rulings' codes.")


class StaleAnswer(BaseModel):
    detail: str
    state: Snapshot = Field(description="The fresh state to decide again from.")


class Problem(BaseModel):
    detail: str


CHANGE_ANSWERS: dict[int | str, dict[str, Any]] = {
    401: {"model": Problem, "description": "No referee session."},
    403: {"model": Problem, "description": "Sent by another site's page."},
    409: {"model": StaleAnswer, "description": "The state changed since `seq`."},
    413: {"model": Refusal, "description": "The body is too large."},
    422: {"model": Refusal, "description": "Refused: the field and the reason."},
}
"""The refusals every change may get, for the documentation."""


def download(media_type: str, description: str) -> dict[str, Any]:
    """A route's arguments for a file or text it answers: its media type, documented."""
    return {"response_class": Response, "responses": {200: {
        "description": description, "content": {media_type: {"schema": {"type": "string"}}}}}}
