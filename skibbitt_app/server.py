"""The puzzle page's server: the static page and two answers, a new puzzle and the daily one.

:func:`router` is mounted by ``skitter serve`` (at ``/puzzle``) and by :func:`create_app`, the
standalone app ``skibbitt serve`` runs. Puzzles are generated here and sent with every
Triplitt of the deal scored, so the page never computes a score itself.
"""

from __future__ import annotations

import datetime
import secrets
from importlib import metadata
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response

from skibbitt.generator import daily, generate
from skibbitt.puzzle import parse_difficulty
from skibbitt.tiles import TileError
from skibbitt_app.wire import page_json

WEB = Path(__file__).resolve().parent / "web"
"""The page's files (package data)."""

FILES = {"skibbitt.js": "text/javascript", "words.js": "text/javascript",
         "skibbitt.css": "text/css", "how-to-play.html": "text/html",
         "index.html": "text/html"}


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
    def bare(request: Request) -> Response:
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(url=request.url.path + "/" + query)

    @r.get("/puzzle/", include_in_schema=False)
    def page() -> Response:
        return FileResponse(WEB / "index.html", media_type="text/html")

    @r.get("/puzzle/api/new", summary="A new Skibbitt puzzle (the same seed, the same puzzle)")
    def new(difficulty: str = "standard", seed: int | None = None) -> Response:
        try:
            level = parse_difficulty(difficulty)
        except TileError as e:
            return _refused(str(e))
        if seed is None:
            seed = secrets.randbelow(2**48)
        return JSONResponse(page_json(generate(level, seed), "single"))

    @r.get("/puzzle/api/daily", summary="The day's Skibbitt puzzle, the same for everyone")
    def day(date: str, difficulty: str = "standard") -> Response:
        try:
            level = parse_difficulty(difficulty)
            when = datetime.date.fromisoformat(date)
        except TileError as e:
            return _refused(str(e))
        except ValueError:
            return _refused(f"unknown date {date!r}: write it as YYYY-MM-DD")
        return JSONResponse({**page_json(daily(when, level), "daily"), "date": when.isoformat()})

    @r.get("/puzzle/api/about", summary="The puzzle's version")
    def about() -> dict[str, Any]:
        return {"version": _version()}

    @r.get("/puzzle/{name}", include_in_schema=False)
    def asset(name: str) -> Response:
        if name not in FILES:
            return JSONResponse({"detail": f"no such file: {name}"}, status_code=404)
        return FileResponse(WEB / name, media_type=FILES[name])

    return r


def create_app() -> FastAPI:
    """The puzzle on its own: ``/`` leads to ``/puzzle/``."""
    app = FastAPI(title="Skibbitt", docs_url=None, redoc_url=None, openapi_url=None)
    app.include_router(router())

    @app.get("/", include_in_schema=False)
    def home(request: Request) -> Response:
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(url="/puzzle/" + query)

    return app


def serve(host: str, port: int) -> None:
    import uvicorn

    print(f"Skibbitt: open http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}"
          f":{port}/puzzle/", flush=True)
    uvicorn.run(create_app(), host=host, port=port, log_level="warning")
