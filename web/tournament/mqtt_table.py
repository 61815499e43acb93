"""The scoreboard's table joined to the tournament broker (``skitter serve --mqtt-url``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekeeper.events import Undo
from tournament_wire import wire
from tournament_wire.broker import MqttSettings
from tournament_wire.offer import Offer
from web.tournament.mqtt_board import BoardLink

if TYPE_CHECKING:
    from web.table.table import Table

COMMAND_TIMEOUT = 10.0
"""Seconds a hub command may wait for the table's event loop."""


class TableLink:
    """A :class:`web.table.table.Table` joined to the tournament: what ``skitter serve`` wires in.

    Every change to the table runs on its writer thread, so hub commands are handed to it
    and applied with :meth:`Table.apply_step`, exactly like the tablet's (a refusal goes back
    to the hub with the engine's message). Every snapshot the table publishes also goes to
    :meth:`published`, which tells the link to publish what is new, with the table's alerts:
    build the link first and give the table a publisher that calls it
    (:func:`web.table.wiring.publishing`). :meth:`start` connects it (the app's lifespan
    does, with the table); :meth:`stop` on the way out.
    """

    def __init__(self, board_id: str, settings: MqttSettings, *,
                 outbox: str | Path | None = None) -> None:
        self.board_id = wire.check_board_id(board_id)
        self.settings = settings
        self.outbox = outbox
        self.link: BoardLink | None = None
        self._table: Table | None = None

    def start(self, table: Table) -> BoardLink:
        """Connect to the broker for ``table`` (hub commands go to its writer thread)."""
        self._table = table
        self.link = link = BoardLink(
            self.board_id, self.settings, table.store,
            current_match=lambda: table.match_id,
            on_command=self._command,
            outbox=self.outbox,
        )
        link.start()
        link.changed(table.snapshot().get("alerts") or [])
        return link

    def published(self, snapshot: Mapping[str, Any]) -> None:
        """The table published ``snapshot``: send what is new (nothing before :meth:`start`)."""
        link = self.link
        if link is not None:
            link.changed(snapshot.get("alerts") or [])

    def stop(self) -> None:
        if self.link is not None:
            self.link.stop()
            self.link = None

    def _command(self, command: dict[str, Any]) -> dict[str, Any]:
        """Run on the link's thread: apply ``command`` on the table's writer (in turn with
        every other change) and wait for the answer; the table's refusal travels back."""
        table = self._started()
        return table.writer.submit(self.apply, command).result(COMMAND_TIMEOUT)

    def _started(self) -> Table:
        if self._table is None:
            raise RuntimeError("the tournament link is not started")
        return self._table

    def apply(self, command: Mapping[str, Any]) -> dict[str, Any]:
        """Apply one hub command to the table (on its writer thread)."""
        table = self._started()
        offer = command.get("offer")
        if command.get("kind") == wire.CommandKind.OFFER and isinstance(offer, Offer):
            return {"offered": offer.id, "new": table.offer_game(offer)}
        if command.get("kind") == wire.CommandKind.WITHDRAW and isinstance(offer, str):
            return {"withdrawn": offer, "held": table.withdraw_offer(offer)}
        if command.get("kind") == wire.CommandKind.UNDO:
            table.apply_step(Undo(), source="hub")
        elif command.get("kind") == wire.CommandKind.CORRECT:
            correct = command.get("correct")
            if not isinstance(correct, Mapping):
                raise wire.WireError("a correction needs a 'correct' object")
            table.apply_step({"correct": dict(correct)}, source="hub")
        else:
            raise wire.WireError(f"unknown command {command.get('kind')!r}")
        return {
            "match_id": table.match_id,
            "seq": table.store.event_count(table.match_id),
            "score": dict(table.match.state.score),
        }
