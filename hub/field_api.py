"""The hub referee's API over the field and the knockout stage: choose the pairing system,
enter a player late, drop one, swap two players of a round, start the knockout; and the
bracket, to read (as JSON, and as its own printable page).

Every change needs the hub referee's session, a reason (kept in the field's log) and the
tournament's version its person saw (``seq``, the page's ``field_seq``): a stale one gets
409 with the words of what changed since. See ``hub.field_changes`` and
``hub.bracket`` for what each does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Request, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from pydantic import Field

from hub import bracket, field_changes
from hub.responses import BracketView, FieldChanged, FieldChangeRow
from hub.said import detail, worded
from hub.tournament import StaleChange, Tournament, TournamentError
from scorekeeper.names import MAX_REASON
from web_common.auth import Referee
from web_common.i18n import current, for_request, page_in
from web_common.json_body import CheckedJSONRoute
from web_common.schemas import PathNumber, ShownText, Strict

router = APIRouter(prefix="/api", tags=["field"], route_class=CheckedJSONRoute)
pages = APIRouter(tags=["pages"])

Seen = Field(ge=0, description="The tournament's version the referee saw (`field_seq`).")


class SystemChoice(Strict):
    system: Literal["round_robin", "swiss"]
    seq: int = Seen


class LateEntry(Strict):
    name: ShownText = Field(max_length=200)
    credit: Literal["bye", "zero"] = Field(description="bye: starts with a bye in the newest "
                                           "round (one game won); zero: with nothing.")
    reason: ShownText = Field(max_length=MAX_REASON)
    seq: int = Seen


class Drop(Strict):
    reason: ShownText = Field(max_length=MAX_REASON)
    seq: int = Seen


class Swap(Strict):
    first: ShownText = Field(max_length=200, description="A player of the round.")
    second: ShownText = Field(max_length=200, description="The player to change seats with.")
    accept_rematch: bool = Field(default=False, description="Pair two players who met "
                                 "before, on purpose.")
    reason: ShownText = Field(max_length=MAX_REASON)
    seq: int = Seen


class KnockoutStart(Strict):
    size: Literal[4, 8, 16]
    third_place: bool = False
    reason: str = Field(default="", max_length=MAX_REASON)
    seq: int = Seen


def _tournament(request: Request) -> Tournament:
    return request.app.state.hub.tournament  # type: ignore[no-any-return]


async def _change(request: Request, run: Callable[[], Any]) -> dict[str, Any]:
    try:
        done = await asyncio.to_thread(run)
    except StaleChange as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=detail(exc)) from None
    except TournamentError as exc:
        raise HTTPException(422, detail=detail(exc)) from None
    request.app.state.hub.changed()
    t = _tournament(request)
    last = t.store.field_changes(since=t.store.field_version() - 1)
    return {"done": worded(last[-1].said(), current()) if last else "",
            "seq": t.store.field_version(),
            "result": done if isinstance(done, str) else None}


@router.post("/system", response_model=FieldChanged,
             summary="Choose round robin or Swiss pairing before round 1")
async def choose_system(body: SystemChoice, request: Request, _: Referee) -> dict[str, Any]:
    t = _tournament(request)
    return await _change(request, lambda: t.set_system(body.system, seen=body.seq))


@router.post("/late-entries", response_model=FieldChanged,
             summary="Enter a player after round 1 (paired from the next round)")
async def enter_late(body: LateEntry, request: Request, _: Referee) -> dict[str, Any]:
    t = _tournament(request)
    return await _change(request, lambda: field_changes.late_entry(
        t, body.name, credit=body.credit, reason=body.reason, seq=body.seq))


@router.post("/players/{name}/drop", response_model=FieldChanged,
             summary="Drop a player between rounds (never paired again, games kept)")
async def drop(name: str, body: Drop, request: Request, _: Referee) -> dict[str, Any]:
    t = _tournament(request)
    return await _change(request, lambda: field_changes.drop_player(
        t, name, reason=body.reason, seq=body.seq))


@router.post("/rounds/{number}/swap", response_model=FieldChanged,
             summary="Put two players of the newest round in each other's seats")
async def swap(number: PathNumber, body: Swap, request: Request, _: Referee) -> dict[str, Any]:
    t = _tournament(request)
    return await _change(request, lambda: field_changes.swap_players(
        t, number, body.first, body.second, reason=body.reason, seq=body.seq,
        accept_rematch=body.accept_rematch))


@router.post("/knockout", response_model=FieldChanged,
             summary="Start the knockout of the top 4, 8 or 16 (games go to the online boards)")
async def start_knockout(body: KnockoutStart, request: Request, _: Referee) -> dict[str, Any]:
    t = _tournament(request)
    boards = [b["board"] for b in t.store.boards() if b["online"]]
    return await _change(request, lambda: bracket.start_knockout(
        t, body.size, third_place=body.third_place, reason=body.reason.strip(),
        seq=body.seq, boards=boards))


@router.get("/bracket", response_model=BracketView | None,
            summary="The knockout bracket (null before it starts)")
async def read_bracket(request: Request) -> dict[str, Any] | None:
    return await run_in_threadpool(bracket.bracket_view, _tournament(request))


@router.get("/field-changes", response_model=list[FieldChangeRow],
            summary="The field's log: every change with its reason")
async def read_changes(request: Request) -> list[dict[str, Any]]:
    t = _tournament(request)
    return [c.to_json() for c in await run_in_threadpool(t.store.field_changes)]


@pages.get("/bracket", include_in_schema=False)
async def bracket_page(request: Request) -> HTMLResponse:
    """The bracket on a page of its own, for the wall or for paper (A4), in the language
    asked for (``web_common.i18n``), its catalog with it for the scripts."""
    source = (Path(__file__).parent / "static" / "bracket.html").read_text(encoding="utf-8")
    return HTMLResponse(page_in(source, for_request(request)),
                        headers={"Vary": "Accept-Language"})
