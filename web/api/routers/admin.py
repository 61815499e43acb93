"""The referee: pausing sensing, muting cells, the board after a stop.

Logging in with the PIN is :func:`web_common.auth.login_router`, shared with the hub.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter

from scorekeeper.errors import because
from web.api.deps import Referee, TableDep
from web.api.responses import CHANGE_ANSWERS, Snapshot
from web.api.schemas import Answer, Change, Mute, Order, Pause
from web.api.writer import change as change_on_writer
from web.api.writer import on_sensing
from web.table.table import Refused, Table
from web_common.json_body import CheckedJSONRoute

router = APIRouter(prefix="/api/referee", tags=["referee"], route_class=CheckedJSONRoute)
change = partial(router.post, response_model=Snapshot, responses=CHANGE_ANSWERS)
"""A change: answered with the new state, or one of the refusals."""


@change("/pause", summary="Pause or resume sensing")
async def pause(body: Pause, table: TableDep, _: Referee) -> dict[str, Any]:
    """On the owner, so the pause is taken in order with what the sensors did."""
    return await change_on_writer(table, lambda: table.set_paused(body.paused),
                                  seq=body.seq, boot=body.boot, match=False)


@change("/mute", summary="Mute (or unmute) a faulty sensor cell")
async def mute(body: Mute, table: TableDep, _: Referee) -> dict[str, Any]:
    return await on_sensing(table, lambda: _mute(table, body), seq=body.seq, boot=body.boot)


def _mute(table: Table, body: Mute) -> None:
    if table.sensing is None:
        raise Refused(because("no sensor source"), "cell")
    try:
        table.mute(body.cell, body.muted)
    except ValueError as exc:
        raise Refused(str(exc), "cell") from None


@change("/board/accept", summary="Take the sensed board as the shot of the player due")
async def accept_board(body: Change, table: TableDep, _: Referee) -> dict[str, Any]:
    return await change_on_writer(table, table.accept_board, seq=body.seq, boot=body.boot)


@change("/board/answer", summary="Say how many skitts a shot added to a full field")
async def answer(body: Answer, table: TableDep, _: Referee) -> dict[str, Any]:
    """A field as full as its sensors can count holds the shot as a question (issue 24);
    the answer completes it, and it is recorded as the sensed shot."""
    return await change_on_writer(
        table, lambda: table.answer(body.field, body.skitts), seq=body.seq,
        boot=body.boot)


@change("/board/order", summary="Say whose shot a landing as 'turn ended' was pressed was")
async def order(body: Order, table: TableDep, _: Referee) -> dict[str, Any]:
    """A skitt landed too close to a 'turn ended' tap to tell which came first (issue 36):
    the referee says whose shot it was."""
    return await change_on_writer(table, lambda: table.settle_order(body.by), seq=body.seq,
                                  boot=body.boot)


@change("/board/restore", summary="Have the board put back to what the match expects")
async def restore_board(body: Change, table: TableDep, _: Referee) -> dict[str, Any]:
    return await change_on_writer(table, table.restore_board, seq=body.seq, boot=body.boot)


@change("/board/as-expected",
        summary="The board lies as the match expects, whatever the sensors show")
async def board_as_expected(body: Change, table: TableDep, _: Referee) -> dict[str, Any]:
    return await change_on_writer(table, table.board_as_expected, seq=body.seq,
                                  boot=body.boot)


@change("/board/as-sensed", summary="The match takes the board as the sensors see it")
async def board_as_sensed(body: Change, table: TableDep, _: Referee) -> dict[str, Any]:
    return await change_on_writer(table, table.board_as_sensed, seq=body.seq,
                                  boot=body.boot)
