"""The scoreboard's table joined to the tournament broker (``skitter serve --mqtt-url``)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.events import Undo
from web.config.settings import MqttSettings
from web.tournament import wire
from web.tournament.mqtt_board import BoardLink

if TYPE_CHECKING:
    from web.table.table import Table

COMMAND_TIMEOUT = 10.0
"""Seconds a hub command may wait for the table's event loop."""


class TableLink:
    """A :class:`web.table.table.Table` joined to the tournament: what ``skitter serve`` wires in.

    Every change to the table runs on its writer thread, so hub commands are handed to it
    and applied with :meth:`Table.apply_step`, exactly like the tablet's (a refusal goes back
    to the hub with the engine's message). Every snapshot the table publishes also tells the
    link to publish what is new, with the table's alerts. Build it before the app starts;
    call :meth:`start` in the app's lifespan *after* ``table.publish`` is set, and
    :meth:`stop` on the way out.
    """

    def __init__(self, table: Table, board_id: str, settings: MqttSettings, *,
                 outbox: str | Path | None = None) -> None:
        self.table = table
        self.board_id = wire.check_board_id(board_id)
        self.settings = settings
        self.outbox = outbox
        self.link: BoardLink | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> BoardLink:
        """Connect to the broker (hub commands go to the table's writer, not to ``loop``)."""
        del loop
        table = self.table
        self.link = link = BoardLink(
            self.board_id, self.settings, table.store,
            current_match=lambda: table.match_id,
            on_command=self._command,
            outbox=self.outbox,
        )
        publish = table.publish

        def publish_and_send(snapshot: Mapping[str, Any]) -> None:
            publish(snapshot)
            link.changed(snapshot.get("alerts") or [])

        table.publish = publish_and_send
        link.start()
        link.changed(table.snapshot().get("alerts") or [])
        return link

    def stop(self) -> None:
        if self.link is not None:
            self.link.stop()
            self.link = None

    def _command(self, command: dict[str, Any]) -> dict[str, Any]:
        """Run on the link's thread: apply ``command`` on the table's writer (in turn with
        every other change) and wait for the answer; the table's refusal travels back."""
        return self.table.writer.submit(self.apply, command).result(COMMAND_TIMEOUT)

    def apply(self, command: Mapping[str, Any]) -> dict[str, Any]:
        """Apply one hub command to the table (on its writer thread)."""
        if command.get("kind") == "undo":
            self.table.apply_step(Undo(), source="hub")
        elif command.get("kind") == "correct":
            correct = command.get("correct")
            if not isinstance(correct, Mapping):
                raise wire.WireError("a correction needs a 'correct' object")
            self.table.apply_step({"correct": dict(correct)}, source="hub")
        else:
            raise wire.WireError(f"unknown command {command.get('kind')!r}")
        return {
            "match_id": self.table.match_id,
            "seq": self.table.store.event_count(self.table.match_id),
            "score": dict(self.table.match.state.score),
        }
