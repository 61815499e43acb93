"""The hub's MQTT client: hears every board, keeps what it hears, sends the referee's commands.

It subscribes to ``<prefix>/+/state``, ``/events``, ``/status`` and ``/command/result`` with a
persistent session (``clean_session=False``), so a broker that keeps sessions holds the
boards' events for the hub while it restarts. Whatever still goes missing shows up as a gap
in a match's ``seq`` numbers (or a board state ahead of the events received, for its current
match or for an earlier one its state names under ``previous``); after a short
grace the hub asks that board to ``resend`` from the gap, and again every few seconds until
the gap is filled. Every received event is stored under its id, so repeats change nothing.

Nothing a board sends can stop the hub: every payload is checked by
:mod:`web.tournament.hub.intake` (the API's decoder and value checks) before anything of it is
stored; one that fails is logged, counted for its board (``refusals``) and dropped, and any
other error of one message drops that message alone. :meth:`HubLink.problems` names a thread
of the hub that stopped or fell behind, or a file that refuses writes (``/healthz``: 503).

Acknowledged means stored: the hub acknowledges each message to the broker itself (paho's
``manual_ack``), only after the transaction holding it is committed. paho's thread only
queues what arrives; a storing thread takes everything queued at once (a burst: up to the
broker's in-flight window), stores it in one transaction, one commit and one fsync instead
of one each, and only then acknowledges the messages and acts on them (gap checks, resend
requests, the page). If the disk refuses the commit, nothing of the burst is acknowledged
and the same burst is tried again.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt

from firmware_bridge.clocks import MONOTONIC
from scorekeeper import checks
from web.config.settings import MqttSettings
from web.tournament import wire
from web.tournament.hub import intake
from web.tournament.hub.tournament import Tournament

log = logging.getLogger(__name__)

GAP_GRACE = 1.0
"""Seconds a gap may last before the hub asks for a resend (events may be on their way)."""
RESEND_EVERY = 5.0
"""Seconds between two resend requests for the same gap."""
STATES_AGAIN = 15.0
"""Seconds between two re-subscriptions to the boards' retained states (the first comes
``GAP_GRACE`` after connecting): a broker whose queue for the hub was full drops the
retained states it sends on subscribing too, and a board that has stopped playing sends no
new one, so the hub would never learn how far that board's games went."""
MAX_BURST = 500
"""Messages stored in one transaction at most."""
STORE_AGAIN = 1.0
"""Seconds before a burst whose commit failed (a full or failing disk) is tried again."""
BACKLOG = 5 * MAX_BURST
"""Messages waiting to be stored beyond which the hub says it is falling behind."""
WORK = {"storing": "storing what the boards send",
        "gap check": "asking boards for missing steps"}
"""What each thread of the hub does, for the words of ``/healthz`` and the page."""
BEHIND = 5.0
"""Seconds a thread of the hub may go without finishing a turn of its loop before
``/healthz`` names it as stopped or fallen behind."""


@dataclass(frozen=True)
class Stored:
    """What a stored message asks of the hub once it is committed."""

    board: str
    seen: tuple[tuple[int, int], ...] = ()
    """``(match_id, seq)`` the board has got to: a gap if the hub has less."""
    playing: int | None = None
    """The match an event came from (the board may have left an earlier one unfinished)."""


