"""The one writer to every live-state WebSocket.

Every message is a *full* state snapshot carrying an increasing ``seq``, so a client never
has to merge anything: it shows the newest snapshot it has. A client joining late gets the
current snapshot first, then every later one in order (one FIFO per client, filled without
awaiting, so no snapshot can overtake another). A client too slow to keep up loses
intermediate snapshots, never the newest one: its backlog is cut down to the latest state.

Each snapshot is encoded to JSON text once, when it is published, and the same text goes to
every client: with 200 screens, encoding per client cost more than everything else. Each
client has its own sender task (the socket's handler), so a client that stops reading
stalls only itself.

The tournament hub sends changes instead (:meth:`Broadcaster.publish_frame`): each frame
needs the ones before it, so a client joining late, or too far behind, gets the full state
the latest frame leads to instead of what it missed.

The same texts also go to readers that are not WebSockets (:meth:`Broadcaster.stream`, the
public Server-Sent Events feed): one outbox per reader either way, one path for both.

Limit (as FastAPI's own ConnectionManager says of itself): this lives in one process. Run
one ``skitter serve`` per board; several worker processes would each have their own
clients and their own sequence.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable, Hashable, Mapping
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

QUEUE_LIMIT = 16
"""Snapshots waiting for one client before its backlog is cut down to the newest."""

PER_MESSAGE_DEFLATE = False
"""What the server running this broadcaster should pass as uvicorn's
``ws_per_message_deflate``. Off: compression is per connection (each keeps its own
window), so one shared text still costs one deflate per client, ~0.1 ms for a 5-12 kB
snapshot; with 200 screens that doubled the sensor-to-screen latency (bench/README.md).
A few snapshots a second of a few kB are nothing on a venue's LAN."""


def encode(snapshot: Mapping[str, Any]) -> str:
    """The text frame for ``snapshot`` (compact, as Starlette's ``send_json`` writes it)."""
    return json.dumps(snapshot, separators=(",", ":"), ensure_ascii=False)


class _Outbox:
    """One client's backlog of encoded snapshots, and the flag that wakes its sender."""

    __slots__ = ("pending", "wake", "stopped", "language")

    def __init__(self, language: str | None = None) -> None:
        self.language = language
        """The language the client asked for when it connected (None: as published)."""
        self.pending: deque[str] = deque()
        self.wake = asyncio.Event()
        self.stopped = False

    def put(self, text: str, resync: str | None = None) -> None:
        """Queue ``text``; a client this far behind skips to ``resync`` (the whole state
        ``text`` leads to; for a snapshot, ``text`` itself)."""
        if len(self.pending) >= QUEUE_LIMIT:
            self.pending.clear()
            text = text if resync is None else resync
        self.pending.append(text)
        self.wake.set()

    def stop(self, *, drop: bool) -> None:
        """End the sender once the backlog is sent (or at once, with ``drop``)."""
        if drop:
            self.pending.clear()
        self.stopped = True
        self.wake.set()


