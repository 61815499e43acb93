"""The hub's web app: the tournament page, its live snapshot, and the referee's API.

Reading is open to everyone; every change (players, pairing a round, a board for a game, a
command to a board) needs the tournament referee's session: the hub's own PIN buys an
HttpOnly, SameSite=Strict cookie through the board's own login routes (``web_common.auth``).

The page's live feed (``hub.feed``) is refreshed when something changed,
at most once every ``BATCH`` seconds: a burst of events from many boards costs one rebuild of
the cards that changed (the tournament's parts only when the store says they may have), and
one frame, encoded once for every page.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, Protocol, TypeVar

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Request, WebSocket, status
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from hub import view
from hub.feed import Feed
from hub.field_api import pages as field_pages
from hub.field_api import router as field_router
from hub.match_log import match_log as received_log
from hub.offering import offer_games, withdraw
from hub.overlay import router as overlay_router
from hub.printouts import router as print_router
from hub.ratings import router as ratings_router
from hub.request_bodies import (
    BoardChoice,
    Command,
    FormatChoice,
    NewPlayer,
    PairRound,
    SwissRounds,
)
from hub.responses import (
    BoardAssigned,
    CommandSent,
    FormatSet,
    HubHealth,
    HubMatchLog,
    HubState,
    PlannedRounds,
    PlayerAdded,
    PlayerRemoved,
    RoundPaired,
)
from hub.results_api import router as results_router
from hub.said import MARK, Refusal, answered, detail
from hub.tournament import StaleChange, Tournament, TournamentError
from hub.wake import Wake
from scorekeeper.clock import Clock
from scorekeeper.errors import IllegalEventError
from scorekeeper.events import parse_event
from tournament_wire.offer import GameFormat, Offer, OfferError
from tournament_wire.wire import CommandKind, WireError, check_board_id
from web_common.auth import Auth, Referee, RefereeKind, login_router
from web_common.broadcaster import Broadcaster
from web_common.guards import install_guards
from web_common.i18n import SOURCE, LanguageMiddleware, for_request, page_in
from web_common.json_body import CheckedJSONRoute
from web_common.page_files import COMMON, SCRIPT, PageFiles
from web_common.pin import PinStore
from web_common.schemas import PathNumber
from web_common.version import skitter_version

log = logging.getLogger(__name__)
T = TypeVar("T")

STATIC = Path(__file__).parent / "static"
SHARED = {"skitter.css": "text/css", "overlay.css": "text/css", "words.js": SCRIPT,
          "dom.js": SCRIPT, "api.js": SCRIPT, "overlay.js": SCRIPT}
"""The page files both apps' pages use (``web_common/static``), as they are: the board pages' style
sheet and the stream overlay's, and the ES modules the hub's own modules import from ``/shared/``:
the page's words, the DOM builder, the API call and socket, the stream overlay's drawing. A shared
module's own imports (``./words.js``) stay among these."""
BATCH = 0.05
"""Seconds between two refreshes at least, while changes keep coming (a burst is one frame)."""


class CommandSender(Protocol):
    """What the app needs of the MQTT side (``hub.link.HubLink``)."""

    connected: bool

    def problems(self) -> list[str]:
        """What keeps the hub from hearing the boards (a thread stopped or behind, the
        hub's file not writable); empty when all is well."""
        ...

    def send_command(self, board: str, kind: str, *, match_id: int | None = None,
                     correct: dict[str, Any] | None = None, after: int | None = None,
                     seq: int | None = None, offer: Offer | None = None,
                     withdraw: str | None = None) -> str: ...


class Hub:
    """Everything the routes share; one per app."""

    def __init__(self, tournament: Tournament, sender: CommandSender, pins: PinStore,
                 monotonic: Clock, wake: Wake | None = None) -> None:
        """``monotonic`` times the wrong-PIN waits: a clock that never jumps. The referee's
        session expires by the tournament's wall clock: it outlives the process and a
        reboot, which restarts the monotonic clock (a session set back with the clock is
        refused, see ``web_common.sessions``)."""
        self.tournament = tournament
        self.sender = sender
        self.auth = Auth.create(pins, monotonic, who=RefereeKind.HUB,
                                wall=tournament.clock)
        self.broadcaster = Broadcaster()
        self.feed = Feed()
        self._refreshing = threading.Lock()
        self.wake = Wake() if wake is None else wake
        """What the MQTT side calls after each change (``HubLink(on_change=...)``)."""

    def changed(self) -> None:
        """Something changed (any thread): wake the refresher."""
        self.wake()

    def refresh(self) -> str:
        """Rebuild what the store says changed, publish the frame if anything differs, and
        return the whole state at the resulting version (a worker thread's job)."""
        with self._refreshing:
            t = self.tournament
            touched = t.store.take_touched()
            try:
                cards: dict[str, dict[str, Any]] = {}
                if touched.all_boards or touched.boards:
                    only = None if touched.all_boards else touched.boards
                    cards = {c["board"]: c for c in view.boards_view(t, only)}
                parts = view.counters(t, broker_connected=bool(self.sender.connected),
                                      problems=self.sender.problems())
                if touched.tournament:
                    parts.update(view.tournament_parts(t))
            except BaseException:
                t.store.touch_again(touched)  # the next refresh rebuilds it
                raise
            frame = self.feed.update(cards, parts)
            if frame is not None:
                self.broadcaster.publish_frame(frame.delta, frame.full)
            return self.feed.full()

    async def refresher(self) -> None:
        """Refresh on change: at once after a quiet spell, else ``BATCH`` after the last."""
        loop = asyncio.get_running_loop()
        woken = self.wake.listen()  # set already: the first refresh, everything
        last = -BATCH
        while True:
            await woken.wait()
            wait = last + BATCH - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            woken.clear()
            last = loop.time()
            try:
                await run_in_threadpool(self.refresh)
            except Exception:  # the page must outlive one bad rebuild; the next change retries
                log.exception("hub: cannot refresh the page")


