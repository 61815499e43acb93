"""What each call answers, as ``/openapi.json`` documents it.

The handlers build plain dicts (the WebSocket sends the same snapshot); these models only
describe them. ``extra="allow"`` keeps every key the state carries, so an answer's content is
exactly what the handler built, and a key added to the state is never silently dropped.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Described(BaseModel):
    model_config = ConfigDict(extra="allow")


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


class Health(Described):
    ok: bool
    problems: list[str] = Field(description="Each problem in words; empty when all is well.")
    link: dict[str, Any]
    store: dict[str, Any]
    source: str
    uptime: float = Field(description="Seconds since start.")
    seq: int


class Refusal(BaseModel):
    detail: str | list[dict[str, Any]] = Field(description="What was wrong, in words.")
    field: str | None = Field(default=None, description="The field at fault.")


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
