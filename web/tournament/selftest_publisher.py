"""The board's side of the self-test message (:mod:`tournament_wire.selftest_wire`): what it
says of the kept sheet, and publishing it when it is new or after each (re)connect."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tournament_wire import selftest_wire, wire
from web.table import selftest_record


def payload(board_id: str, sheet: Mapping[str, Any]) -> dict[str, Any]:
    """The message for a kept sheet (see :func:`web.table.selftest_record.summary`)."""
    return {"v": wire.WIRE_VERSION, "board_id": board_id, **selftest_record.summary(sheet)}


class SelfTestPublisher:
    """Publishes the board's kept self-test when it is new, or after each (re)connect."""

    def __init__(self, directory: Path, board_id: str, prefix: str) -> None:
        self.directory = directory
        self.board_id = board_id
        self.topic = selftest_wire.topic(prefix, board_id)
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
