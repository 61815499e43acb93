"""Free loopback ports for the tests' servers: each pytest-xdist worker takes them from a
block of its own.

A port found free with ``bind(0)`` and closed again can be taken by another worker's server
before ours binds it (seen in CI: a board started with ``skitter serve`` was answered by
another worker's server, 404 on ``/api/state``). Each worker counts through its own block,
below Linux's ephemeral range (32768 and up, where outgoing connections take their ports),
and hands out a port only once it has bound it itself.
"""

from __future__ import annotations

import itertools
import os
import socket

BASE = 20000
BLOCK = 1500
"""Ports per worker: workers gw0..gw7 use 20000-31999."""
_turn = itertools.count()


def _worker() -> int:
    digits = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    return int(digits) % 8 if digits.isdigit() else 0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nobody listens on now and no other worker hands out."""
    start = BASE + _worker() * BLOCK
    for _ in range(BLOCK):
        port = start + next(_turn) % BLOCK
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        return port
    raise RuntimeError(f"no free port in {start}-{start + BLOCK - 1}")
