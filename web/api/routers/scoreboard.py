"""The pages, the live state stream and the scoreboard's QR code.

Pages are plain HTML from ``web/static`` (no asset from the internet); they read
``/ws`` and call the JSON API like any other client.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import segno
from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import HTMLResponse, Response

from web.api.deps import TableDep
from web.api.responses import About, download
from web_common.i18n import CURRENT, for_request, page_in
from web_common.page_parts import with_parts
from web_common.version import skitter_version

STATIC = Path(__file__).resolve().parents[2] / "static"
PAGES = {"/": "scoreboard.html", "/referee": "referee.html", "/tablet": "tablet.html",
         "/board": "board.html", "/overlay": "overlay.html"}

router = APIRouter(tags=["pages"])


def page_route(name: str) -> Any:
    """The route of a page of ``web/static``: its parts in place, in the request's language."""
    async def page(request: Request) -> HTMLResponse:
        source = with_parts((STATIC / name).read_text(encoding="utf-8"))
        return HTMLResponse(page_in(source, for_request(request)),
                            headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})
    page.__name__ = f"page_{name.split('.')[0]}"
    return page


for _path, _file in PAGES.items():
    router.add_api_route(_path, page_route(_file), methods=["GET"], include_in_schema=False)


def scoreboard_url(request: Request) -> str:
    """The address spectators should use: the one ``skitter serve`` worked out, else ours."""
    public = getattr(request.app.state, "public_url", None)
    return public or str(request.base_url)


@router.get("/api/about", tags=["about"], response_model=About,
            summary="Addresses of the pages and the source")
async def about(request: Request, table: TableDep) -> dict[str, Any]:
    base = scoreboard_url(request).rstrip("/")
    return {
        "scoreboard": base + "/",
        "pages": {name: base + path for path, name in
                  (("/", "scoreboard"), ("/referee", "referee"), ("/tablet", "tablet"),
                   ("/board", "board"))},
        "source": table.source_name,
        "virtual_board": bool(table.sensing and table.sensing.simulator),
        "version": skitter_version(),
    }


@router.get("/api/qr.svg", tags=["about"], summary="QR code of the scoreboard's address",
            **download("image/svg+xml", "The QR code, an SVG image."))
async def qr(request: Request) -> Response:
    buffer = io.BytesIO()
    segno.make(scoreboard_url(request), error="m").save(
        buffer, kind="svg", scale=6, border=2, dark="#111", light="#fff", xmldecl=False,
    )
    return Response(buffer.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "no-cache"})


@router.websocket("/ws")
async def live_state(websocket: WebSocket) -> None:
    """Open to every reader: the full state now, then every change, each with its ``seq``."""
    await websocket.app.state.broadcaster.serve(websocket, CURRENT.get())
