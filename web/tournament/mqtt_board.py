"""The board's side of a tournament: publish every event and the state, take hub commands.

The board stays the source of truth. It scores into its own match log whether or not the
broker is there; this link only reads that log (through its own SQLite connection) and
publishes what it finds, so nothing here can stop or slow the game:

- every match event goes to ``<prefix>/<board>/events`` (QoS 1) with the id
  ``<board>:<match>:<seq>``, the player names, the match's rules and setup (so the hub can
  replay the game through the rules engine before it believes its result), the match
  state right after it and, for a match started from the hub's offer, its ``pairing``;
- the latest state goes to ``<prefix>/<board>/state`` (retained, with its ``seq`` and the
  last ``seq`` of the board's previous matches), so a hub that starts late sees every board at
  once and knows how far each earlier game went;
- ``<prefix>/<board>/status`` is ``{"online": true}`` (retained) while connected, and the
  broker publishes ``{"online": false}`` (the last will) when the board vanishes; both carry
  the ``version`` of skitter the board runs.

Nothing is lost and nothing matters twice: the last ``seq`` the broker acknowledged for each
match is kept in a small SQLite file of the link's own (the match log's schema is not
touched). Events handed to paho while the broker is away wait in paho's queue and go out, in
order, when it returns; after a restart of the board the link starts again from the
acknowledged ``seq``. The hub keeps one row per event id, and asks for a ``resend`` when it
sees a gap (its subscription may have missed what the broker accepted while the hub was away).

Hub commands arrive on ``<prefix>/<board>/command`` and are run on the link's thread by
:class:`~web.tournament.board_commands.BoardCommands` (``undo`` and ``correct`` go to the
``on_command`` callback; the answer goes back on ``<prefix>/<board>/command/result``). The
states sent with the events come from :mod:`web.tournament.board_states`.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from firmware_bridge.clocks import WALL
from scorekeeper.store import MatchStore, StoreError
from tournament_wire import wire
from tournament_wire.broker import MqttSettings
from web.tournament.board_commands import BoardCommands, CommandHandler
from web.tournament.board_states import StateFold
from web.tournament.mqtt_outbox import AckWindow, Outbox
from web.tournament.selftest_publisher import SelfTestPublisher
from web_common.version import skitter_version

log = logging.getLogger(__name__)

PREVIOUS_MATCHES = 3
"""How many earlier matches the retained state names with their last ``seq``: a hub that
was away while a board finished a game and started the next still learns how far that game
went, and asks for what it lacks, even when the broker dropped those events."""

FOLDS_KEPT = 2
"""How many matches' folded states the link keeps: the one in play and one it may still be
publishing (a resend, or the match just replaced)."""

def _alert(alert: Mapping[str, Any] | str) -> tuple[str, str]:
    if isinstance(alert, str):
        return ("note", alert)
    return (str(alert.get("kind", "note")), str(alert.get("message", "")))


class BoardLink:
    """This board's connection to the tournament broker.

    ``current_match()`` names the match the board is showing (None before the first);
    ``outbox`` is the link's own file (default ``mqtt-outbox.db`` next to the match log).
    Call :meth:`changed` after every append to the store and whenever the alerts change;
    it only wakes the link's thread and never blocks.
    """

    def __init__(
        self,
        board_id: str,
        settings: MqttSettings,
        store: MatchStore,
        *,
        current_match: Callable[[], int | None],
        on_command: CommandHandler,
        outbox: str | Path | None = None,
        clock: Callable[[], float] = WALL.now,
        reconnect_delay: tuple[float, float] = (0.2, 5.0),
    ) -> None:
        self.board_id = wire.check_board_id(board_id)
        self.settings = settings
        self.topics = wire.Topics(settings.topic_prefix, self.board_id)
        if str(store.path) == ":memory:":
            raise wire.WireError("the tournament link needs the match log in a file")
        self._store_path = store.path
        self._reader: MatchStore | None = None
        self._current_match = current_match
        self._clock = clock
        self._outbox = Outbox(outbox or store.path.parent / "mqtt-outbox.db", self.board_id)
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._acked_mids: list[int] = []
        self._mid_to_event: dict[int, tuple[int, int]] = {}
        self._acks: dict[int, AckWindow] = {}
        self._handed: dict[int, int] = {}
        self._commands: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self._alerts: tuple[tuple[str, str], ...] = ()
        self._announce = False
        self._last_state: tuple[Any, ...] | None = None
        self._folds: dict[int, StateFold] = {}
        """Each recent match's events and states as folded so far (``web.tournament.
        board_states``): a step reads and folds only the events stored since the last."""
        self.connected = False
        self.client = wire.make_client(
            settings, f"skitter-board-{self.board_id}", reconnect_delay=reconnect_delay
        )
        self.client.will_set(
            self.topics.status,
            wire.encode({"v": wire.WIRE_VERSION, "board_id": self.board_id, "online": False,
                         "version": skitter_version()}),
            qos=1,
            retain=True,
        )
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_publish = self._on_publish
        self.client.on_message = self._on_message
        self._selftest = SelfTestPublisher(store.path.parent, self.board_id,
                                           settings.topic_prefix)
        self.hub_commands = BoardCommands(
            self.board_id, self.client, self.topics, on_command=on_command,
            current_match=current_match,
            event_count=lambda match_id: self._reader_store().event_count(match_id),
            rewind=self._rewind, changed=self._wake.set, clock=clock,
        )

    # Life --------------------------------------------------------------------------------

    def start(self) -> None:
        """Connect in the background (retrying forever) and start publishing."""
        for match_id, seq in self._outbox.acked().items():
            self._acks[match_id] = AckWindow(seq)
            self._handed[match_id] = seq
        self._thread = threading.Thread(
            target=self._run, name=f"mqtt-board-{self.board_id}", daemon=True
        )
        self._thread.start()
        wire.connect(self.client, self.settings)
        self._wake.set()

    def stop(self, timeout: float = 3.0) -> None:
        """Say goodbye (offline, retained), disconnect and stop both threads."""
        self._stopping.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
        if self.connected:
            info = self.client.publish(
                self.topics.status, self._status_payload(False), qos=1, retain=True
            )
            with contextlib.suppress(RuntimeError, ValueError):
                info.wait_for_publish(timeout)
        self.client.disconnect()
        self.client.loop_stop()
        self._outbox.close()
        if self._reader is not None:
            self._reader.close()

    def changed(self, alerts: Sequence[Mapping[str, Any] | str] | None = None) -> None:
        """The match log or the board's alerts changed: publish what is new.

        ``alerts`` are the board's own (``{"kind": "link", "message": "sensor link down"}``,
        as in the table's snapshot); None keeps the last ones.
        """
        if alerts is not None:
            self._alerts = tuple(_alert(a) for a in alerts)
        self._wake.set()

    def acked(self, match_id: int) -> int:
        """The last ``seq`` of ``match_id`` the broker acknowledged."""
        with self._lock:
            acks = self._acks.get(match_id)
            return acks.watermark if acks else 0

    # paho callbacks (paho's thread) --------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("broker refused board %s: %s", self.board_id, reason)
            return
        self.connected = True
        client.subscribe(self.topics.command, qos=1)
        self._announce = True
        self._wake.set()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected = False

    def _on_publish(self, client: mqtt.Client, userdata: Any, mid: int, reason: Any,
                    properties: Any) -> None:
        with self._lock:
            self._acked_mids.append(mid)
        self._wake.set()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        if message.topic != self.topics.command:
            return
        try:
            command = wire.decode(message.payload)
        except wire.WireError as exc:
            self.hub_commands.publish_result({"id": None}, ok=False, message=str(exc))
            return
        self._commands.put(command)
        self._wake.set()

    # The link's thread ---------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(1.0)
            self._wake.clear()
            try:
                self.step()
            except Exception:  # the link must outlive any bad row or callback
                log.exception("tournament link of board %s", self.board_id)

    def step(self) -> None:
        """One turn of the link's thread: run the hub's commands, take the broker's acks,
        publish what is new (benches and tests call it to publish without the thread)."""
        while not self._commands.empty():
            self.hub_commands.run(self._commands.get())
        self._take_acks()
        current = self._current_match()
        if current is not None and current not in self._handed:
            self._outbox.track(current)
            with self._lock:
                self._acks.setdefault(current, AckWindow(0))
            self._handed[current] = 0
        for match_id in sorted(self._handed):
            self._publish_events(match_id)
        if self.connected:
            if self._announce:
                self._announce = False
                self.client.publish(
                    self.topics.status, self._status_payload(True), qos=1, retain=True
                )
                self._last_state = None
                self._selftest.reconnected()
            self._publish_state(current)
            self._selftest.step(self.client)

    def _reader_store(self) -> MatchStore:
        if self._reader is None:
            self._reader = MatchStore(self._store_path)
        return self._reader

    def _take_acks(self) -> None:
        with self._lock:
            mids, self._acked_mids = self._acked_mids, []
            moved: dict[int, int] = {}
            for mid in mids:
                event = self._mid_to_event.pop(mid, None)
                if event is None:
                    continue
                match_id, seq = event
                acks = self._acks.setdefault(match_id, AckWindow(0))
                if acks.add(seq):
                    moved[match_id] = acks.watermark
        for match_id, seq in moved.items():
            self._outbox.set_acked(match_id, seq)

    def _fold(self, match_id: int) -> StateFold:
        """``match_id`` folded up to its last stored event, reading only the new ones."""
        store = self._reader_store()
        fold = self._folds.pop(match_id, None)
        if fold is None:
            fold = StateFold(store.load_header(match_id))
        fold.extend(store.iter_events(match_id, after=len(fold.states)))
        self._folds[match_id] = fold
        while len(self._folds) > FOLDS_KEPT:
            del self._folds[next(iter(self._folds))]
        return fold

    def _publish_events(self, match_id: int) -> None:
        store = self._reader_store()
        handed = self._handed[match_id]
        if store.event_count(match_id) <= handed:
            return
        fold = self._fold(match_id)
        for ev in fold.events[handed:]:
            payload = {
                "v": wire.WIRE_VERSION,
                "id": wire.event_id(self.board_id, match_id, ev.seq),
                "board_id": self.board_id,
                "match_id": match_id,
                "seq": ev.seq,
                "at": ev.at,
                "source": ev.source,
                "event": ev.body,
                "names": fold.names,
                "rules": fold.rules,
                "setup": fold.setup,
                "state": fold.states[ev.seq - 1],
            }
            if fold.pairing is not None:
                payload["pairing"] = fold.pairing
            info = self.client.publish(self.topics.events, wire.encode(payload), qos=1)
            with self._lock:
                self._mid_to_event[info.mid] = (match_id, ev.seq)
            self._handed[match_id] = ev.seq

    def _publish_state(self, current: int | None) -> None:
        count = 0 if current is None else self._reader_store().event_count(current)
        if (current, count, self._alerts) == self._last_state:
            return
        if current is None:
            payload: dict[str, Any] = {"match_id": None, "seq": 0, "names": {}, "state": None}
        else:
            try:
                fold = self._fold(current)
            except StoreError:
                return
            payload = {
                "match_id": current,
                "seq": len(fold.events),
                "names": fold.names,
                "state": fold.states[-1] if fold.states else None,
            }
        payload.update(
            {
                "v": wire.WIRE_VERSION,
                "board_id": self.board_id,
                "previous": self._previous(current),
                "alerts": [{"kind": k, "message": m} for k, m in self._alerts],
                "at": self._clock(),
            }
        )
        self.client.publish(self.topics.state, wire.encode(payload), qos=1, retain=True)
        self._last_state = (current, payload["seq"], self._alerts)

    def _previous(self, current: int | None) -> list[dict[str, int]]:
        """The latest earlier matches with events, newest first, and their last ``seq``."""
        return [
            {"match_id": m["id"], "seq": m["events"]}
            for m in self._reader_store().list_matches()
            if m["id"] != current and m["events"] > 0
        ][:PREVIOUS_MATCHES]

    def _status_payload(self, online: bool) -> bytes:
        return wire.encode(
            {"v": wire.WIRE_VERSION, "board_id": self.board_id, "online": online,
             "at": self._clock(), "version": skitter_version()}
        )

    def _rewind(self, match_id: int, after: int) -> None:
        """Publish the events of ``match_id`` after ``after`` again (the hub's ``resend``)."""
        if match_id not in self._handed:
            self._outbox.track(match_id)
        self._handed[match_id] = min(self._handed.get(match_id, after), after)
