"""uvicorn serving an app in a thread of the test's process, on a socket the OS gave a port.

The socket is bound (port 0) and listening before uvicorn starts, so no port is probed and
none can be taken by another worker; uvicorn is waited on until its start-up has run.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from ports import listening_socket

START_TIMEOUT = 15.0
"""Seconds uvicorn may take to run the app's start-up."""


class _Server(uvicorn.Server):
    """A uvicorn server that says when its start-up is over (started or failed)."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.start_done = threading.Event()

    async def startup(self, sockets: list | None = None) -> None:  # type: ignore[override]
        try:
            await super().startup(sockets=sockets)
        finally:
            self.start_done.set()


def start_in_thread(config: uvicorn.Config, sock: socket.socket) -> tuple[uvicorn.Server,
                                                                        threading.Thread]:
    """uvicorn serving ``config``'s app on the listening ``sock`` in a thread, once its
    start-up has run (``config``'s own host and port are not used); stop it by setting the
    server's ``should_exit`` and joining the thread."""
    server = _Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="uvicorn-test", daemon=True)
    thread.start()
    if not server.start_done.wait(START_TIMEOUT) or not server.started:
        server.should_exit = True
        thread.join(timeout=10)
        raise RuntimeError("the test server did not start")
    return server, thread


@contextmanager
def serve_in_thread(config: uvicorn.Config, *, sock: socket.socket | None = None,
                    join_timeout: float = 10) -> Iterator[str]:
    """Serve ``config``'s app until the block ends on ``sock`` (by default a fresh loopback
    port's, closed at the end); its base URL (``http://127.0.0.1:PORT``)."""
    own = sock is None
    sock = listening_socket() if sock is None else sock
    try:
        server, thread = start_in_thread(config, sock)
        try:
            yield f"http://127.0.0.1:{sock.getsockname()[1]}"
        finally:
            server.should_exit = True
            thread.join(timeout=join_timeout)
    finally:
        if own:
            sock.close()
