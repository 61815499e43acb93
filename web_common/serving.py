"""How uvicorn runs the board and the hub: bounded connections, slow clients cut off, calm logs.

Everything here sits around uvicorn through public doors (a protocol it is handed, an ASGI
app, its configuration), never inside it:

- :class:`Gate` wraps each connection's protocol. It counts connections by client address
  and in total and answers the one over a cap at once (429 for an address holding
  ``Limits.per_address``, 503 when the server holds ``Limits.connections``) before closing
  it; it closes a connection whose request (headers and body) has not fully arrived
  ``Limits.request_seconds`` after it began (a client sending one header byte every 10 s
  held its connection forever); it refuses request headers over ``MAX_HEADER_BYTES`` with
  431; and it cuts a live stream (the event feed, a WebSocket) whose client stopped reading
  once its unread answers have filled the buffers for ``Limits.stall_seconds``. It follows
  a connection that became a WebSocket, so the counts stay right until it closes.
- :class:`Guard` (ASGI) keeps the last ``Limits.reserved`` connections for the signed-in
  referee and the TV pages: when fewer are free, anyone else gets 503.
- WebSocket messages are capped at ``Limits.websocket_bytes`` (uvicorn's ``ws_max_size``;
  a bigger one closes the socket with 1009) and ``Limits.websocket_queue`` waiting ones.
- the connection cap sits below the process's descriptor limit, so accepting never fails
  with "Too many open files";
- :class:`RepeatFilter` lets an identical log line through a few times a minute and then
  counts it, so a flood cannot fill the disk.

``proxy_headers`` stays off unless configured: otherwise any client could claim another
address in ``X-Forwarded-For`` and start afresh with the wrong-PIN throttle. Behind a proxy
every connection comes from the proxy's address, so the per-address cap is left to it.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections import Counter
from collections.abc import Callable
from typing import Any

import h11
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.config import Config

from firmware_bridge.clocks import MonotonicClock
from scorekeeper.clock import Clock
from web_common.limits import DEFAULT_LIMITS, Limits
from web_common.sessions import cookie_name

KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection stays open."""
MAX_CONNECTIONS = DEFAULT_LIMITS.connections
"""Connections served at once, at most (screens' WebSockets count)."""
BACKLOG = 32
"""Listen backlog; asyncio also accepts up to this many sockets in one go before any is
looked at (and again before those are closed), so three times that many descriptors must be
free beyond the connection limit."""
SPARE_DESCRIPTORS = 32 + 3 * BACKLOG
"""Descriptors kept free for the match log, the sensor link, the broker and one accept
burst."""
MAX_HEADER_BYTES = 16 * 1024
"""Bytes of request line and headers a request may have; more gets 431."""
GRACEFUL_SHUTDOWN = 2.0
"""Seconds a stop waits for answers still being sent. The live feed (``/api/events``) never
ends by itself, so without a limit one open reader would hold a stop forever; after this its
stream is cut (an ``EventSource`` reconnects to the restarted server)."""
RESERVED_PATHS = ("/overlay", "/api/events", "/static/", "/shared/", "/favicon")
"""What the TV pages load (the board's overlay and feed, the hub's overlay): served from the
reserve like a signed-in referee."""
RETRY_AFTER = 10
"""Seconds a refused client is asked to wait before trying again."""


