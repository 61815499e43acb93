"""The hub's MQTT client: hears every board, keeps what it hears, sends the referee's commands.

It subscribes to ``<prefix>/+/state``, ``/events``, ``/status`` and ``/command/result`` with a
persistent session (``clean_session=False``), so a broker that keeps sessions holds the
boards' events for the hub while it restarts. What arrives is stored a burst at a time and
acknowledged only once stored (:mod:`hub.bursts`); whatever still goes missing
is asked for again (:mod:`hub.gaps`). Every received event is stored under its
id, so repeats change nothing. :meth:`HubLink.problems` names a thread of the hub that
stopped or fell behind, or a file that refuses writes (``/healthz``: 503).
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import paho.mqtt.client as mqtt

from firmware_bridge.clocks import MONOTONIC
from hub import intake
from hub.bursts import MAX_BURST, BurstStore, Stored
from hub.gaps import GapScheduler
from hub.offering import offer_games
from hub.tournament import Tournament
from tournament_wire import selftest_wire, wire
from tournament_wire.broker import MqttSettings
from tournament_wire.offer import Offer

log = logging.getLogger(__name__)

BACKLOG = 5 * MAX_BURST
"""Messages waiting to be stored beyond which the hub says it is falling behind."""
WORK = {"storing": "storing what the boards send",
        "gap check": "asking boards for missing steps"}
"""What each thread of the hub does, for the words of ``/healthz`` and the page."""
BEHIND = 5.0
"""Seconds a thread of the hub may go without finishing a turn of its loop before
``/healthz`` names it as stopped or fallen behind."""


class HubLink:
    """The hub's connection to the broker. ``on_change()`` is called after every change.

    ``bursts`` stores what arrives (:class:`~hub.bursts.BurstStore`), ``gaps``
    asks for what is missing (:class:`~hub.gaps.GapScheduler`); ``threads``
    are theirs, by the name ``/healthz`` gives them, once started.
    """

    def __init__(
        self,
        settings: MqttSettings,
        tournament: Tournament,
        *,
        on_change: Callable[[], None] = lambda: None,
        client_id: str = "skitter-hub",
        reconnect_delay: tuple[float, float] = (0.2, 5.0),
        monotonic: Callable[[], float] = MONOTONIC.now,
    ) -> None:
        self.settings = settings
        self.tournament = tournament
        self.store = tournament.store
        self.on_change = on_change
        self.prefix = settings.topic_prefix
        self._monotonic = monotonic
        self._any = wire.Topics(self.prefix, "+")
        self.connected = False
        self._stopping = threading.Event()
        self.threads: dict[str, threading.Thread] = {}
        self._beats: dict[str, float] = {}
        """The monotonic time each thread last finished a turn of its loop."""
        self._connection = 0
        """Counts connections: a message is acknowledged only on the one it came by."""
        self.client = wire.make_client(
            settings, client_id, clean_session=False, reconnect_delay=reconnect_delay
        )
        self.client.manual_ack_set(True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message
        self.bursts = BurstStore(
            tournament, self.prefix, ack=self._ack, after_stored=self._after_stored,
            on_change=lambda: self.on_change(), stopping=self._stopping,
            beat=lambda: self._beat("storing"),
        )
        self.gaps = GapScheduler(
            self.store, resend=self._resend, connected=lambda: self.connected,
            subscribe_states=lambda: self.client.subscribe(self._any.state, 1),
            monotonic=monotonic, stopping=self._stopping, beat=lambda: self._beat("gap check"),
        )

    def start(self) -> None:
        now = self._monotonic()
        self._beats = {"storing": now, "gap check": now}
        self.threads["storing"] = threading.Thread(target=self.bursts.run, name="hub-store",
                                                   daemon=True)
        self.threads["storing"].start()
        wire.connect(self.client, self.settings)
        self.threads["gap check"] = threading.Thread(target=self.gaps.run, name="hub-gaps",
                                                     daemon=True)
        self.threads["gap check"].start()

    def stop(self) -> None:
        self._stopping.set()
        for thread in self.threads.values():
            thread.join(3.0)
        self.client.disconnect()
        self.client.loop_stop()

    def problems(self) -> list[str]:
        """What keeps the hub from hearing the boards, in words (empty: nothing); ``/healthz``
        answers 503 naming them, and the page shows them."""
        out = []
        if self.bursts.disk_error is not None:
            out.append(f"the hub's file cannot be written: {self.bursts.disk_error}")
        waiting = self.bursts.waiting()
        if waiting > BACKLOG:
            out.append(f"the hub is behind: {waiting} messages from the boards wait to be "
                       "stored")
        for name, behind in self.stalled():
            what = WORK[name]
            if behind is None:
                out.append(f"the hub has stopped {what} (its {name} thread ended): restart it")
            else:
                out.append(f"the hub is {behind:.0f} s behind in {what} (its {name} thread)")
        return out

    def stalled(self) -> list[tuple[str, float | None]]:
        """The hub's threads that ended (None) or are more than ``BEHIND`` seconds behind
        (how many); systemd's watchdog is fed only while there is none."""
        if self._stopping.is_set():
            return []
        now = self._monotonic()
        out: list[tuple[str, float | None]] = []
        for name, thread in list(self.threads.items()):  # start() may be adding one
            if not thread.is_alive():
                out.append((name, None))
            elif now - self._beats.get(name, now) > BEHIND:
                out.append((name, now - self._beats[name]))
        return out

    def handle(self, topic: str, payload: bytes) -> None:
        """Store one message in its own transaction and act on it (public so tests can feed
        payloads without a broker; a burst is ``self.bursts.take_burst``)."""
        self.bursts.handle(topic, payload)

    # Sending ----------------------------------------------------------------------------

    def send_command(
        self,
        board: str,
        kind: str,
        *,
        match_id: int | None = None,
        correct: Mapping[str, Any] | None = None,
        after: int | None = None,
        seq: int | None = None,
        offer: Offer | None = None,
        withdraw: str | None = None,
    ) -> str:
        """Publish a command to ``board``; return its id (its answer comes back later).

        ``seq``: the last event of ``match_id`` the referee saw; the board refuses the
        command when its match has changed since (like a tablet's stale change).
        """
        wire.check_board_id(board)
        if kind not in wire.COMMAND_KINDS:
            raise wire.WireError(f"unknown command {kind!r}")
        command: dict[str, Any] = {
            "v": wire.WIRE_VERSION,
            "id": uuid.uuid4().hex,
            "kind": kind,
            "match_id": match_id,
        }
        if correct is not None:
            command["correct"] = dict(correct)
        if after is not None:
            command["after"] = after
        if seq is not None:
            command["seq"] = seq
        if offer is not None:
            command["offer"] = offer.to_json()
        if withdraw is not None:
            command["offer"] = withdraw
        if kind != wire.CommandKind.RESEND:
            self.store.add_command(command["id"], board, command, at=self.tournament.clock.now())
        self.client.publish(wire.Topics(self.prefix, board).command, wire.encode(command), qos=1)
        return str(command["id"])

    def _resend(self, board: str, match_id: int, after: int) -> None:
        self.send_command(board, "resend", match_id=match_id, after=after)

    # paho callbacks -----------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("broker refused the hub: %s", reason)
            return
        self.connected = True
        self._connection += 1
        self.gaps.on_connect()
        client.subscribe(
            [
                (self._any.state, 1),
                (self._any.events, 1),
                (self._any.status, 1),
                (self._any.command_result, 1),
                (selftest_wire.topic(self.prefix, "+"), 1),
            ]
        )
        self.on_change()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected = False
        self.on_change()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self.bursts.put(self._connection, message)

    # What the intake asks of the link --------------------------------------------------------

    def _beat(self, name: str) -> None:
        self._beats[name] = self._monotonic()

    def _ack(self, connection: int, message: mqtt.MQTTMessage) -> None:
        """Acknowledge a stored message, on the connection it came by alone (after a
        reconnect its id means nothing to the broker, which sends it again)."""
        if connection == self._connection and message.qos > 0:
            self.client.ack(message.mid, message.qos)

    def _after_stored(self, stored: Stored) -> None:
        if stored.online:
            offer_games(self.tournament, self, stored.board)
        for match_id, seq in stored.seen:
            self.gaps.check_gap(stored.board, match_id, seq)
        if stored.playing is not None:
            self.gaps.check_earlier(stored.board, stored.playing)


parse_event = intake.event
"""A board's event payload as a :class:`ReceivedEvent` (see :mod:`intake`)."""
