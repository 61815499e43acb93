"""What boards and the hub say to each other over MQTT: topics, payloads, connecting.

Every topic lives under ``<prefix>/<board-id>/`` (prefix ``skitter`` by default), so a
broker ACL can let a board publish under its own id only (``hardware/mosquitto/acl``)::

    <prefix>/<board>/state           retained: the board's full state and its sequence number,
                                     with ``previous``: [{match_id, seq}] of earlier matches
    <prefix>/<board>/events          QoS 1: every match event, with the state after it and
                                     the match's rules and setup (the hub replays them)
    <prefix>/<board>/status          retained: online / offline (offline is the last will),
                                     with the ``version`` of skitter the board runs
    <prefix>/<board>/command         hub → board: undo, correct, resend, offer (a tournament
                                     game for the board's tablet: ``tournament_wire.offer``),
                                     withdraw (that offer taken back, by its id)
    <prefix>/<board>/command/result  board → hub: the board's answer to one command

Payloads are JSON objects of at most :data:`MAX_PAYLOAD` bytes, decoded on both sides by the
API's own strict decoder; the hub checks every value (``hub.intake``).
An event's ``id`` is ``<board>:<match>:<seq>``: the hub keeps one
row per id, so a board may publish an event any number of times (it does, after the broker
was away) and the hub still counts it once. An event of a match started from the hub's offer carries
``pairing``: ``{"id", "round", "table"}`` of the game it is (``tournament_wire.offer``).
"""

from __future__ import annotations

import json
import re
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from scorekeeper.checks import decode_json
from scorekeeper.errors import MalformedEventError
from tournament_wire.broker import MqttSettings, parse_mqtt_url

WIRE_VERSION = 1
"""Bumped when a payload changes incompatibly."""

class CommandKind(StrEnum):
    """What the hub may ask of a board; ``resend`` is answered by the link itself; ``withdraw``
    (``{"offer": id}``) takes back an offered game that has its result another way or moved
    to another board. A string enum: on the wire it is the word it always was."""

    UNDO = "undo"
    CORRECT = "correct"
    RESEND = "resend"
    OFFER = "offer"
    WITHDRAW = "withdraw"


COMMAND_KINDS = tuple(CommandKind)
"""Every kind of command, in order (what a refusal lists)."""


class TopicKind(StrEnum):
    """What a message on a board's topic is: the topic's last part (``command/result``)."""

    STATE = "state"
    EVENTS = "events"
    STATUS = "status"
    COMMAND = "command"
    COMMAND_RESULT = "command/result"
    SELFTEST = "selftest"

BOARD_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

MAX_PAYLOAD = 16 * 1024
"""Bytes one message may hold. A real event (the step, the names and the state after it) is
under 2 kB, a state message a little more; the broker refuses larger ones too
(``message_size_limit`` in ``hardware/mosquitto/skitter.conf``), and both sides refuse them
before decoding, should a broker be set up without it."""

KEEPALIVE = 15
"""Seconds between pings; a board silent for 1.5 times this is declared offline (last will)."""


class WireError(ValueError):
    """A payload, topic, board id or broker URL that does not follow this contract."""


def check_board_id(board_id: object) -> str:
    """``board_id`` when usable in a topic and an ACL: letters, digits, ``_ . -``; 1–64 chars."""
    if not isinstance(board_id, str) or not BOARD_ID_RE.match(board_id):
        raise WireError(
            f"board id {board_id!r} must be 1-64 letters, digits, '_', '.' or '-' "
            "(it is a topic level and the board's broker user name)"
        )
    return board_id


@dataclass(frozen=True)
class Topics:
    """The topic names of one board (or, with ``board='+'``, the hub's subscriptions)."""

    prefix: str
    board: str

    @property
    def state(self) -> str:
        return f"{self.prefix}/{self.board}/state"

    @property
    def events(self) -> str:
        return f"{self.prefix}/{self.board}/events"

    @property
    def status(self) -> str:
        return f"{self.prefix}/{self.board}/status"

    @property
    def command(self) -> str:
        return f"{self.prefix}/{self.board}/command"

    @property
    def command_result(self) -> str:
        return f"{self.prefix}/{self.board}/command/result"


def split_topic(prefix: str, topic: str) -> tuple[str, TopicKind]:
    """``(board, kind)`` of a topic under ``prefix``, its kind decoded here once.

    Raises :class:`WireError` for a topic outside the contract.
    """
    head = prefix + "/"
    if not topic.startswith(head):
        raise WireError(f"topic {topic!r} is not under {prefix!r}")
    board, _, kind = topic[len(head) :].partition("/")
    if kind not in tuple(TopicKind):
        raise WireError(f"topic {topic!r}: unknown kind {kind!r}")
    return check_board_id(board), TopicKind(kind)


