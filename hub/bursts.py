"""The hub's intake: what the boards send, stored a burst at a time, acknowledged once stored.

Acknowledged means stored: the hub acknowledges each message to the broker itself (paho's
``manual_ack``), only after the transaction holding it is committed. paho's thread only
queues what arrives (:meth:`BurstStore.put`); the storing thread takes everything queued at
once (a burst: up to the broker's in-flight window), stores it in one transaction, one commit
and one fsync instead of one each, and only then acknowledges the messages and acts on them
(gap checks, resend requests, the page). If the disk refuses the commit, nothing of the burst
is acknowledged and the same burst is tried again.

Nothing a board sends can stop the hub: every payload is checked by
:mod:`hub.intake` (the API's decoder and value checks) before anything of it is
stored; one that fails is logged, counted for its board (``refusals``) and dropped, and any
other error of one message drops that message alone.
"""

from __future__ import annotations

import logging
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import paho.mqtt.client as mqtt

from hub import intake
from hub.tournament import Tournament
from scorekeeper import checks
from tournament_wire import selftest_wire, wire

log = logging.getLogger(__name__)

MAX_BURST = 500
"""Messages stored in one transaction at most."""
STORE_AGAIN = 1.0
"""Seconds before a burst whose commit failed (a full or failing disk) is tried again."""
WAIT = 0.25
"""Seconds the storing thread waits for a message before it takes another turn."""


@dataclass(frozen=True)
class Stored:
    """What a stored message asks of the hub once it is committed."""

    board: str
    seen: tuple[tuple[int, int], ...] = ()
    """``(match_id, seq)`` the board has got to: a gap if the hub has less."""
    playing: int | None = None
    """The match an event came from (the board may have left an earlier one unfinished)."""
    online: bool = False
    """The board (re)connected: it is offered its game again (it may have restarted)."""


class BurstStore:
    """Stores what the boards send. ``ack(connection, message)`` acknowledges one message to
    the broker, ``after_stored`` acts on a committed one, ``on_change()`` wakes the page;
    ``beat()`` marks a turn of the storing thread (for ``/healthz``)."""

    def __init__(
        self,
        tournament: Tournament,
        prefix: str,
        *,
        ack: Callable[[int, mqtt.MQTTMessage], None],
        after_stored: Callable[[Stored], None],
        on_change: Callable[[], None],
        stopping: threading.Event,
        beat: Callable[[], None] = lambda: None,
    ) -> None:
        self.tournament = tournament
        self.store = tournament.store
        self.prefix = prefix
        self._ack = ack
        self._after_stored = after_stored
        self._on_change = on_change
        self._stopping = stopping
        self._beat = beat
        self._inbox: queue.SimpleQueue[tuple[int, mqtt.MQTTMessage]] = queue.SimpleQueue()
        self.disk_error: str | None = None
        """Why the hub's file refused the last burst, until a burst is stored again."""

    def put(self, connection: int, message: mqtt.MQTTMessage) -> None:
        """Queue a message that came by ``connection`` (paho's thread: nothing else)."""
        self._inbox.put((connection, message))

    def waiting(self) -> int:
        """How many messages wait to be stored."""
        return self._inbox.qsize()

    def run(self) -> None:
        """The storing thread: bursts until the hub stops."""
        while not self._stopping.is_set():
            self._beat()
            self.store_waiting(WAIT)

    def store_waiting(self, timeout: float = 0.0) -> bool:
        """Store what is queued as one burst (waiting up to ``timeout`` for the first
        message); False when nothing came."""
        try:
            burst = [self._inbox.get(timeout=timeout) if timeout else self._inbox.get_nowait()]
        except queue.Empty:
            return False
        while len(burst) < MAX_BURST:
            try:
                burst.append(self._inbox.get_nowait())
            except queue.Empty:
                break
        try:
            self.take_burst(burst)
        except Exception:  # the intake must outlive anything one burst does
            log.exception("hub: a burst of %d messages failed", len(burst))
        return True

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
                self._on_change()
                if self._stopping.wait(STORE_AGAIN):
                    return False
                self._beat()
        for (connection, message), done in zip(burst, stored, strict=True):
            if done is not None:
                try:
                    self._after_stored(done)
                except Exception:  # stored already; only its gap check is lost
                    log.exception("hub: cannot check for gaps after a message on %s",
                                  message.topic)
            self._ack(connection, message)
        self._on_change()
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

    def handle(self, topic: str, payload: bytes) -> None:
        """Store one message in its own transaction and act on it (tests feed payloads so,
        without a broker)."""
        with self.store.batch():
            stored = self.store_message(topic, payload)
        if stored is not None:
            self._after_stored(stored)

    def store_message(self, topic: str, payload: bytes) -> Stored | None:
        """Keep what the message says once :mod:`~hub.intake` has checked all
        of it; return what to check once it is committed."""
        board, kind = wire.split_topic(self.prefix, topic)
        if kind is wire.TopicKind.COMMAND:
            return None  # our own commands, if the ACL lets us read them
        now = self.tournament.clock.now()
        if kind is wire.TopicKind.STATUS and not payload:
            return None  # a cleared retained message
        if kind is wire.TopicKind.SELFTEST and len(payload) > selftest_wire.MAX_PAYLOAD:
            raise wire.WireError(f"self-test message of {len(payload)} bytes is too large")
        data = wire.decode(payload)
        if data.get("board_id", board) != board:
            raise wire.WireError(f"payload names board {checks.show(data.get('board_id'))} "
                                 f"on {topic}")
        if kind is wire.TopicKind.STATUS:
            online = intake.status(data)
            self.store.set_board_status(board, online, at=now,
                                        version=intake.reported_version(data))
            return Stored(board, online=online)
        elif kind is wire.TopicKind.STATE:
            state = intake.board_state(data)
            self.store.set_board_state(board, state, at=now)
            seen = [(p["match_id"], p["seq"]) for p in state["previous"]]
            if state["match_id"] is not None and state["seq"] > 0:
                seen.insert(0, (state["match_id"], state["seq"]))
            return Stored(board, tuple(seen))
        elif kind is wire.TopicKind.EVENTS:
            ev = intake.event(board, data)
            self.tournament.receive(ev)
            return Stored(board, ((ev.match_id, ev.seq),), playing=ev.match_id)
        elif kind is wire.TopicKind.SELFTEST:
            self.store.set_selftest(board, intake.selftest(data), at=now)
        elif kind is wire.TopicKind.COMMAND_RESULT:
            answer = intake.command_result(data)
            if answer["id"] is not None and not self.store.set_command_result(
                answer["id"], answer, board=board, at=now
            ):
                raise wire.WireError(f"an answer to command {answer['id']!r}, which was not "
                                     f"sent to {board}")
        return None


def is_disk_error(exc: sqlite3.OperationalError) -> bool:
    """True when SQLite could not write the hub's file (full, read-only, failing, locked):
    the burst is tried again. Any other error belongs to the message alone."""
    text = str(exc).lower()
    return any(w in text for w in ("disk", "full", "readonly", "read-only", "i/o", "locked",
                                   "unable to open"))
