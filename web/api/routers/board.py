"""The virtual board: taps on the drawing become magnets on the simulated board.

The simulator then feeds the real pipeline (debounce, settle, tracker), so a tap here is
scored exactly as a skitt landing on a real board would be. Simulator only; each tap needs
the referee's session like any change, but no ``seq``: it is a physical act, not a decision
(a real skitt carries none either). Laying the board out is a decision and carries it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial
from typing import Any

from fastapi import APIRouter

from firmware_bridge.simulator import SimulatedBoard
from scorekeeper.errors import because
from web.api.deps import Referee, TableDep
from web.api.responses import CHANGE_ANSWERS, BoardView, Snapshot
from web.api.schemas import BigSpot, BridgeTap, FieldTap, FlickTap, Launch, LayOut
from web.api.writer import on_sensing
from web.table.table import Refused, Table
from web.table.virtual_board import flick_skitt
from web_common.json_body import CheckedJSONRoute

router = APIRouter(prefix="/api/board", tags=["virtual board"], route_class=CheckedJSONRoute)
change = partial(router.post, response_model=Snapshot, responses=CHANGE_ANSWERS)
"""A change: answered with the new state, or one of the refusals."""


async def _act(table: Table, action: Callable[[SimulatedBoard], None],
               seq: int | None = None, boot: str | None = None) -> dict[str, Any]:
    """On the sensing thread: a tap is a physical act, it never waits on the disk."""
    if table.sensing is None:
        raise Refused(because("no sensor source"), "source")
    return await on_sensing(table, lambda: table.on_simulator(action), seq=seq, boot=boot)


@router.get("", response_model=BoardView,
            summary="The board profile and the simulated board")
async def board(table: TableDep) -> dict[str, Any]:
    return table.feed.board_json()


@change("/place", summary="A skitt lands on a field")
async def place(body: FieldTap, table: TableDep, _: Referee) -> dict[str, Any]:
    if table.sensing is None:
        raise Refused(because("no sensor source"), "source")
    def land() -> None:
        for _ in range(body.skitts):
            table.place_skitt(body.field)
    return await on_sensing(table, land)


@change("/remove", summary="A skitt is taken off a field")
async def remove(body: FieldTap, table: TableDep, _: Referee) -> dict[str, Any]:
    def take_off(sim: SimulatedBoard) -> None:
        for _ in range(body.skitts):
            sim.remove_skitt(body.field)
    return await _act(table, take_off)


@change("/big", summary="A big skitt lands on (or leaves) its centre spot")
async def big(body: BigSpot, table: TableDep, _: Referee) -> dict[str, Any]:
    if body.on:
        return await _act(table, lambda sim: sim.place_big(body.player))
    return await _act(table, lambda sim: sim.remove_big(body.player))


@change("/bridge", summary="A skitt lies on (or leaves) the bridge between two fields")
async def bridge(body: BridgeTap, table: TableDep, _: Referee) -> dict[str, Any]:
    a, b = body.fields
    if body.on:
        return await _act(table, lambda sim: sim.bridge(a, b))
    return await _act(table, lambda sim: sim.remove_bridge(a, b))


@change("/launch", summary="A skitt is flicked off a player's launch spot")
async def launch(body: Launch, table: TableDep, _: Referee) -> dict[str, Any]:
    return await _act(table, lambda sim: sim.press_launch(body.player))


@change("/flick", summary="A skitt is flicked off a player's launch spot and rolls in "
                          "(physics board)")
async def flick(body: FlickTap, table: TableDep, _: Referee) -> dict[str, Any]:
    """A physical act like a tap; the skitt then rolls over the cells as the server's clock
    runs, and the shot is scored once the board is still."""
    return await _act(table, lambda sim: flick_skitt(
        sim, body.player, body.speed, math.radians(body.angle), body.lane))


@change("/lay-out", summary="Put the simulated board where the match expects it")
async def lay_out(body: LayOut, table: TableDep, _: Referee) -> dict[str, Any]:
    """A decision (the board as the match expects), so it carries the ``seq`` seen: refused
    (409, saying what changed) when the match changed since."""
    def act(sim: SimulatedBoard) -> None:
        table.check_seq(body.seq)
        table.feed.lay_out()
    return await _act(table, act, seq=body.seq, boot=body.boot)
