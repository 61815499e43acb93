"""How a board and the hub reach the tournament's MQTT broker: its address and credentials.

Both sides read a broker URL with the one parser here (:func:`parse_mqtt_url`); a board takes
it from its configuration file (``web.config.settings``), the hub from its command line
(``tournament_wire.wire.settings_from_url``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

MQTT_DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


@dataclass(frozen=True)
class MqttUrl:
    """A broker address split from its credentials."""

    url: str
    """``mqtt[s]://host[:port]``, without user name or password."""
    username: str | None
    password: str | None
    host: str
    """The broker's host name or address."""
    port: int
    """The port given, else the scheme's (1883 for mqtt://, 8883 for mqtts://)."""


def parse_mqtt_url(text: str) -> MqttUrl:
    """Split ``mqtt[s]://[user[:password]@]host[:port]`` (the one parser for board and hub).

    Raises ``ValueError`` saying what is wrong; the message never repeats the URL, which may
    hold a password.
    """
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"not a valid broker URL: {exc}") from None
    if parts.scheme not in MQTT_DEFAULT_PORTS:
        raise ValueError("must start with mqtt:// or mqtts://")
    if not parts.hostname:
        raise ValueError("names no broker host")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError("must be mqtt[s]://[user:password@]host[:port] only")
    if port == 0:
        raise ValueError("port must be between 1 and 65535")
    host = parts.hostname
    netloc = f"[{host}]" if ":" in host else host
    if port:
        netloc += f":{port}"
    username = unquote(parts.username) if parts.username is not None else None
    password = unquote(parts.password) if parts.password is not None else None
    return MqttUrl(f"{parts.scheme}://{netloc}", username, password, host,
                   port or MQTT_DEFAULT_PORTS[parts.scheme])


@dataclass(frozen=True)
class MqttSettings:
    """How this board reaches the tournament's MQTT broker (``url`` None: no MQTT)."""

    url: str | None = None
    """``mqtt://host[:port]`` or ``mqtts://host[:port]``; credentials are moved out of it."""

    username: str | None = None
    """Broker user name (also taken from ``mqtt://user:password@host``)."""

    password: str | None = field(default=None, repr=False)
    """Broker password; never printed."""

    tls_ca: Path | None = None
    """CA certificate file that signed the broker's certificate (None: system CAs)."""

    tls_cert: Path | None = None
    """Client certificate file, for brokers that want one (needs ``tls_key``)."""

    tls_key: Path | None = None
    """Private key of ``tls_cert``."""

    tls_insecure: bool = False
    """Skip the broker host name check (self-signed test brokers only)."""

    topic_prefix: str = "skitter"
    """First level of every topic this board publishes."""

    @property
    def enabled(self) -> bool:
        """True when a broker is configured."""
        return self.url is not None

    @property
    def host(self) -> str | None:
        """The broker's host name or address."""
        return parse_mqtt_url(self.url).host if self.url else None

    @property
    def port(self) -> int | None:
        """The broker's port (1883 for mqtt://, 8883 for mqtts:// unless given)."""
        return parse_mqtt_url(self.url).port if self.url else None

    @property
    def tls(self) -> bool:
        """True for ``mqtts://`` or when any certificate is configured."""
        return bool(self.url and self.url.startswith("mqtts://")) or any(
            (self.tls_ca, self.tls_cert, self.tls_key)
        )