async def get_hub(request: Request) -> Hub:
    return request.app.state.hub  # type: ignore[no-any-return]


HubDep = Annotated[Hub, Depends(get_hub)]


pages = APIRouter(tags=["pages"])
api = APIRouter(prefix="/api", tags=["tournament"], route_class=CheckedJSONRoute)


@pages.get("/", include_in_schema=False)
async def index(request: Request) -> HTMLResponse:
    """The hub's page, its texts in the language asked for (``web_common.i18n``)."""
    source = (STATIC / "index.html").read_text(encoding="utf-8")
    return HTMLResponse(page_in(source, for_request(request)),
                        headers={"Vary": "Accept-Language"})


@pages.get("/shared/{name}", include_in_schema=False)
async def shared_file(name: str) -> FileResponse:
    if name not in SHARED:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=f"no shared file {name!r}")
    return FileResponse(COMMON / name, media_type=SHARED[name])


@pages.websocket("/ws")
async def live(websocket: WebSocket) -> None:
    hub: Hub = websocket.app.state.hub
    await hub.broadcaster.serve(websocket)


@pages.get("/healthz", summary="200 while connected to the broker and hearing the boards, "
           "503 otherwise", responses={200: {"model": HubHealth}, 503: {"model": HubHealth}})
async def healthz(hub: HubDep) -> JSONResponse:
    connected = bool(hub.sender.connected)
    problems = hub.sender.problems()
    ok = connected and not problems
    body = {"ok": ok, "broker": "connected" if connected else "not connected",
            "problems": problems}
    return JSONResponse(body, status_code=200 if ok else 503)


@api.get("/hub", response_model=HubState,
         summary="The whole tournament as the page shows it, with its version")
async def hub_state(hub: HubDep) -> Response:
    # Refreshed first, so a change just made shows; the version is the live feed's, so a
    # page that missed a frame starts again from here.
    return Response(await run_in_threadpool(hub.refresh), media_type="application/json")


@api.get("/matches/{board}/{match_id}", response_model=HubMatchLog,
         summary="One match's log as received")
async def match_log(board: str, match_id: PathNumber, hub: HubDep) -> dict[str, Any]:
    log = await run_in_threadpool(received_log, hub.tournament, board, match_id)
    if not log["events"]:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=answered(MARK.gettext(
            "no match {match} of {board}"), match=match_id, board=board))
    return log


def _refused(exc: Exception) -> HTTPException:
    """422 with the refusal's words in the request's language (``said.detail``)."""
    return HTTPException(422, detail=detail(exc))


def _change(hub: Hub, change: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """One change of the tournament (``change(*args, **kwargs)``): made on a stale version, a
    409 saying what changed since; refused, a 422 in the request's words; made, the page is
    woken."""
    try:
        made = change(*args, **kwargs)
    except StaleChange as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=detail(exc)) from None
    except TournamentError as exc:
        raise _refused(exc) from None
    hub.changed()
    return made


@api.post("/players", response_model=PlayerAdded, summary="Register a player")
async def add_player(body: NewPlayer, hub: HubDep, _: Referee) -> dict[str, Any]:
    return {"player": _change(hub, hub.tournament.add_player, body.name)}


@api.delete("/players/{name}", response_model=PlayerRemoved,
            summary="Withdraw a player before the first round")
async def remove_player(name: str, hub: HubDep, _: Referee) -> dict[str, Any]:
    _change(hub, hub.tournament.remove_player, name)
    return {"removed": name}


@api.post("/swiss-rounds", response_model=PlannedRounds,
          summary="Set how many Swiss rounds are played")
async def swiss_rounds(body: SwissRounds, hub: HubDep, _: Referee) -> dict[str, Any]:
    _change(hub, hub.tournament.set_swiss_rounds, body.count, seen=body.seq)
    return {"planned_rounds": hub.tournament.planned_rounds()}


@api.post("/format", response_model=FormatSet,
          summary="Set the tournament's format (before round 1)")
