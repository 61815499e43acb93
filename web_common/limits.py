"""How many connections a server holds and how big a WebSocket message may be.

One owner for the caps both servers (``skitter serve`` and ``skitter hub``) run with; the
board reads them from its configuration file, the hub runs with the defaults. The defaults
are far above what a venue of 128 boards, their TVs and tablets and a referee's phone ever
opens, and far below what one address flooding the server would need to crowd them out.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    """The connection and WebSocket caps of one server."""

    per_address: int = 64
    """Connections one client address may hold at once; the next gets 429 and is closed.
    A board's TV, tablet and referee phone are three addresses using a few each."""

    connections: int = 1000
    """Connections the server holds at once (fewer when the process may open fewer files);
    the next gets 503 and is closed."""

    reserved: int = 32
    """Of ``connections``, the last ones kept for a signed-in referee and the TV pages: when
    fewer than this are free, anyone else gets 503."""

    request_seconds: float = 5.0
    """Seconds a request (its line, headers and body) may take to arrive in full once its
    first byte came; a slower one is cut. A browser sends a request in one packet."""

    stall_seconds: float = 30.0
    """A live stream (the event feed, a WebSocket) whose client stops reading is cut after
    its unread answers have filled the buffers for this long."""

    websocket_bytes: int = 64 * 1024
    """Largest WebSocket message a client may send (no page sends more than a few KiB);
    a bigger one closes the socket with code 1009 ("message too big")."""

    websocket_queue: int = 8
    """WebSocket messages waiting for the server to read them before it stops reading."""


DEFAULT_LIMITS = Limits()
