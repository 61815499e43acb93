"""A connection flood from one address (127.0.0.1): idle connections that ask for a live
stream and never read. Used by the flood tests (``tests/api/test_hostile_floods.py``) and the
memory benchmark (``bench/flood_memory.py``), so both flood the servers the same way."""

from __future__ import annotations

import contextlib
import selectors
import socket
import time

WEBSOCKET_UPGRADE = ("Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")
"""The headers that ask for a WebSocket (RFC 6455's sample key)."""


BURST = 16
"""Connections opened before the flood waits for the server to answer them: fewer than the
servers' listen backlog (``web_common.serving.BACKLOG``), which the kernel would otherwise
overflow, dropping connection requests that the client then sends again only a second later
(a thousand connections took 25 s instead of one)."""


def flood(port: int, path: str, count: int, *, websocket: bool = False,
          answer_timeout: float = 5.0) -> list[socket.socket]:
    """Up to ``count`` connections to ``path`` on loopback ``port``, each sending one GET (a
    WebSocket upgrade when ``websocket``) and never reading, with a small receive buffer so a
    stream that keeps sending fills it soon; those the server would not take are left out.

    Every :data:`BURST` connections it waits until the server has answered each (an answer
    or a refusal is there to read, unread), up to ``answer_timeout`` seconds a burst. The
    caller closes them (:func:`close_all`)."""
    upgrade = WEBSOCKET_UPGRADE if websocket else ""
    held: list[socket.socket] = []
    burst: list[socket.socket] = []
    for _ in range(count):
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", port))
            s.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n{upgrade}\r\n".encode())
        except OSError:
            s.close()
            continue
        held.append(s)
        burst.append(s)
        if len(burst) == BURST:
            wait_for_answers(burst, answer_timeout)
            burst = []
    wait_for_answers(burst, answer_timeout)
    return held


def wait_for_answers(sockets: list[socket.socket], timeout: float) -> None:
    """Until each of ``sockets`` has something to read, or ``timeout`` seconds have passed."""
    if not sockets:
        return
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as waiting:
        for s in sockets:
            waiting.register(s, selectors.EVENT_READ)
        while waiting.get_map() and (left := deadline - time.monotonic()) > 0:
            for key, _ in waiting.select(left):
                waiting.unregister(key.fileobj)


def refused_with(held: list[socket.socket], status: int) -> int:
    """How many of ``held`` were answered ``status``."""
    count = 0
    for s in held:
        s.settimeout(0.05)
        with contextlib.suppress(OSError):
            if s.recv(64).startswith(f"HTTP/1.1 {status} ".encode()):
                count += 1
    return count


def close_all(held: list[socket.socket]) -> None:
    for s in held:
        s.close()
