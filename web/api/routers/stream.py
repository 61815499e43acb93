"""For what runs beside the table at an event: the stream overlay page and the public feed.

``/overlay`` is a page for a streaming tool's browser source (transparent, nothing to click);
``/api/events`` sends the same states as ``/ws`` as Server-Sent Events, for tools that would
rather read a plain HTTP stream than speak WebSocket. Both are read-only and open to all,
like every read.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from web.api.responses import Snapshot
from web_common.broadcaster import Broadcaster
from web_common.i18n import CURRENT

KEEPALIVE = 15.0
"""Seconds of quiet after which the feed sends a comment line: proxies keep the stream open,
and a reader that went away is noticed when the write fails."""
RETRY_MS = 2000
"""What the feed asks an ``EventSource`` to wait before it reconnects."""

router = APIRouter()


class EventStream(StreamingResponse):
    media_type = "text/event-stream"


def sse_frames(texts: AsyncIterator[str | None]) -> AsyncIterator[str]:
    """Server-Sent Events for the broadcaster's encoded states: each one ``event: state`` with
    the JSON on one ``data:`` line (compact JSON holds no line break), a comment for each quiet
    spell."""

    async def frames() -> AsyncIterator[str]:
        yield f"retry: {RETRY_MS}\n\n"
        async for text in texts:
            yield ": still here\n\n" if text is None else f"event: state\ndata: {text}\n\n"

    return frames()


@router.get(
    "/api/events", tags=["state"], response_class=EventStream,
    summary="The live state as Server-Sent Events (read-only, open to all)",
    responses={200: {
        "model": Snapshot,
        "description": "A `text/event-stream` that never ends: first the current state, then "
        "every change, each as an event named `state` whose `data` is one JSON line, the same "
        "`Snapshot` as `GET /api/state` and every `/ws` message (`seq` increases; a new `boot` "
        "means the scorekeeper restarted). A reader too slow to keep up skips to the newest "
        "state. Quiet spells send a comment line (`: still here`). After a drop, reconnect: "
        "the first event is the whole current state, so nothing needs replaying "
        "(`Last-Event-ID` is not used). The words in it follow `?lang=` (else the reader's "
        "`Accept-Language`, else the venue's language), as on `/ws`.",
    }},
)
async def events(request: Request) -> EventStream:
    broadcaster: Broadcaster = request.app.state.broadcaster
    return EventStream(
        sse_frames(broadcaster.stream(KEEPALIVE, CURRENT.get())),
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
