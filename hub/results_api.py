"""The hub referee's API over results: decide a claim, enter a result, remove one, read the
log of decisions. Every change needs the hub referee's session; see
``hub.decisions`` for what each does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.concurrency import run_in_threadpool
from pydantic import Field

from hub import decisions
from hub.model import StoredGame
from hub.offering import settle_offer
from hub.responses import Decision, DecisionMade
from hub.said import MARK, answered, detail
from hub.tournament import Tournament, TournamentError
from scorekeeper.names import MAX_REASON
from web_common.auth import Referee
from web_common.json_body import CheckedJSONRoute
from web_common.schemas import PathNumber, ShownText, Strict

router = APIRouter(prefix="/api", tags=["results"], route_class=CheckedJSONRoute)

Reason = ShownText
SEEN = ("The table's result version as the referee saw it (`version` of the round's "
        "pairing; empty for a table that never had a result): a change since is refused.")


class ClaimAccepted(Strict):
    seq: int = Field(ge=1, description="The step that finished the game, as the referee saw it.")
    reason: str = Field(default="", max_length=MAX_REASON)
    round: int | None = Field(default=None, ge=1, le=10_000,
                              description="The game it is (when the claim fits none).")
    table: int | None = Field(default=None, ge=1, le=10_000)
    first_player: str | None = Field(
        default=None, max_length=40,
        description="For a game played under other names: the registered player who "
        "played first (as the game's first name).")


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
    version: str = Field(default="", max_length=200, description=SEEN)


class RemovedResult(Strict):
    version: str = Field(max_length=200, description=SEEN)
    reason: Reason = Field(max_length=MAX_REASON)


def _tournament(request: Request) -> Tournament:
    return request.app.state.hub.tournament  # type: ignore[no-any-return]


async def _decide(request: Request, action: str, decide: Callable[..., StoredGame | None],
                  *args: Any, **kwargs: Any) -> dict[str, Any]:
    """Run one of ``decisions``' steps on the hub's tournament (``decide(t, *args,
    **kwargs)``), answer its refusals in HTTP and settle the board's offer after it."""
    try:
        game = await run_in_threadpool(decide, _tournament(request), *args, **kwargs)
    except decisions.StaleDecision as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=detail(exc)) from None
    except decisions.NotFound as exc:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=detail(exc)) from None
    except TournamentError as exc:
        raise HTTPException(422, detail=detail(exc)) from None
    hub = request.app.state.hub
    if isinstance(game, StoredGame):
        await run_in_threadpool(settle_offer, hub.tournament, hub.sender, game.round, game.table)
    hub.changed()
    return {"decision": action, "game": _game(game) if isinstance(game, StoredGame) else None}


def _figures(body: EnteredResult) -> dict[str, Any]:
    """The result as the referee typed it, in ``decisions``' words (first player, then
    second), for entering and for correcting alike."""
    return {"winner": body.winner or None, "rounds": (body.first_rounds, body.second_rounds),
            "points": (body.first_points, body.second_points), "reason": body.reason,
            "seen": body.version}


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
        raise HTTPException(422, detail=answered(MARK.gettext(
            "give both the round and the table, or neither")))
    where = None if body.round is None or body.table is None else (body.round, body.table)
    return await _decide(request, "accepted", decisions.accept_claim, board, match_id,
                         seq=body.seq, reason=body.reason.strip(), where=where,
                         first_player=body.first_player)


@router.post("/claims/{board}/{match_id}/reject", response_model=DecisionMade,
             summary="Refuse a board's result that waits for the referee")
async def reject(board: str, match_id: PathNumber, body: ClaimRejected, request: Request,
                 _: Referee) -> dict[str, Any]:
    return await _decide(request, "rejected", decisions.reject_claim, board, match_id,
                         seq=body.seq, reason=body.reason)


@router.post("/rounds/{number}/tables/{table}/result", response_model=DecisionMade,
             summary="Enter the result of a game that has none")
async def enter(number: PathNumber, table: PathNumber, body: EnteredResult, request: Request,
                _: Referee) -> dict[str, Any]:
    return await _decide(request, "entered", decisions.enter_result, number, table,
                         **_figures(body))


@router.post("/rounds/{number}/tables/{table}/result/correct", response_model=DecisionMade,
             summary="Put a wrong result right (the figures given replace it)")
async def correct(number: PathNumber, table: PathNumber, body: EnteredResult, request: Request,
                  _: Referee) -> dict[str, Any]:
    return await _decide(request, "corrected", decisions.correct_result, number, table,
                         **_figures(body))


@router.post("/rounds/{number}/tables/{table}/result/remove", response_model=DecisionMade,
             summary="Remove a wrong result (the game waits for a result again)")
async def remove(number: PathNumber, table: PathNumber, body: RemovedResult, request: Request,
                 _: Referee) -> dict[str, Any]:
    return await _decide(request, "removed", decisions.remove_result, number, table,
                         seen=body.version, reason=body.reason)


@router.get("/decisions", response_model=list[Decision],
            summary="The referee's decisions about results, oldest first")
async def decisions_log(request: Request) -> list[dict[str, Any]]:
    return await run_in_threadpool(_tournament(request).store.decisions)

