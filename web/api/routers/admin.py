"""The referee: logging in with the PIN, pausing sensing, muting cells, the board after a stop.

See :mod:`web.api.auth` for how wrong PINs are slowed down.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from web.api.auth import COOKIE, log_in
from web.api.deps import AuthDep, Referee, TableDep
from web.api.schemas import Change, Login, Mute, Pause
from web.table.table import Refused

router = APIRouter(prefix="/api/referee", tags=["referee"])


@router.post("/login", summary="Exchange the PIN for a session cookie")
async def login(body: Login, request: Request, response: Response, auth: AuthDep) -> dict[str, Any]:
    return await log_in(body.pin, request, response, pins=auth.pins, throttle=auth.throttle,
                        sessions=auth.sessions)


@router.post("/logout", summary="End the session")
async def logout(request: Request, response: Response, auth: AuthDep) -> dict[str, Any]:
    auth.sessions.close(request.cookies.get(COOKIE))
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict")
    return {"referee": False}


@router.get("/session", summary="Is this browser logged in as the referee?")
async def session(request: Request, auth: AuthDep) -> dict[str, Any]:
    return {"referee": auth.sessions.get(request.cookies.get(COOKIE)) is not None}


@router.post("/pause", summary="Pause or resume sensing")
async def pause(body: Pause, table: TableDep, _: Referee) -> dict[str, Any]:
    table.set_paused(body.paused)
    return table.snapshot()


@router.post("/mute", summary="Mute (or unmute) a faulty sensor cell")
async def mute(body: Mute, table: TableDep, _: Referee) -> dict[str, Any]:
    if table.sensing is None:
        raise Refused("no sensor source", "cell")
    try:
        table.sensing.mute(body.cell, body.muted)
    except ValueError as exc:
        raise Refused(str(exc), "cell") from None
    table.tick()
    return table.snapshot()


@router.post("/board/accept", summary="Take the sensed board as the shot of the player due")
async def accept_board(body: Change, table: TableDep, _: Referee) -> dict[str, Any]:
    table.check_seq(body.seq)
    table.accept_board()
    return table.snapshot()


@router.post("/board/restore", summary="Have the board put back to what the match expects")
async def restore_board(body: Change, table: TableDep, _: Referee) -> dict[str, Any]:
    table.check_seq(body.seq)
    table.restore_board()
    return table.snapshot()