def event_id(board: str, match_id: int, seq: int) -> str:
    """The id the hub de-duplicates on."""
    return f"{board}:{match_id}:{seq}"


def encode(payload: Mapping[str, Any]) -> bytes:
    return json.dumps(payload, separators=(",", ":"), sort_keys=True,
                      allow_nan=False).encode("utf-8")


def decode(data: bytes) -> dict[str, Any]:
    """The JSON object in ``data``; :class:`WireError` for anything else.

    The decoder is the API's own (:func:`scorekeeper.checks.decode_json`: UTF-8, no NaN or
    Infinity, bounded depth, integers within the safe range, no lone surrogates), after the
    size cap :data:`MAX_PAYLOAD`."""
    if len(data) > MAX_PAYLOAD:
        raise WireError(f"payload of {len(data)} bytes is larger than {MAX_PAYLOAD} bytes")
    try:
        value = decode_json(data, "payload")
    except MalformedEventError as exc:
        raise WireError(str(exc)) from None
    if not isinstance(value, dict):
        raise WireError(f"payload must be a JSON object, got {type(value).__name__}")
    return value


def want(payload: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    """``payload[key]`` when of type ``kind`` (bools are never ints here)."""
    value = payload.get(key)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise WireError(f"payload key {key!r} missing or of the wrong type: {value!r}")
    return value


# ----------------------------------------------------------------------------- connecting


def settings_from_url(
    url: str,
    *,
    username: str | None = None,
    password: str | None = None,
    tls_ca: str | None = None,
    tls_cert: str | None = None,
    tls_key: str | None = None,
    tls_insecure: bool = False,
    topic_prefix: str = "skitter",
) -> MqttSettings:
    """Broker settings from ``mqtt[s]://[user:password@]host[:port]`` plus options.

    Used by ``skitter hub``, which has no configuration file of its own. Raises
    :class:`WireError` naming what is wrong (never repeating a password).
    """
    try:
        split = parse_mqtt_url(url)
    except ValueError as exc:
        raise WireError(f"the broker URL {exc}") from None
    if split.username is not None:
        if username is not None:
            raise WireError("broker user given both in the URL and as an option; keep one")
        username = split.username
        if split.password is not None:
            password = split.password
    if password is not None and username is None:
        raise WireError("a broker password needs a user name as well")
    if (tls_cert is None) != (tls_key is None):
        raise WireError("a TLS client certificate needs its key, and the key its certificate")
    return MqttSettings(
        url=split.url,
        username=username,
        password=password,
        tls_ca=Path(tls_ca) if tls_ca else None,
        tls_cert=Path(tls_cert) if tls_cert else None,
        tls_key=Path(tls_key) if tls_key else None,
        tls_insecure=tls_insecure,
        topic_prefix=topic_prefix,
    )


def make_client(
    settings: MqttSettings,
    client_id: str,
    *,
    clean_session: bool = True,
    reconnect_delay: tuple[float, float] = (0.2, 5.0),
) -> mqtt.Client:
    """A paho client (callback API 2, MQTT 3.1.1) with credentials and TLS as configured.

    Reconnection is paho's: ``loop_start()`` keeps retrying, waiting from
    ``reconnect_delay[0]`` doubling up to ``reconnect_delay[1]`` seconds.
    """
    if not settings.enabled:
        raise WireError("no broker configured (mqtt.url is not set)")
    client = mqtt.Client(
        CallbackAPIVersion.VERSION2,
        client_id=client_id,
        clean_session=clean_session,
        protocol=mqtt.MQTTv311,
    )
    if settings.username is not None:
        client.username_pw_set(settings.username, settings.password)
    if settings.tls:
        client.tls_set(
            ca_certs=str(settings.tls_ca) if settings.tls_ca else None,
            certfile=str(settings.tls_cert) if settings.tls_cert else None,
            keyfile=str(settings.tls_key) if settings.tls_key else None,
            cert_reqs=ssl.CERT_REQUIRED,
        )
        client.tls_insecure_set(settings.tls_insecure)
    client.reconnect_delay_set(
        min_delay=reconnect_delay[0],  # type: ignore[arg-type]  # paho sleeps on floats too
        max_delay=reconnect_delay[1],  # type: ignore[arg-type]
    )
    return client


def connect(client: mqtt.Client, settings: MqttSettings) -> None:
    """Start connecting in paho's own thread; it retries until the broker answers."""
    client.connect_async(str(settings.host), int(settings.port or 1883), keepalive=KEEPALIVE)
    client.loop_start()