def connection_limit(wanted: int = MAX_CONNECTIONS) -> int:
    """``wanted``, or fewer when the descriptor limit is lower."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(8, min(wanted, soft - SPARE_DESCRIPTORS))


REFUSALS = {
    429: "Too many connections from your address; close some pages and try again.",
    431: "The request's headers are too large.",
    503: "The server is full; try again in a few seconds.",
}
"""What a client over a cap reads (a person sees it only when a page is opened by hand)."""
REASONS = {429: "Too Many Requests", 431: "Request Header Fields Too Large",
           503: "Service Unavailable"}


def refusal(status: int) -> bytes:
    """The whole HTTP answer to a connection refused before its request was read."""
    body = (REFUSALS[status] + "\n").encode()
    return (f"HTTP/1.1 {status} {REASONS[status]}\r\n"
            f"content-type: text/plain; charset=utf-8\r\ncontent-length: {len(body)}\r\n"
            f"retry-after: {RETRY_AFTER}\r\nconnection: close\r\n\r\n").encode() + body


class Connections:
    """The open connections of one server, by client address and in total."""

    def __init__(self, limits: Limits, *, per_address: bool = True) -> None:
        self.limits = limits
        self.total = connection_limit(limits.connections)
        self.per_address = per_address
        self.by_address: Counter[str] = Counter()
        self.open = 0

    def admit(self, address: str) -> int | None:
        """Count a new connection from ``address``; or the status refusing it."""
        if self.open >= self.total:
            return 503
        if self.per_address and self.by_address[address] >= self.limits.per_address:
            return 429
        self.open += 1
        self.by_address[address] += 1
        return None

    def release(self, address: str) -> None:
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]

    def crowded(self) -> bool:
        """Only the reserve is left: the referee and the TV pages only."""
        return self.open > self.total - min(self.limits.reserved, self.total // 2)


class Gate(asyncio.Protocol):
    """One connection: admitted or refused, its requests on time, its streams read.

    Everything it hears goes on to ``inner`` (the protocol uvicorn would have used), unless
    it closes the connection instead.
    """

    def __init__(self, inner: asyncio.Protocol, connections: Connections) -> None:
        self.inner = inner
        self.connections = connections
        self.transport: asyncio.Transport | None = None
        self.address = ""
        self.admitted = False
        self.upgraded = False
        self.request: h11.Connection | None = None
        """Reads the request arriving (alongside uvicorn's own reading) to know where it
        ends; None between requests."""
        self.received = 0
        self.deadline: asyncio.TimerHandle | None = None
        self.stall: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        status = self.connections.admit(self.address)
        if status is not None:
            transport.write(refusal(status))
            transport.close()
            return
        self.admitted = True
        self.inner.connection_made(transport)
        self._start_deadline()  # a connection that never sends a request is cut too

    def data_received(self, data: bytes) -> None:
        if not self.admitted or self.transport is None or self.transport.is_closing():
            return
        if not self.upgraded and not self._watch(data):
            return
        self.inner.data_received(data)
        switched = self.transport.get_protocol()
        if not self.upgraded and switched is not self:
            # uvicorn handed the socket to its WebSocket protocol: stay in front of it
            self.upgraded = True
            self._stop_deadline()
            self.inner = switched  # type: ignore[assignment]
            self.transport.set_protocol(self)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        if self.stall is not None:
            self.stall.cancel()
            self.stall = None
        if self.admitted:
            self.admitted = False
            self.connections.release(self.address)
            self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        """The client is not reading what it is sent: cut it if it stays so."""
        if self.stall is None and self.admitted:
            loop = asyncio.get_running_loop()
            self.stall = loop.call_later(self.connections.limits.stall_seconds, self._abort)
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.stall is not None:
            self.stall.cancel()
            self.stall = None
        self.inner.resume_writing()

    def _watch(self, data: bytes) -> bool:
        """Follow the request(s) in ``data``; False when the connection was refused."""
        if self.request is None:  # a new request begins
            self.request = h11.Connection(h11.SERVER,
                                          max_incomplete_event_size=MAX_HEADER_BYTES)
            self.received = 0
            self._start_deadline()
        self.request.receive_data(data)
        self.received += len(data)
        while True:
            try:
                event = self.request.next_event()
            except h11.RemoteProtocolError as exc:
                if exc.error_status_hint == 431:
                    return self._refuse(431)
                self._between_requests()  # uvicorn answers the bad request itself
                return True
            if event is h11.NEED_DATA or event is h11.PAUSED:
                return True
            if isinstance(event, h11.Request):
                head = self.received - len(self.request.trailing_data[0])
                if head > MAX_HEADER_BYTES:
                    return self._refuse(431)
                if any(name == b"upgrade" for name, _ in event.headers):
                    self._between_requests()  # what follows is WebSocket frames, not HTTP
                    return True
            elif isinstance(event, h11.EndOfMessage):
                rest, _ = self.request.trailing_data
                self._between_requests()
                return self._watch(rest) if rest else True
            elif isinstance(event, h11.ConnectionClosed):
                self._between_requests()
                return True

    def _between_requests(self) -> None:
        self.request = None
        self._stop_deadline()  # uvicorn's keep-alive timeout covers the wait for the next

    def _refuse(self, status: int) -> bool:
        assert self.transport is not None
        self._between_requests()
        self.transport.write(refusal(status))
        self.transport.close()
        return False

    def _start_deadline(self) -> None:
        if self.deadline is None:
            loop = asyncio.get_running_loop()
            self.deadline = loop.call_later(self.connections.limits.request_seconds,
                                            self._too_slow)

    def _stop_deadline(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        self.deadline = None
        if not self.upgraded:
            self._abort()

    def _abort(self) -> None:
        self.stall = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()


def gated(inner: Callable[..., asyncio.Protocol],
          connections: Connections) -> Callable[..., asyncio.Protocol]:
    """A protocol factory for uvicorn: ``inner``'s protocol behind a :class:`Gate`."""

    def make(**kwargs: Any) -> asyncio.Protocol:
        return Gate(inner(**kwargs), connections)

    return make


class Guard:
    """ASGI: when only the reserve is left, serve the signed-in referee and the TV pages and
    answer anyone else 503 (a WebSocket is refused before it opens)."""

    def __init__(self, app: ASGIApp, connections: Connections) -> None:
        self.app = app
        self.connections = connections

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and self.connections.crowded() \
                and not self.reserved(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1013})  # try again later
                return
            body = (REFUSALS[503] + "\n").encode()
            await send({"type": "http.response.start", "status": 503, "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(RETRY_AFTER).encode()), (b"connection", b"close")]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)

    def reserved(self, scope: Scope) -> bool:
        """A TV page's request, or one carrying a live referee session."""
        if str(scope.get("path", "")).startswith(RESERVED_PATHS):
            return True
        auth = getattr(getattr(self.app, "state", None), "auth", None)
        if auth is None:
            return False
        connection = HTTPConnection(scope)
        port = connection.url.port
        return auth.sessions.get(connection.cookies.get(cookie_name(port)), port) is not None


class RepeatFilter(logging.Filter):
    """Passes an identical message ``burst`` times per ``window`` seconds, then counts it."""

    def __init__(self, burst: int = 5, window: float = 60.0,
                 clock: Clock | None = None) -> None:
        super().__init__()
        self.clock = MonotonicClock() if clock is None else clock
        self.burst = burst
        self.window = window
        self._seen: dict[tuple[str, int, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock.now()
        start, count = self._seen.get(key, (now, 0))
        if now - start >= self.window:
            if count > self.burst:
                record.msg = f"{record.msg} (and {count - self.burst} more like it, not shown)"
            start, count = now, 0
        if len(self._seen) > 1000:
            self._seen.clear()
        self._seen[key] = (start, count + 1)
        return count < self.burst


def quiet_repeats() -> None:
    """Install one :class:`RepeatFilter` on the root's handlers and uvicorn's (call after
    uvicorn's ``Config`` set up its logging): asyncio's accept errors, uvicorn's, ours."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    shared = RepeatFilter()
    for name in ("", "uvicorn", "uvicorn.access"):
        for handler in logging.getLogger(name).handlers:
            handler.addFilter(shared)


def server_config(app: Any, host: str, port: int, *, proxy_headers: bool = False,
                  limits: Limits = DEFAULT_LIMITS, **extra: Any) -> Config:
    """The uvicorn configuration both ``skitter serve`` and ``skitter hub`` run with."""
    connections = Connections(limits, per_address=not proxy_headers)
    config = Config(
        Guard(app, connections), host=host, port=port, log_level="warning", lifespan="on",
        http="h11", proxy_headers=proxy_headers, limit_concurrency=None,
        timeout_keep_alive=KEEP_ALIVE, backlog=BACKLOG,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        ws_max_size=limits.websocket_bytes, ws_max_queue=limits.websocket_queue,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN, **extra,
    )
    config.load()  # resolves "h11" to uvicorn's protocol, which the gate then wraps
    config.http_protocol_class = gated(config.http_protocol_class,  # type: ignore[assignment]
                                       connections)
    quiet_repeats()
    return config
