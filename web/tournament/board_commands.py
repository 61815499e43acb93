"""The board's answers to the hub's commands: undo, correct, resend, offer and withdraw.

A command from the hub is checked here before the table sees it: it must carry its own id,
be a kind the wire knows, and be made against the match and the event the board is at now
(the referee at the hub may be looking at an older picture). ``undo`` and ``correct`` then go
to the table's handler, through the same checks as its tablet; ``resend`` rewinds the link.
``offer`` (a tournament game for the tablet to start) is read here by
:meth:`tournament_wire.offer.Offer.from_json`, checked as the board's API checks a new match,
and handed to the table as an :class:`~tournament_wire.offer.Offer`; it changes no match, nor
does ``withdraw`` (the offer of that id taken back).
Every command gets exactly one answer on ``<prefix>/<board>/command/result``. A refusal by
the rules travels twice: its English ``message`` and its ``why``
(:meth:`scorekeeper.errors.Why.to_json`), which the hub words in its pages' languages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import paho.mqtt.client as mqtt

from scorekeeper.errors import IllegalEventError, Why, because
from tournament_wire import wire
from tournament_wire.offer import Offer, OfferError, check_pairing_id

CommandHandler = Callable[[dict[str, Any]], Mapping[str, Any] | None]
"""Applies ``{"kind": "undo"|"correct", "correct": {...}, "match_id", "id"}`` or ``{"kind":
"offer", "offer": Offer}``; returns the answer (e.g. ``{"seq": 17}``) or raises with a
message for the hub's referee."""


class BoardCommands:
    """Runs the hub's commands on the link's thread and publishes each answer.

    ``event_count`` reads the board's log; ``rewind(match_id, after)`` has the link publish
    that match's events after ``after`` again; ``changed`` wakes the link after a command the
    table applied.
    """

    def __init__(
        self,
        board_id: str,
        client: mqtt.Client,
        topics: wire.Topics,
        *,
        on_command: CommandHandler,
        current_match: Callable[[], int | None],
        event_count: Callable[[int], int],
        rewind: Callable[[int, int], None],
        changed: Callable[[], None],
        clock: Callable[[], float],
    ) -> None:
        self.board_id = board_id
        self.client = client
        self.topics = topics
        self._on_command = on_command
        self._current_match = current_match
        self._event_count = event_count
        self._rewind = rewind
        self._changed = changed
        self._clock = clock

    def run(self, command: dict[str, Any]) -> None:
        """Check ``command``, carry it out, and publish its one answer."""
        kind = command.get("kind")
        if not isinstance(command.get("id"), str):
            self.publish_result(command, ok=False, message="a command needs a text 'id'")
            return
        if kind not in wire.COMMAND_KINDS:
            self.publish_result(
                command, ok=False,
                message=f"unknown command {kind!r}; expected one of "
                + ", ".join(wire.COMMAND_KINDS),
            )
            return
        if kind == wire.CommandKind.RESEND:
            self._resend(command)
            return
        if kind == wire.CommandKind.OFFER:
            try:
                command = {**command, "offer": Offer.from_json(command.get("offer"))}
            except OfferError as exc:
                self.publish_result(command, ok=False, message=str(exc))
                return
            self._carry_out(command)
            return
        if kind == wire.CommandKind.WITHDRAW:
            try:
                check_pairing_id(command.get("offer"), "offer")
            except OfferError as exc:
                self.publish_result(command, ok=False, message=str(exc))
                return
            self._carry_out(command)
            return
        match_id = command.get("match_id")
        current = self._current_match()
        if match_id is not None and match_id != current:
            self._refuse(command, because("this board now plays match {now}, not match "
                                          "{asked}", now=str(current), asked=str(match_id)))
            return
        seq = command.get("seq")
        if current is not None and isinstance(seq, int):
            now = self._event_count(current)
            if seq != now:
                self._refuse(command, because(
                    "the match changed since event {seq} (now at event {now}); look again "
                    "and retry", seq=seq, now=now))
                return
        self._carry_out(command)

    def _refuse(self, command: Mapping[str, Any], why: Why) -> None:
        """A refusal of the board's own (the match moved on): in English and as data."""
        self.publish_result(command, ok=False, message=why.english(), why=why)

    def _carry_out(self, command: dict[str, Any]) -> None:
        try:
            answer = dict(self._on_command(dict(command)) or {})
        except Exception as exc:  # the board's refusal, shown to the hub's referee
            why = exc.why if isinstance(exc, IllegalEventError) else None
            self.publish_result(command, ok=False, message=str(exc) or type(exc).__name__,
                                why=why)
            return
        self.publish_result(command, ok=True, result=answer)
        self._changed()

    def _resend(self, command: Mapping[str, Any]) -> None:
        match_id, after = command.get("match_id"), command.get("after", 0)
        if not isinstance(match_id, int) or not isinstance(after, int) or after < 0:
            self.publish_result(
                command, ok=False, message="resend needs an integer 'match_id' and 'after' >= 0"
            )
            return
        if self._event_count(match_id) == 0:
            self.publish_result(command, ok=False, message=f"no events of match {match_id}")
            return
        self._rewind(match_id, after)
        self.publish_result(command, ok=True, result={"match_id": match_id, "after": after})

    def publish_result(
        self,
        command: Mapping[str, Any],
        *,
        ok: bool,
        message: str | None = None,
        result: Mapping[str, Any] | None = None,
        why: Why | None = None,
    ) -> None:
        """The answer to ``command`` (also to one that could not be read: ``id`` None);
        ``why``: the rules' refusal as data, beside its English ``message``."""
        payload = {
            "v": wire.WIRE_VERSION,
            "id": command.get("id"),
            "board_id": self.board_id,
            "kind": command.get("kind"),
            "ok": ok,
            "message": message,
            "result": dict(result or {}),
            "why": None if why is None else why.to_json(),
            "at": self._clock(),
        }
        self.client.publish(self.topics.command_result, wire.encode(payload), qos=1)
