"""The puzzle page's server: the static page and two answers, a new puzzle and the daily one.

:func:`router` is mounted by ``skitter serve`` and by :func:`create_app`, the standalone app
``skibbitt serve`` runs; both serve it at ``/puzzle/`` (the page names its files and calls
from there). Puzzles are generated here and sent with every Triplitt of the deal scored, so
the page never computes a score itself.
"""

from __future__ import annotations

import datetime
import secrets
import socket
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, HTTPException, Query
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, Field

from skibbitt.generator import daily, generate
from skibbitt.puzzle import parse_difficulty
from skibbitt.tiles import TileError
from skibbitt_app.wire import page_json
from web_common.stop import StopSignals

WEB = Path(__file__).resolve().parent / "web"
"""The page's files (package data)."""

FILES = {"skibbitt.js": "text/javascript", "words.js": "text/javascript",
         "tile-art.js": "text/javascript", "sound.js": "text/javascript",
         "how-to-play.js": "text/javascript", "skibbitt.css": "text/css",
         "how-to-play.html": "text/html", "index.html": "text/html"}
MAX_SEED = 2**63


class TileAnswer(BaseModel):
    code: str = Field(description="The tile's notation, like R1A.")
    color: int = Field(description="Its colour's position, 1 (Red) to 6 (Purple).")
    shape: int = Field(description="Its shape's side count, 1 to 6.")
    letter: int = Field(description="Its letter's position, 1 (A) to 6 (F).")


class TriplittAnswer(BaseModel):
    name: str
    score: int
    rating: str


class PuzzleAnswer(BaseModel):
    """A puzzle for the page: the command's answer plus what the page plays from."""

    difficulty: str
    rounds: list[list[str]] = Field(description="Round 1's tiles, then each round's new tiles.")
    best: list[list[str]]
    best_scores: list[int]
    max_score: int
    kind: str = Field(description="single or daily")
    seed: int
    best_names: list[str]
    tiles: list[TileAnswer] = Field(description="Every dealt tile, round by round.")
    triplitts: dict[str, TriplittAnswer] = Field(
        description="Every Triplitt of the deal, keyed by its tiles' indices in `tiles`, "
        "ascending and joined by commas.")
    date: str | None = Field(default=None, description="The daily puzzle's date.")


class AboutAnswer(BaseModel):
    version: str


class PuzzleRefusal(BaseModel):
    detail: str = Field(description="What was wrong, in words.")


REFUSED: dict[int | str, dict[str, Any]] = {
    400: {"model": PuzzleRefusal, "description": "An unknown difficulty or date."}}


def _version() -> str:
    try:
        return metadata.version("skitter-scorekeeper")
    except metadata.PackageNotFoundError:
        return "unknown"


def _refused(message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=400)


def router() -> APIRouter:
    r = APIRouter()

    @r.get("/puzzle", include_in_schema=False)
    @r.get("/puzzle/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(WEB / "index.html", media_type="text/html")

    @r.get("/puzzle/api/new", response_model=PuzzleAnswer, responses=REFUSED,
           summary="A new Skibbitt puzzle (the same seed, the same puzzle)")
    def new(difficulty: Annotated[str, Query(max_length=20)] = "standard",
            seed: Annotated[int | None, Query(ge=0, lt=MAX_SEED)] = None) -> Any:
        try:
            level = parse_difficulty(difficulty)
        except TileError as e:
            return _refused(str(e))
        chosen = secrets.randbelow(2**48) if seed is None else seed
        return page_json(generate(level, chosen), "single")

    @r.get("/puzzle/api/daily", response_model=PuzzleAnswer, responses=REFUSED,
           summary="The day's Skibbitt puzzle, the same for everyone")
    def day(date: Annotated[str, Query(max_length=20)],
            difficulty: Annotated[str, Query(max_length=20)] = "standard") -> Any:
        try:
            level = parse_difficulty(difficulty)
            when = datetime.date.fromisoformat(date)
        except TileError as e:
            return _refused(str(e))
        except ValueError:
            return _refused(f"unknown date {date!r}: write it as YYYY-MM-DD")
        return {**page_json(daily(when, level), "daily"), "date": when.isoformat()}

    @r.get("/puzzle/api/about", response_model=AboutAnswer, summary="The puzzle's version")
    def about() -> dict[str, Any]:
        return {"version": _version()}

    @r.get("/puzzle/{name}", include_in_schema=False)
    def asset(name: str) -> FileResponse:
        if name not in FILES:
            raise HTTPException(status_code=404, detail=f"no such file: {name}")
        return FileResponse(WEB / name, media_type=FILES[name])

    return r


def create_app() -> FastAPI:
    """The puzzle on its own: the page at ``/`` as at ``/puzzle/``."""
    app = FastAPI(title="Skibbitt", docs_url=None, redoc_url=None, openapi_url=None)
    app.include_router(router())

    @app.get("/", include_in_schema=False)
    def home() -> FileResponse:
        return FileResponse(WEB / "index.html", media_type="text/html")

    return app


class ServeError(Exception):
    """The page cannot be served (the port is taken, the address is not this machine's)."""


def serve(host: str, port: int) -> None:
    """Serve the puzzle until interrupted. The socket is bound first, so a taken port is
    told in one sentence before anything else happens."""
    import uvicorn

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        raise ServeError(f"cannot listen on {host} port {port} ({e.strerror}); "
                         "choose another with --port") from None
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    # A Ctrl-C (or SIGTERM) stops it from here on, even when it was started with Ctrl-C
    # ignored (a script's `skibbitt serve &`): uvicorn takes the signal over only once it
    # serves (web_common.stop).
    stop = StopSignals()
    stop.catch()
    try:
        print(f"Skibbitt: open http://{shown}:{port}/puzzle/", flush=True)
        server = uvicorn.Server(uvicorn.Config(create_app(), log_level="warning"))
        stop.serve(server, sockets=[sock])
    finally:
        sock.close()
    print("Skibbitt: stopped", flush=True)
