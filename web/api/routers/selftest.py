"""The board self-test on the referee page: start it, follow it, skip a step, stop it, and
the printable check sheet; and the sensor audit across matches. The walk runs in
``web.table.selftest_run``, on the sensing thread; reading it is open like every read,
running it needs the referee's session."""

from __future__ import annotations

import asyncio
import datetime
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, FastAPI, Query, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from scorekeeper.store import MatchStore
from web.api.deps import Referee, TableDep
from web.api.responses import CHANGE_ANSWERS
from web.api.routers.scoreboard import page_route
from web.table.audit_read import read_audit
from web.table.selftest_run import SelfTestRun, StaleStep, stale_run_words, stale_words
from web.table.table import Table
from web_common.i18n import current
from web_common.json_body import CheckedJSONRoute
from web_common.schemas import Described, Strict

if TYPE_CHECKING:
    from web.table.controls import HardwareControls
    from web.tournament.mqtt_table import TableLink

router = APIRouter(tags=["self-test"], route_class=CheckedJSONRoute)


class SelfTestView(Described):
    running: bool = Field(description="A walk is under way (sensing is paused for it).")
    run: int = Field(description="Walks started since the scorekeeper started.")
    saved: bool = Field(description="The last check sheet is on the disk (false: the disk "
                        "refused it, e.g. full; it is kept and written once there is room).")
    walk: dict[str, Any] | None = Field(
        description="The walk: the step to do (`instruction`, `cells`, `answered`), every "
        "step, every cell's changes and result so far, button presses, I2C errors.")
    last: dict[str, Any] | None = Field(
        description="The last check sheet: `board_id`, `date`, `passed`, `summary`, a row "
        "per cell, button and expander.")


class AuditView(Described):
    matches: int = Field(description="Matches looked at (the newest with a step).")
    silent: list[int] = Field(description="Cells unchanged in the last `silent_after` matches.")
    cells: list[dict[str, Any]] = Field(description="Per cell: changes, matches in which it "
                                        "changed, `silent_for`, `flagged` kinds, `muted_in`.")
    fields: list[dict[str, Any]] = Field(description="Per field: sensed shots, amended, rate.")


class Seen(Strict):
    run: int = Field(ge=0, description="The self-test's `run` as shown (409 when another walk "
                     "started or stopped since).")


class Skip(Strict):
    run: int = Field(ge=0, description="The walk's `run` as shown.")
    step: int = Field(ge=0, description="The step's `index` as shown (409 when it moved on).")


def install(app: FastAPI, table: Table, *, controls: HardwareControls | None = None,
            table_link: TableLink | None = None) -> None:
    """The self-test's routes and its run for ``table``; the sheet names the board by its
    tournament id, else its profile's, else the host name."""
    board_id = getattr(table_link, "board_id", None) or table.profile().board_id or \
        socket.gethostname()

    def date() -> str:
        return datetime.datetime.fromtimestamp(table.wall.now()).astimezone().isoformat(
            "T", "seconds")

    app.state.selftest = SelfTestRun(table, table.store.path.parent, board_id, date=date,
                                     controls=controls)
    app.include_router(router)


async def _on_sensing(table: Table, run: SelfTestRun, act: Callable[[], object]) -> Any:
    t = current()  # the request's language: the sensing thread does not carry it

    def job() -> dict[str, Any]:
        act()
        return run.view(t)
    return await asyncio.get_running_loop().run_in_executor(table.feed.thread, job)


def _run(request: Request) -> SelfTestRun:
    return request.app.state.selftest  # type: ignore[no-any-return]


@router.get("/api/selftest", response_model=SelfTestView,
            summary="The board self-test under way, and the last check sheet")
async def view(request: Request, table: TableDep) -> Any:
    return await _on_sensing(table, _run(request), lambda: None)


@router.post("/api/referee/selftest/start", response_model=SelfTestView,
             responses=CHANGE_ANSWERS, summary="Start the board self-test (pauses sensing)")
async def start(body: Seen, request: Request, table: TableDep, _: Referee) -> Any:
    run = _run(request)

    def act() -> None:
        run.check_run(body.run)
        run.start()
    return await _stale_said(table, run, act, stale_run_words)


@router.post("/api/referee/selftest/skip", response_model=SelfTestView,
             responses=CHANGE_ANSWERS, summary="Move on from the step shown")
async def skip(body: Skip, request: Request, table: TableDep, _: Referee) -> Any:
    run = _run(request)
    return await _stale_said(table, run, lambda: run.skip(body.run, body.step), stale_words)


async def _stale_said(table: Table, run: SelfTestRun, act: Callable[[], object],
                      words: Callable[[Any], str]) -> Any:
    """``act``, or, made on an older view of the self-test, 409 saying so with the
    self-test as it is now."""
    try:
        return await _on_sensing(table, run, act)
    except StaleStep as exc:
        t = current()
        message = t.gettext("Someone else moved the self-test on first: it now shows the "
                            "next step") if exc.field == "selftest.step" else words(t)
        return JSONResponse({"detail": words(t), "field": exc.field, "message": message,
                             "selftest": await _on_sensing(table, run, lambda: None)},
                            status_code=409)


@router.post("/api/referee/selftest/stop", response_model=SelfTestView,
             responses=CHANGE_ANSWERS, summary="End the self-test now and keep its sheet")
async def stop(body: Seen, request: Request, table: TableDep, _: Referee) -> Any:
    run = _run(request)

    def act() -> None:
        run.check_run(body.run)
        run.stop()
    return await _stale_said(table, run, act, stale_run_words)


# The check sheet in the language asked for, its catalog for its script.
router.add_api_route("/selftest/sheet", page_route("selftest-sheet.html"), methods=["GET"],
                     include_in_schema=False)


@router.get("/api/sensors/audit", tags=["sensors"], response_model=AuditView,
            summary="Each cell's record over the newest matches and each field's amendments")
async def sensor_audit(table: TableDep, matches: int = Query(20, ge=1, le=500),
                       silent_after: int = Query(3, ge=1, le=100)) -> Any:
    t = current()  # the request's language, for the parts and the flags

    def read() -> dict[str, Any]:
        store = MatchStore(table.store.path)  # its own connection: the writer keeps its own
        try:
            return read_audit(store, table.profile(), last=matches,
                              silent_after=silent_after, t=t).to_json(t)
        finally:
            store.close()
    return await asyncio.to_thread(read)