class Broadcaster:
    """Holds the connected sockets and sends each published snapshot to all of them."""

    def __init__(self) -> None:
        self._clients: dict[Hashable, _Outbox] = {}
        self._latest: Mapping[str, Any] | None = None
        self._latest_text: str | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()
        self.translate: Callable[[Mapping[str, Any], str], Mapping[str, Any]] | None = None
        """Makes a snapshot's words in a client's language (set by the app); None: every
        client gets the snapshot as published."""
        self.source_language = "en"
        """The language snapshots are published in (its clients need no translation)."""
        self.sent = 0
        """Messages written so far (for tests and the referee's curiosity)."""

    @property
    def client_count(self) -> int:
        return len(self._clients)

    @property
    def latest(self) -> Mapping[str, Any] | None:
        return self._latest

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """Remember the event loop that owns the sockets (done in the app lifespan)."""
        self._loop = loop

    def publish(self, snapshot: Mapping[str, Any]) -> None:
        """Queue ``snapshot`` for every client; callable from the loop or another thread."""
        text = encode(snapshot)
        with self._lock:
            if self._latest is not None and snapshot.get("seq", 0) <= self._latest.get("seq", 0):
                return  # never send an older state after a newer one
            self._latest, self._latest_text = snapshot, text
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        texts = {None: text, self.source_language: text}
        for language in {o.language for o in list(self._clients.values())} - set(texts):
            texts[language] = self._encode_in(snapshot, language)
        if running is loop:
            self._put_all(texts, snapshot)
        else:
            loop.call_soon_threadsafe(self._put_all, texts, snapshot)

    def _encode_in(self, snapshot: Mapping[str, Any], language: str | None) -> str:
        if language is None or language == self.source_language or self.translate is None:
            return encode(snapshot)
        return encode(self.translate(snapshot, language))

    def _put_all(self, texts: dict[str | None, str], snapshot: Mapping[str, Any]) -> None:
        for outbox in list(self._clients.values()):
            text = texts.get(outbox.language)
            if text is None:  # joined since the snapshot was encoded
                text = texts[outbox.language] = self._encode_in(snapshot, outbox.language)
            outbox.put(text)

    def publish_frame(self, frame: str, resync: str) -> None:
        """Queue ``frame`` (a change, encoded once) for every client; ``resync`` is the
        whole state after it, for clients that join later or fall behind. Frames reach the
        clients in the order they are published, from any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            self._latest_text = resync
            return
        loop.call_soon_threadsafe(self._put_frame, frame, resync)

    def _put_frame(self, frame: str, resync: str) -> None:
        self._latest_text = resync  # set on the loop, so a joining client gets it or the frame
        for outbox in list(self._clients.values()):
            outbox.put(frame, resync)

    async def serve(self, websocket: WebSocket, language: str | None = None) -> None:
        """Accept ``websocket`` and stream snapshots to it, in ``language`` (what the client
        asked for when it connected), until it goes away."""
        await websocket.accept()
        outbox = self._join(websocket, language)
        reader = asyncio.create_task(self._watch_for_close(websocket, outbox))
        try:
            async for text in self._drain(outbox):
                if text is not None:
                    await websocket.send_text(text)
                    self.sent += 1
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # a dead socket: drop it below
        finally:
            self._clients.pop(websocket, None)
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader
            if websocket.client_state == WebSocketState.CONNECTED:
                with contextlib.suppress(Exception):
                    await websocket.close()

    async def stream(self, keepalive: float | None = None,
                     language: str | None = None) -> AsyncIterator[str | None]:
        """The same texts as a WebSocket gets, for a reader that is not one (the SSE feed):
        the latest state first, then every later one, in ``language``; None after
        ``keepalive`` quiet seconds (so the reader can send something that shows whether its
        client is still there). Ends at :meth:`close_all`; the reader is forgotten when the
        iteration stops."""
        key = object()
        outbox = self._join(key, language)
        try:
            async for text in self._drain(outbox, keepalive):
                if text is not None:
                    self.sent += 1
                yield text
        finally:
            self._clients.pop(key, None)

    def _join(self, key: Hashable, language: str | None = None) -> _Outbox:
        """A new reader's outbox, the latest state first (in its ``language``)."""
        outbox = _Outbox(language)
        latest = self._latest
        if latest is not None and language not in (None, self.source_language) \
                and self.translate is not None:
            outbox.put(self._encode_in(latest, language))
        elif self._latest_text is not None:
            outbox.put(self._latest_text)
        self._clients[key] = outbox
        return outbox

    @staticmethod
    async def _drain(outbox: _Outbox, keepalive: float | None = None) -> AsyncIterator[str | None]:
        """Each queued text in order, waiting for more, until the outbox is stopped."""
        while True:
            if not outbox.pending:
                if outbox.stopped:
                    return
                outbox.wake.clear()
                if keepalive is None:
                    await outbox.wake.wait()
                    continue
                try:
                    await asyncio.wait_for(outbox.wake.wait(), keepalive)
                except TimeoutError:
                    yield None
                continue
            yield outbox.pending.popleft()

    async def _watch_for_close(self, websocket: WebSocket, outbox: _Outbox) -> None:
        """Read (and ignore) what the client sends, to notice when it disconnects."""
        try:
            while True:
                message = await websocket.receive()
                if message.get("type") == "websocket.disconnect":
                    break
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        outbox.stop(drop=True)

    async def close_all(self) -> None:
        """Tell every client's sender to stop (server shutdown)."""
        for outbox in list(self._clients.values()):
            outbox.stop(drop=False)
