"""The hub referee's API over results: decide a claim, enter a result, remove one, read the
log of decisions. Every change needs the hub referee's session; see
``web.tournament.hub.decisions`` for what each does."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from web.api.auth import Referee
from web.api.routers.json_body import CheckedJSONRoute
from web.api.schemas import MAX_REASON, PathNumber, ShownText, Strict
from web.tournament.hub import decisions
from web.tournament.hub.model import StoredGame
from web.tournament.hub.responses import Decision, DecisionMade
from web.tournament.hub.tournament import Tournament, TournamentError

router = APIRouter(prefix="/api", tags=["results"], route_class=CheckedJSONRoute)

Reason = ShownText


class ClaimAccepted(Strict):
    seq: int = Field(ge=1, description="The step that finished the game, as the referee saw it.")
    reason: str = Field(default="", max_length=MAX_REASON)
    round: int | None = Field(default=None, ge=1, le=10_000,
                              description="The game it is (when the claim fits none).")
    table: int | None = Field(default=None, ge=1, le=10_000)


class ClaimRejected(Strict):
    seq: int = Field(ge=1)
    reason: Reason = Field(max_length=MAX_REASON, description="Why it does not count.")


class EnteredResult(Strict):
    winner: str | None = Field(max_length=40, description="A player's name; null: a draw.")
    first_rounds: int = Field(ge=0, le=100, description="Rounds the first player won.")
    second_rounds: int = Field(ge=0, le=100)
    first_points: int = Field(ge=-1000, le=10_000)
    second_points: int = Field(ge=-1000, le=10_000)
    reason: Reason = Field(max_length=MAX_REASON)


class RemovedResult(Strict):
    board: str = Field(max_length=64, description="The result's board, as the referee saw it.")
    match_id: int = Field(description="The result's match, as the referee saw it.")
    reason: Reason = Field(max_length=MAX_REASON)


def _tournament(request: Request) -> Tournament:
    return request.app.state.hub.tournament  # type: ignore[no-any-return]


async def _decide(request: Request, action: str, run: Any) -> dict[str, Any]:
    try:
        game = await run_in_threadpool(run)
    except decisions.StaleDecision as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=str(exc)) from None
    except decisions.NotFound as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=str(exc)) from None
    except TournamentError as exc:
        raise HTTPException(422, detail=str(exc)) from None
    request.app.state.hub.changed()
    return {"decision": action, "game": _game(game) if isinstance(game, StoredGame) else None}


def _game(g: StoredGame) -> dict[str, Any]:
    return {"board": g.board, "match_id": g.match_id, "round": g.round, "table": g.table,
            "finished_at": g.finished_at, **{k: getattr(g.result, k) for k in (
                "black", "white", "winner", "black_rounds", "white_rounds", "black_points",
                "white_points")}}


@router.post("/claims/{board}/{match_id}/accept", response_model=DecisionMade,
             summary="Count a board's result that waits for the referee")
async def accept(board: str, match_id: PathNumber, body: ClaimAccepted, request: Request,
                 _: Referee) -> dict[str, Any]:
    if (body.round is None) != (body.table is None):
        raise HTTPException(422, detail="give both the round and the table, or neither")
    where = None if body.round is None or body.table is None else (body.round, body.table)
    t = _tournament(request)
    return await _decide(request, "accepted", lambda: decisions.accept_claim(
        t, board, match_id, seq=body.seq, reason=body.reason.strip(), where=where))


@router.post("/claims/{board}/{match_id}/reject", response_model=DecisionMade,
             summary="Refuse a board's result that waits for the referee")
async def reject(board: str, match_id: PathNumber, body: ClaimRejected, request: Request,
                 _: Referee) -> dict[str, Any]:
    t = _tournament(request)
    return await _decide(request, "rejected", lambda: decisions.reject_claim(
        t, board, match_id, seq=body.seq, reason=body.reason))


@router.post("/rounds/{number}/tables/{table}/result", response_model=DecisionMade,
             summary="Enter the result of a game that has none")
async def enter(number: PathNumber, table: PathNumber, body: EnteredResult, request: Request,
                _: Referee) -> dict[str, Any]:
    t = _tournament(request)
    return await _decide(request, "entered", lambda: decisions.enter_result(
        t, number, table, winner=body.winner or None,
        rounds=(body.first_rounds, body.second_rounds),
        points=(body.first_points, body.second_points), reason=body.reason))


@router.post("/rounds/{number}/tables/{table}/result/remove", response_model=DecisionMade,
             summary="Remove a wrong result (the game waits for a result again)")
async def remove(number: PathNumber, table: PathNumber, body: RemovedResult, request: Request,
                 _: Referee) -> dict[str, Any]:
    t = _tournament(request)
    return await _decide(request, "removed", lambda: decisions.remove_result(
        t, number, table, board=body.board, match_id=body.match_id, reason=body.reason))


@router.get("/decisions", response_model=list[Decision],
            summary="The referee's decisions about results, oldest first")
async def decisions_log(request: Request) -> list[dict[str, Any]]:
    return await run_in_threadpool(_tournament(request).store.decisions)

