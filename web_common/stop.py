"""Ctrl-C and SIGTERM for a server: noted and obeyed, never raised where they find the program.

From :meth:`StopSignals.catch` on, a Ctrl-C (SIGINT) or systemd's stop (SIGTERM) stops the
server, whenever it comes and however the process was started: a script's background job
(``skitter serve &``) starts with Ctrl-C ignored, and uvicorn takes the signals over only once
it serves, so one that came in the moment before was lost.

Neither becomes an exception raised wherever the program happens to be. A KeyboardInterrupt
raised there can land inside Python's ``eval`` of a string (FastAPI reads the endpoints'
annotations so while the app is made; dataclasses build their methods so), and CPython then
marks the whole program as ended by Ctrl-C: it stopped cleanly and returned 0, and on its way
out still killed itself with SIGINT, so a script or systemd saw it killed (seen: ``skitter
hub`` given a Ctrl-C just after its banner, about once in fifteen starts). Instead the signal
is noted, and it stops the server: one noted before the server runs means it never starts,
one while it starts ends it once started. While it serves, uvicorn's own handling takes the
signals and hands each back, noted here, once it has stopped.
"""

from __future__ import annotations

import signal
from collections.abc import Sequence
from socket import socket
from typing import Protocol


class Server(Protocol):
    """What is needed of a ``uvicorn.Server``."""

    should_exit: bool

    def run(self, sockets: list[socket] | None = None) -> None: ...


CAUGHT: Sequence[signal.Signals] = (signal.SIGINT, signal.SIGTERM)


class StopSignals:
    """The stop a person (Ctrl-C) or systemd (SIGTERM) asked for, and the server it stops."""

    def __init__(self) -> None:
        self.signal: signal.Signals | None = None
        """The first stop signal that came, if any."""
        self._server: Server | None = None

    @property
    def requested(self) -> bool:
        return self.signal is not None

    def catch(self) -> None:
        """From here on, Ctrl-C and SIGTERM are noted and stop the server (main thread)."""
        for sig in CAUGHT:
            signal.signal(sig, self._note)

    def serve(self, server: Server, sockets: list[socket] | None = None) -> None:
        """Run ``server`` until it stops, unless a stop came first; one that comes while it
        starts ends it as soon as it has started."""
        self._server = server
        if self.signal is None:
            server.run(sockets=sockets)

    def _note(self, signum: int, frame: object) -> None:
        if self.signal is None:
            self.signal = signal.Signals(signum)
        if self._server is not None:
            self._server.should_exit = True
