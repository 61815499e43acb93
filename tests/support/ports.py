"""Loopback ports for the tests' servers, chosen by the OS and held so nobody else takes them.

A port found free by binding and closed again can be taken by another worker's server
before ours binds it (seen in CI: a board started with ``skitter serve`` was answered by
another worker's server, 404 on ``/api/state``). So no port is probed here:

- :func:`listening_socket` is a socket the OS bound to a port of its choice (port 0), already
  listening: an in-process uvicorn serves on it (``Server.run(sockets=[sock])``).
- :func:`free_port` is for a server in a child process (``skitter serve``, ``skitter hub``,
  Mosquitto, which cannot report a port it chose itself): the OS picks the port with
  ``bind(("127.0.0.1", 0))`` and this process keeps that socket bound, not listening, with
  ``SO_REUSEADDR``. Linux then lets a server that also sets ``SO_REUSEADDR`` (uvicorn and
  Mosquitto do) bind and listen on the port, while no other ``bind(0)``, no outgoing
  connection's port and no server without that option can have it. The hold lasts until the
  end of the test that asked for it (:func:`release_ports`, called by the autouse fixture
  ``held_ports`` in ``tests/conftest.py``), so a server restarted on the same address during
  the test finds it still its own; a port asked for outside a test is held until the worker
  exits.
"""

from __future__ import annotations

import socket

_held: list[socket.socket] = []


def free_port() -> int:
    """A TCP port on 127.0.0.1 chosen by the OS and held for this test (see the module doc):
    only a server binding it with ``SO_REUSEADDR`` can listen on it."""
    hold = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    hold.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    hold.bind(("127.0.0.1", 0))
    _held.append(hold)
    return int(hold.getsockname()[1])


def listening_socket() -> socket.socket:
    """A socket listening on a port of 127.0.0.1 the OS chose, for a server in this process."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


def held_count() -> int:
    """How many ports are held now (a mark for :func:`release_ports`)."""
    return len(_held)


def release_ports(mark: int = 0) -> None:
    """Let go of the ports held since ``mark`` (servers already listening keep theirs)."""
    while len(_held) > mark:
        _held.pop().close()
