"""The board's last self-test on the tournament wire: ``<prefix>/<board>/selftest``.

A board publishes it retained, when it connects and whenever a new self-test was kept (by
``skitter selftest`` or the referee page); the hub shows every board's last one. The message
is small on purpose (the date, pass or fail, the summary and at most a few failed checks):
the sheet itself stays on the board (its publisher is the board's:
``web.tournament.selftest_publisher``). The hub reads it through the wire's one decoder and
checks every value in :func:`hub.intake.selftest`, like any other message a
board sends.
"""

from __future__ import annotations

from tournament_wire import wire

KIND = wire.TopicKind.SELFTEST
MAX_FAILED = 8
"""Failed checks named in the message; the count gives the rest."""
MAX_PAYLOAD = 4096
"""Bytes a self-test message may have (a full one is well under 1 kB)."""


def topic(prefix: str, board: str) -> str:
    return f"{prefix}/{board}/{KIND}"