async def set_format(body: FormatChoice, hub: HubDep, _: Referee) -> dict[str, Any]:
    try:
        fmt = GameFormat.from_json(body.model_dump())
        hub.tournament.set_game_format(fmt)
    except (TournamentError, OfferError) as exc:
        raise _refused(exc) from None
    hub.changed()
    return {"format": fmt.to_json(), "words": fmt.words()}


@api.post("/rounds", response_model=RoundPaired,
          summary="Pair the next round (games go to the online boards in order)")
async def pair_round(body: PairRound, hub: HubDep, _: Referee) -> dict[str, Any]:
    boards = [b["board"] for b in hub.tournament.store.boards() if b["online"]]
    try:
        # Swiss pairing of a big field takes a while: off the event loop, so pages and
        # /healthz go on answering meanwhile.
        pairings = await asyncio.to_thread(
            lambda: hub.tournament.pair_next_round(boards, seen=body.seq))
    except TournamentError as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=detail(exc)) from None
    await run_in_threadpool(offer_games, hub.tournament, hub.sender)
    hub.changed()
    return {"round": pairings[0].round, "pairings": len(pairings)}


@api.post("/rounds/{number}/tables/{table}/board", response_model=BoardAssigned,
          summary="Put a game on a board")
async def assign_board(number: PathNumber, table: PathNumber, body: BoardChoice, hub: HubDep,
                       _: Referee) -> dict[str, Any]:
    try:
        board = None if body.board in (None, "") else check_board_id(body.board)
        before = next((p.board for p in hub.tournament.store.pairings(number)
                       if p.table == table), None)
        hub.tournament.assign_board(number, table, board, seen=body.seq)
    except StaleChange as exc:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=detail(exc)) from None
    except (TournamentError, WireError) as exc:
        raise _refused(exc) from None
    if before is not None and before != board:  # the game moved: its old board lets it go
        await run_in_threadpool(withdraw, hub.tournament, hub.sender, before, number, table)
    if board is not None:
        await run_in_threadpool(offer_games, hub.tournament, hub.sender, board)
    hub.changed()
    return {"round": number, "table": table, "board": board}


@api.post("/boards/{board}/command", status_code=status.HTTP_202_ACCEPTED,
          response_model=CommandSent,
          summary="Send a correction or an undo to one board; its answer shows on the page")
async def command(board: str, body: Command, hub: HubDep, _: Referee) -> dict[str, Any]:
    known = {b["board"]: b for b in hub.tournament.store.boards()}
    if board not in known:
        raise HTTPException(status.HTTP_404_NOT_FOUND, detail=answered(MARK.gettext(
            "no board '{board}'"), board=board))
    if not known[board]["online"]:
        raise HTTPException(status.HTTP_409_CONFLICT, detail=answered(
            MARK.gettext("board {board} is offline"), board=board))
    if not hub.sender.connected:
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE,
                            detail=answered(MARK.gettext("the hub is not connected to the broker")))
    correct = None
    if body.kind == CommandKind.CORRECT:
        try:
            correct = parse_event({"correct": body.correct or {}}).to_json()["correct"]
        except IllegalEventError as exc:
            raise _refused(exc) from None
        if not correct or set(correct) == {"reason"}:
            raise _refused(Refusal(MARK.gettext(
                "a correction must set something (score, board, ...)")))
    command_id = hub.sender.send_command(board, body.kind, match_id=body.match_id,
                                         correct=correct, seq=body.seq)
    hub.changed()
    return {"id": command_id, "board": board, "kind": body.kind}


def create_hub_app(hub: Hub, allowed_origins: tuple[str, ...] = (), *,
                   service: Callable[[], Awaitable[None]] | None = None) -> FastAPI:
    """The app; ``hub.wake`` is what the MQTT side calls after each message. ``service``
    runs beside it while it serves: systemd's watchdog (``hub.service``)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.broadcaster.bind(asyncio.get_running_loop())
        task = asyncio.create_task(hub.refresher())
        beside = None if service is None else asyncio.create_task(service())
        try:
            yield
        finally:
            for running in (task, beside):
                if running is not None:
                    running.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await running
            await hub.broadcaster.close_all()

    app = FastAPI(title="skitter tournament hub", version=skitter_version(), lifespan=lifespan)
    app.state.hub = hub
    app.state.auth = hub.auth
    app.include_router(pages)
    app.include_router(api)
    app.include_router(login_router())
    app.include_router(ratings_router)
    app.include_router(results_router)
    app.include_router(print_router)
    app.include_router(overlay_router)
    app.include_router(field_router)
    app.include_router(field_pages)
    app.mount("/static", PageFiles(directory=STATIC), name="static")
    install_guards(app, allowed_origins)
    # each request's refusals in its page's language (web_common.i18n: ?lang=, Accept-Language)
    app.add_middleware(LanguageMiddleware, default=lambda: getattr(app.state, "language", SOURCE))
    return app
