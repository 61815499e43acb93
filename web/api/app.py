"""The FastAPI application: routers assembled, errors mapped, the polling loop started.

:func:`create_app` takes a ready :class:`~web.table.table.Table` (``skitter serve`` builds it from
the settings; tests build it from fakes), so the app itself reads no settings and no clock.
Its collaborators come in with it, built beforehand: the broadcaster the table was given as
its publisher, and optionally the tournament link and the board's GPIO controls. Nothing is
attached to the table or the app afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from concurrent.futures import Executor, Future
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse

from firmware_bridge.simulator import SimulatorError
from scorekeeper.store import StoreUnwritable
from scorekeeper.words import refusal
from skibbitt_app.server import router as puzzle_router
from web.api.docs import install_docs
from web.api.routers import (
    admin,
    board,
    caller,
    health,
    match_api,
    review,
    scoreboard,
    selftest,
    stats,
    stream,
)
from web.caller.caller import LANGUAGES, Caller
from web.caller.speech import Speech
from web.stats.history import History
from web.table.snapshot import worded
from web.table.table import Refused, Stale, Table
from web_common.auth import Auth, login_router
from web_common.broadcaster import Broadcaster
from web_common.guards import install_guards
from web_common.i18n import SOURCE, LanguageMiddleware, current
from web_common.page_files import PageFiles
from web_common.version import skitter_version

if TYPE_CHECKING:
    from web.table.controls import HardwareControls
    from web.tournament.mqtt_table import TableLink
    from web_common.watchdog import Watchdog

log = logging.getLogger("skitter.web")

POLL_INTERVAL = 0.02
"""Seconds between regular polling steps (debounce is 20 ms, settle 300 ms by default)."""
WAKE_MARGIN = 0.0002
"""Seconds added to a wake-up at the settle deadline, so float sums land on its far side."""


def create_app(
    table: Table,
    auth: Auth,
    broadcaster: Broadcaster,
    *,
    table_link: TableLink | None = None,
    controls: HardwareControls | None = None,
    caller_language: str = LANGUAGES[0],
    language: str = SOURCE,
    poll_interval: float | None = POLL_INTERVAL,
    public_url: str | None = None,
    allowed_origins: tuple[str, ...] = (),
    watchdog: Watchdog | None = None,
) -> FastAPI:
    """The app for ``table``, whose snapshots go to ``broadcaster`` (the table was built with
    its ``publish``, see :func:`web.table.wiring.open_table`). ``table_link``: the tournament
    broker's link, started with the app; ``controls``: the board's GPIO buttons and LEDs,
    polled with the sensors. ``poll_interval`` None: no polling task (tests tick by hand).
    ``watchdog``: systemd's, told when serving and fed while the loop, the writer and the
    sensing thread answer."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        broadcaster.bind(asyncio.get_running_loop())
        broadcaster.publish(table.snapshot())
        if table_link is not None:
            table_link.start(table)
        task = None
        if poll_interval is not None:
            # Sensing on its own thread; the store's recheck, a waiting step's timer and the
            # buttons (which change the match) on the owner.
            writer_steps = [table.recheck_store, table.timers]
            if controls is not None:
                writer_steps.append(controls.poll)
            task = asyncio.create_task(
                poll_loop([table.poll], poll_interval, table.seconds_to_rest,
                          thread=table.feed.thread, writer=table.writer,
                          writer_steps=writer_steps),
                name="skitter-poll",
            )
        guard = None
        if watchdog is not None:
            guard = asyncio.create_task(watchdog.run([table.writer, table.feed.thread]),
                                        name="skitter-watchdog")
        try:
            yield
        finally:
            if guard is not None:
                watchdog.stopping()  # type: ignore[union-attr]
                guard.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await guard
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            if table_link is not None:
                table_link.stop()
            await broadcaster.close_all()

    app = FastAPI(
        title="skitter scorekeeper",
        summary="Live scoreboard, referee display and tablet for skitter.",
        description="Reading is open to all; every change needs the referee's session "
        "(POST /api/referee/login) and carries the `seq` it was made against.",
        version=skitter_version(),
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    install_docs(app)
    app.state.table = table
    app.state.auth = auth
    app.state.broadcaster = broadcaster
    app.state.public_url = public_url
    app.state.language = language
    broadcaster.translate = worded
    for router in (scoreboard.router, match_api.router, login_router(), admin.router,
                   board.router, health.router, review.router, stream.router):
        app.include_router(router)
    # The caller (speech) and players' history live beside the match log, in their own modules.
    app.state.caller = Caller(Speech(table.store.path.parent / "speech"), caller_language)
    app.state.history = History(table.store.path)
    app.include_router(caller.router)
    app.include_router(stats.router)
    # Skibbitt, the puzzle for the wait between matches: a product of its own, at /puzzle.
    app.include_router(puzzle_router())
    selftest.install(app, table, controls=controls, table_link=table_link)
    # The board's own page files, and the ones both apps' pages use (web_common/static).
    app.mount("/static", PageFiles(directory=scoreboard.STATIC,
                                   packages=[("web_common", "static")]), name="static")
    _install_error_handlers(app)
    install_guards(app, allowed_origins)
    app.add_middleware(LanguageMiddleware, default=lambda: app.state.language)
    return app


def _install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(Refused)
    async def refused(request: Request, exc: Refused) -> JSONResponse:
        names = request.app.state.table.names if exc.names is None else exc.names
        return JSONResponse(
            {"detail": str(exc), "field": exc.field, "rule": exc.rule,
             "message": refusal(exc.why, names, current()),
             "plain": refusal(exc.why, names, current(), ruling=False)},
            status_code=422,
        )

    @app.exception_handler(SimulatorError)
    async def simulator(request: Request, exc: SimulatorError) -> JSONResponse:
        names = request.app.state.table.names
        return JSONResponse(
            {"detail": str(exc), "field": "board",
             "message": refusal(exc.why, names, current()),
             "plain": refusal(exc.why, names, current(), ruling=False)},
            status_code=422,
        )

    @app.exception_handler(StoreUnwritable)
    async def unwritable(request: Request, exc: StoreUnwritable) -> JSONResponse:
        # Nothing of the step was kept or applied; the pages show the same message.
        table: Table = request.app.state.table
        return JSONResponse({"detail": str(exc), "state": worded(table.published)},
                            status_code=503)

    @app.exception_handler(Stale)
    async def stale(request: Request, exc: Stale) -> JSONResponse:
        table: Table = request.app.state.table
        return JSONResponse(
            {"detail": str(exc), "state": worded(table.published),
             "meanwhile": exc.what or table.meanwhile(exc.seq, current())},
            status_code=409,
        )


async def poll_loop(
    steps: list[Callable[[], object]],
    interval: float,
    rest_in: Callable[[], float | None] = lambda: None,
    *,
    thread: Executor | None = None,
    writer: Executor | None = None,
    writer_steps: list[Callable[[], object]] | None = None,
) -> None:
    """The polling loop: nothing a sensor or a button sends may stop it.

    It runs the steps every ``interval`` (the source must be asked for new events), and
    also the moment the board comes to rest (``rest_in``: seconds until then), because a
    settled reading is what the screens wait for: waking only on the regular beat would add
    up to a whole interval to every shot's latency.

    The steps run on ``thread`` (the table's sensing thread), which never waits on the disk:
    a shot it concludes goes on to the writer. ``writer_steps`` (the store's recheck, the
    buttons) are handed to ``writer`` on each beat without being waited for, and only once
    the previous round has finished: a stalled disk holds them up, not the loop or sensing.

    :func:`create_app` runs it on the table; it is public because its timing is a contract
    of its own, checked beat by beat with a scripted ``rest_in``: on a served app's real
    clock, waking at the settle deadline instead of the next beat is a few milliseconds that
    a loaded machine hides.
    """
    loop = asyncio.get_running_loop()

    def run_steps() -> float | None:
        for step in steps:
            step()
        return rest_in()

    def run_writer_steps() -> None:
        for step in writer_steps or ():
            step()

    failures = writer_failures = 0
    queued: Future[None] | None = None
    while True:
        delay = interval
        if writer is not None and writer_steps and (queued is None or queued.done()):
            if queued is not None and queued.exception() is not None:
                writer_failures += 1
                if _worth_logging(writer_failures):
                    log.error("polling step on the writer failed (%d in a row)",
                              writer_failures, exc_info=queued.exception())
            elif queued is not None:
                writer_failures = 0
            queued = writer.submit(run_writer_steps)
        try:
            if thread is None:
                left = run_steps()
            else:
                left = await loop.run_in_executor(thread, run_steps)
            failures = 0
            if left is not None and left < interval:
                delay = left + WAKE_MARGIN
        except Exception:  # noqa: BLE001 - logged, counted, and the loop goes on
            failures += 1
            if _worth_logging(failures):
                log.exception("polling step failed (%d in a row)", failures)
        await asyncio.sleep(delay)


def _worth_logging(failures: int) -> bool:
    """Log the 1st, 10th, 100th and every 1000th failure in a row, not every beat's."""
    return failures in (1, 10, 100) or failures % 1000 == 0
