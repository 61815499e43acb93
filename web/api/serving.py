"""How uvicorn runs the board and the hub: bounded connections, slow clients cut off, calm logs.

uvicorn times out idle keep-alive connections but not a request that trickles in: a client
sending one header byte every 10 s held its connection forever, and 250 of them used up the
file descriptors. Here:

- :class:`TimedH11Protocol` closes a connection whose request (headers and body) has not
  fully arrived ``REQUEST_TIMEOUT`` seconds after it began;
- connections beyond ``limit_concurrency`` are closed as soon as they are accepted, and that
  limit sits below the process's descriptor limit, so accepting never fails with "Too many
  open files";
- :class:`RepeatFilter` lets an identical log line through a few times a minute and then
  counts it, so a flood cannot fill the disk.

``proxy_headers`` stays off unless configured: otherwise any client could claim another
address in ``X-Forwarded-For`` and start afresh with the wrong-PIN throttle.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import signal
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol

from firmware_bridge.clocks import MonotonicClock
from scorekeeper.clock import Clock

REQUEST_TIMEOUT = 5.0
"""Seconds a request may take to arrive in full (a browser sends it in one packet)."""
KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection stays open."""
MAX_CONNECTIONS = 1000
"""Connections served at once, at most (screens' WebSockets count)."""
BACKLOG = 32
"""Listen backlog; asyncio also accepts up to this many sockets in one go before any is
looked at (and again before those are closed), so three times that many descriptors must be
free beyond the connection limit."""
SPARE_DESCRIPTORS = 32 + 3 * BACKLOG
"""Descriptors kept free for the match log, the sensor link, the broker and one accept
burst."""
MAX_HEADER_BYTES = 16 * 1024
"""Bytes of request line and headers h11 buffers before refusing."""
GRACEFUL_SHUTDOWN = 2.0
"""Seconds a stop waits for answers still being sent. The live feed (``/api/events``) never
ends by itself, so without a limit one open reader would hold a stop forever; after this its
stream is cut (an ``EventSource`` reconnects to the restarted server)."""


def connection_limit() -> int:
    """``MAX_CONNECTIONS``, or fewer when the descriptor limit is lower."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, soft - SPARE_DESCRIPTORS))


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline for each request to arrive."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        limit = self.config.limit_concurrency
        if limit is not None and len(self.connections) > limit:
            self.connections.discard(self)
            transport.abort()
            return
        self._start_deadline()

    def data_received(self, data: bytes) -> None:
        if self._deadline is None and self.conn.their_state is h11.IDLE:
            self._start_deadline()  # the next request on a kept-alive connection
        super().data_received(data)
        if self.conn.their_state not in (h11.IDLE, h11.SEND_BODY) or self._upgraded():
            self._stop_deadline()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        super().connection_lost(exc)

    def _start_deadline(self) -> None:
        self._stop_deadline()
        self._deadline = self.loop.call_later(REQUEST_TIMEOUT, self._too_slow)

    def _stop_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _upgraded(self) -> bool:
        """The connection became a WebSocket: its socket is no longer this protocol's (h11
        still says the upgrade request's body may follow, so the deadline would cut it)."""
        return self.transport.get_protocol() is not self

    def _too_slow(self) -> None:
        self._deadline = None
        if (self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self._upgraded()
                and not self.transport.is_closing()):
            self.transport.abort()


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
                  **extra: Any) -> Config:
    """The uvicorn configuration both ``skitter serve`` and ``skitter hub`` run with."""
    config = Config(
        app, host=host, port=port, log_level="warning", lifespan="on",
        http=TimedH11Protocol, proxy_headers=proxy_headers,
        limit_concurrency=connection_limit(), timeout_keep_alive=KEEP_ALIVE, backlog=BACKLOG,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN, **extra,
    )
    quiet_repeats()
    return config


class Stopped(Exception):
    """SIGTERM arrived: unwind like Ctrl-C so the same cleanup runs."""


def stop_on_sigterm() -> None:
    """Make SIGTERM (systemd's stop) raise :class:`Stopped` once uvicorn has shut down.

    uvicorn catches the signal, shuts the app down and then raises it again with the handler
    that was in place before: this one, so the caller's ``finally`` closes the match log.
    """

    def handler(signum: int, frame: object) -> None:
        raise Stopped

    signal.signal(signal.SIGTERM, handler)