class HubLink:
    """The hub's connection to the broker. ``on_change()`` is called after every change."""

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
        self._gaps: dict[tuple[str, int], tuple[int, float, float]] = {}
        self._current: dict[str, int] = {}
        self._states_due: float | None = None
        self._probed: set[tuple[str, int]] = set()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._janitor: threading.Thread | None = None
        self._storer: threading.Thread | None = None
        self._inbox: queue.SimpleQueue[tuple[int, mqtt.MQTTMessage]] = queue.SimpleQueue()
        self._beats: dict[str, float] = {}
        """The monotonic time each thread last finished a turn of its loop."""
        self.disk_error: str | None = None
        """Why the hub's file refused the last burst, until a burst is stored again."""
        self._connection = 0
        """Counts connections: a message is acknowledged only on the one it came by."""
        self.client = wire.make_client(
            settings, client_id, clean_session=False, reconnect_delay=reconnect_delay
        )
        self.client.manual_ack_set(True)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = self._on_message

    def start(self) -> None:
        now = self._monotonic()
        self._beats = {"storing": now, "gap check": now}
        self._storer = threading.Thread(target=self._store_bursts, name="hub-store", daemon=True)
        self._storer.start()
        wire.connect(self.client, self.settings)
        self._janitor = threading.Thread(target=self._watch_gaps, name="hub-gaps", daemon=True)
        self._janitor.start()

    def stop(self) -> None:
        self._stopping.set()
        for thread in (self._janitor, self._storer):
            if thread is not None:
                thread.join(3.0)
        self.client.disconnect()
        self.client.loop_stop()

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
        if kind != "resend":
            self.store.add_command(command["id"], board, command, at=self.tournament.clock.now())
        self.client.publish(wire.Topics(self.prefix, board).command, wire.encode(command), qos=1)
        return str(command["id"])

    # paho callbacks -----------------------------------------------------------------------

    def _on_connect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                    properties: Any) -> None:
        if reason.is_failure:
            log.warning("broker refused the hub: %s", reason)
            return
        self.connected = True
        self._connection += 1
        self._states_due = self._monotonic() + GAP_GRACE
        client.subscribe(
            [
                (self._any.state, 1),
                (self._any.events, 1),
                (self._any.status, 1),
                (self._any.command_result, 1),
            ]
        )
        self.on_change()

    def _on_disconnect(self, client: mqtt.Client, userdata: Any, flags: Any, reason: Any,
                       properties: Any) -> None:
        self.connected = False
        self.on_change()

    def _on_message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        self._inbox.put((self._connection, message))

    # Storing bursts ---------------------------------------------------------------------------

    def _store_bursts(self) -> None:
        while not self._stopping.is_set():
            self._beats["storing"] = self._monotonic()
            try:
                burst = [self._inbox.get(timeout=0.25)]
            except queue.Empty:
                continue
            while len(burst) < MAX_BURST:
                try:
                    burst.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            try:
                self.take_burst(burst)
            except Exception:  # the intake must outlive anything one burst does
                log.exception("hub: a burst of %d messages failed", len(burst))

    def problems(self) -> list[str]:
        """What keeps the hub from hearing the boards, in words (empty: nothing); ``/healthz``
        answers 503 naming them, and the page shows them."""
        out = []
        if self.disk_error is not None:
            out.append(f"the hub's file cannot be written: {self.disk_error}")
        waiting = self._inbox.qsize()
        if waiting > BACKLOG:
            out.append(f"the hub is behind: {waiting} messages from the boards wait to be "
                       "stored")
        now = self._monotonic()
        for name, thread in (("storing", self._storer), ("gap check", self._janitor)):
            if thread is None or self._stopping.is_set():
                continue
            what = WORK[name]
            if not thread.is_alive():
                out.append(f"the hub has stopped {what} (its {name} thread ended): restart it")
            elif now - self._beats.get(name, now) > BEHIND:
                out.append(f"the hub is {now - self._beats[name]:.0f} s behind in {what} "
                           f"(its {name} thread)")
        return out

    def take_burst(self, burst: Sequence[tuple[int, mqtt.MQTTMessage]]) -> bool:
        """Store ``(connection, message)`` pairs in one transaction, then acknowledge them and
        act on them; False if stopped before the disk took them (nothing acknowledged)."""
        while True:
            try:
                with self.store.batch():
                    stored = [self._store_one(m.topic, m.payload) for _, m in burst]
                self.disk_error = None
                break
            except sqlite3.OperationalError as exc:
                log.exception("hub: cannot store %d messages; trying again", len(burst))
                self.disk_error = str(exc)
                self.on_change()
                if self._stopping.wait(STORE_AGAIN):
                    return False
                self._beats["storing"] = self._monotonic()
        for (connection, message), done in zip(burst, stored, strict=True):
            if done is not None:
                try:
                    self._after_stored(done)
                except Exception:  # stored already; only its gap check is lost
                    log.exception("hub: cannot check for gaps after a message on %s",
                                  message.topic)
            if connection == self._connection and message.qos > 0:
                self.client.ack(message.mid, message.qos)
        self.on_change()
        return True

    def _store_one(self, topic: str, payload: bytes) -> Stored | None:
        """One message, whole or not at all (a savepoint inside the burst's transaction)."""
        try:
            with self.store.batch():
                return self.store_message(topic, payload)
        except wire.WireError as exc:
            self.store_rejected(topic, str(exc))
        except sqlite3.OperationalError as exc:
            if is_disk_error(exc):
                raise  # the disk: the whole burst waits and is tried again
            log.exception("hub: cannot store a message on %s", topic)
            self.store_rejected(topic, "the hub could not store it")
        except Exception:  # never let one message stop the hub
            log.exception("hub: cannot handle a message on %s", topic)
            self.store_rejected(topic, "the hub could not store it")
        return None

    def store_rejected(self, topic: str, why: str) -> None:
        """Drop a message for good, counted for its board with the reason (the page shows
        both to the hub's referee)."""
        why = why.encode("utf-8", "backslashreplace").decode("utf-8")[:300]
        log.warning("hub: dropped a message on %s: %s", topic[:200], why)
        try:
            board: str | None = wire.split_topic(self.prefix, topic)[0]
        except wire.WireError:
            board = None
        self.store.refuse(board, why, at=self.tournament.clock.now())

    # Handling (public so tests can feed payloads without a broker) --------------------------

    def handle(self, topic: str, payload: bytes) -> None:
        """Store one message in its own transaction and act on it."""
        with self.store.batch():
            stored = self.store_message(topic, payload)
        if stored is not None:
            self._after_stored(stored)

    def store_message(self, topic: str, payload: bytes) -> Stored | None:
        """Keep what the message says once :mod:`~web.tournament.hub.intake` has checked all
        of it; return what to check once it is committed."""
        board, kind = wire.split_topic(self.prefix, topic)
        if kind == "command":
            return None  # our own commands, if the ACL lets us read them
        now = self.tournament.clock.now()
        if kind == "status" and not payload:
            return None  # a cleared retained message
        data = wire.decode(payload)
        if data.get("board_id", board) != board:
            raise wire.WireError(f"payload names board {checks.show(data.get('board_id'))} "
                                 f"on {topic}")
        if kind == "status":
            self.store.set_board_status(board, intake.status(data), at=now)
        elif kind == "state":
            state = intake.board_state(data)
            self.store.set_board_state(board, state, at=now)
            seen = [(p["match_id"], p["seq"]) for p in state["previous"]]
            if state["match_id"] is not None and state["seq"] > 0:
                seen.insert(0, (state["match_id"], state["seq"]))
            return Stored(board, tuple(seen))
        elif kind == "events":
            ev = intake.event(board, data)
            self.tournament.receive(ev)
            return Stored(board, ((ev.match_id, ev.seq),), playing=ev.match_id)
        elif kind == "command/result":
            answer = intake.command_result(data)
            if answer["id"] is not None and not self.store.set_command_result(
                answer["id"], answer, board=board, at=now
            ):
                raise wire.WireError(f"an answer to command {answer['id']!r}, which was not "
                                     f"sent to {board}")
        return None

    def _after_stored(self, stored: Stored) -> None:
        for match_id, seq in stored.seen:
            self._check_gap(stored.board, match_id, seq)
        if stored.playing is not None:
            self._check_earlier(stored.board, stored.playing)

    def _check_earlier(self, board: str, match_id: int) -> None:
        """When a board moves on to a new match, ask once for the rest of its previous one
        unless the hub saw it end: its last events may be what a full broker queue dropped,
        and the board's state naming it may have been dropped as well."""
        with self._lock:
            if self._current.get(board) == match_id:
                return
            self._current[board] = match_id
        earlier = self.store.previous_match(board, match_id)
        if earlier is None or (board, earlier) in self._probed:
            return
        latest = self.store.latest_event(board, earlier)
        if latest is not None and latest.state.get("phase") == "game_over":
            return
        self._probed.add((board, earlier))
        if self.connected:
            have = self.store.contiguous_seq(board, earlier)
            self.send_command(board, "resend", match_id=earlier, after=have)

    def _check_gap(self, board: str, match_id: int, seen_seq: int) -> None:
        have = self.store.contiguous_seq(board, match_id)
        key = (board, match_id)
        with self._lock:
            if have >= seen_seq:
                gap = self._gaps.get(key)
                if gap is not None and have >= gap[0]:
                    del self._gaps[key]
                return
            wanted = max(seen_seq, self._gaps.get(key, (0, 0.0, 0.0))[0])
            first = self._gaps.get(key, (0, self._monotonic(), 0.0))
            self._gaps[key] = (wanted, first[1], first[2])

    def _watch_gaps(self) -> None:
        while not self._stopping.wait(0.25):
            self._beats["gap check"] = self._monotonic()
            try:
                self.request_missing()
                self._states_again()
            except Exception:
                log.exception("hub: gap check")

    def _states_again(self) -> None:
        due = self._states_due
        if not self.connected or due is None or self._monotonic() < due:
            return
        self._states_due = self._monotonic() + STATES_AGAIN
        self.client.subscribe(self._any.state, 1)

    def request_missing(self) -> int:
        """Ask boards to resend where a gap outlived its grace; return how many were asked."""
        now = self._monotonic()
        asked = 0
        with self._lock:
            gaps = dict(self._gaps)
        for (board, match_id), (wanted, first_seen, last_asked) in gaps.items():
            have = self.store.contiguous_seq(board, match_id)
            if have >= wanted:
                with self._lock:
                    self._gaps.pop((board, match_id), None)
                continue
            if now - first_seen < GAP_GRACE or now - last_asked < RESEND_EVERY:
                continue
            if not self.connected:
                continue
            self.send_command(board, "resend", match_id=match_id, after=have)
            asked += 1
            with self._lock:
                if (board, match_id) in self._gaps:
                    self._gaps[(board, match_id)] = (wanted, first_seen, now)
        return asked


def is_disk_error(exc: sqlite3.OperationalError) -> bool:
    """True when SQLite could not write the hub's file (full, read-only, failing, locked):
    the burst is tried again. Any other error belongs to the message alone."""
    text = str(exc).lower()
    return any(w in text for w in ("disk", "full", "readonly", "read-only", "i/o", "locked",
                                   "unable to open"))


parse_event = intake.event
"""A board's event payload as a :class:`ReceivedEvent` (see :mod:`intake`)."""
