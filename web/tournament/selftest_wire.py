"""The board's last self-test on the tournament wire: ``<prefix>/<board>/selftest``.

A board publishes it retained, when it connects and whenever a new self-test was kept (by
``skitter selftest`` or the referee page); the hub shows every board's last one. The message
is small on purpose (the date, pass or fail, the summary and at most a few failed checks):
the sheet itself stays on the board. The hub reads it through the wire's one decoder and
checks every value in :func:`hub.intake.selftest`, like any other message a
board sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from web.table import selftest_record
from web.tournament import wire

KIND = wire.TopicKind.SELFTEST
MAX_FAILED = 8
"""Failed checks named in the message; the count gives the rest."""
MAX_PAYLOAD = 4096
"""Bytes a self-test message may have (a full one is well under 1 kB)."""


def topic(prefix: str, board: str) -> str:
    return f"{prefix}/{board}/{KIND}"


def payload(board_id: str, sheet: Mapping[str, Any]) -> dict[str, Any]:
    """The message for a kept sheet (see :func:`web.table.selftest_record.summary`)."""
    return {"v": wire.WIRE_VERSION, "board_id": board_id, **selftest_record.summary(sheet)}


class SelfTestPublisher:
    """Publishes the board's kept self-test when it is new, or after each (re)connect."""

    def __init__(self, directory: Path, board_id: str, prefix: str) -> None:
        self.directory = directory
        self.board_id = board_id
        self.topic = topic(prefix, board_id)
        self._sent: tuple[float, int] | None = None

    def reconnected(self) -> None:
        self._sent = None

    def step(self, client: Any) -> bool:
        """Publish if the kept sheet changed since it was last sent; True when it did."""
        path = selftest_record.path_in(self.directory)
        try:
            stat = path.stat()
        except OSError:
            return False
        mark = (stat.st_mtime, stat.st_size)
        if mark == self._sent:
            return False
        sheet = selftest_record.load(self.directory)
        self._sent = mark
        if sheet is None:
            return False
        client.publish(self.topic, wire.encode(payload(self.board_id, sheet)), qos=1,
                       retain=True)
        return True
