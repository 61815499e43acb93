"""Checking configuration values one key at a time, each error naming the key and its place.

Kept apart from :mod:`web.config.settings` (which decides precedence and builds
:class:`Settings`) so each file reads top to bottom: here, what a valid value of every key
looks like.
"""

from __future__ import annotations

import difflib
import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.sources import SourceKind, SourceSpec, SpecError, parse_spec
from tournament_wire.broker import parse_mqtt_url
from web_common.pin import is_pin_hash

ORIGIN_DEFAULT = "default"
ORIGIN_ENV = "environment"
ORIGIN_FILE = "file"
ORIGIN_COMMAND_LINE = "command line"

class ConfigError(ValueError):
    """The configuration cannot be used; the message names the key and where it came from."""


TOP_KEYS = (
    "source", "profile", "data_dir", "db", "host", "port", "pin_hash",
    "settle_ms", "debounce_ms", "record", "board_id", "allowed_origins", "proxy_headers",
    "caller_language", "language",
    "connections_per_address", "connections", "connections_reserved", "request_seconds",
    "stall_seconds",
    "websocket_max_bytes",
)  # fmt: skip
MQTT_KEYS = (
    "url", "username", "password", "password_file", "tls_ca", "tls_cert", "tls_key", "tls_insecure",
    "topic_prefix",
)  # fmt: skip
ALL_KEYS = TOP_KEYS + tuple(f"mqtt.{k}" for k in MQTT_KEYS)


def parse_source(spec: str) -> SourceSpec:
    """Split a ``source`` value by the bridge's one grammar (:func:`firmware_bridge.sources.
    parse_spec`); raise :class:`ConfigError` naming the key when it is wrong."""
    try:
        return parse_spec(spec)
    except SpecError as exc:
        raise ConfigError(f"source: {exc}") from None


# ----------------------------------------------------------------------------- checking values


@dataclass(frozen=True)
class Raw:
    """One value as given, with where it came from (for messages and relative paths)."""

    value: object
    origin: str
    where: str
    base: Path


def _type_name(value: object) -> str:
    return {bool: "boolean", int: "integer", float: "number", str: "string"}.get(
        type(value), "table" if isinstance(value, dict) else type(value).__name__
    )


def fail(key: str, raw: Raw, problem: str) -> ConfigError:
    return ConfigError(f"{key}: {problem} ({raw.where})")


def _want_str(key: str, raw: Raw) -> str:
    if not isinstance(raw.value, str):
        raise fail(key, raw, f"expected a string, got {raw.value!r} ({_type_name(raw.value)})")
    if not raw.value.strip():
        raise fail(key, raw, "must not be empty")
    return raw.value.strip()


def _want_int(key: str, raw: Raw, low: int, high: int) -> int:
    value = raw.value
    if isinstance(value, str) and value.strip().isdigit() and raw.origin == ORIGIN_COMMAND_LINE:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(key, raw, f"expected an integer, got {raw.value!r} ({_type_name(raw.value)})")
    if not low <= value <= high:
        raise fail(key, raw, f"must be between {low} and {high}, got {value}")
    return value


def _want_bool(key: str, raw: Raw) -> bool:
    if not isinstance(raw.value, bool):
        raise fail(
            key, raw, f"expected true or false, got {raw.value!r} ({_type_name(raw.value)})"
        )
    return raw.value


def _want_path(key: str, raw: Raw, *, must_exist: bool = False) -> Path:
    text = str(raw.value) if isinstance(raw.value, Path) else _want_str(key, raw)
    path = Path(text).expanduser()
    if not path.is_absolute():
        path = raw.base / path
    if must_exist and not path.is_file():
        raise fail(key, raw, f"file not found: {path}")
    return path


_HOSTNAME = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.?)+$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def _check_host(key: str, raw: Raw) -> str:
    host = _want_str(key, raw)
    try:
        ipaddress.ip_address(host)
    except ValueError:
        if not _HOSTNAME.match(host):
            raise fail(key, raw, f"not an IP address or host name: {host!r}") from None
    return host


def _check_source(key: str, raw: Raw) -> str:
    text = _want_str(key, raw)
    try:
        spec = parse_source(text)
    except ConfigError as exc:
        raise ConfigError(f"{exc} ({raw.where})") from None
    if spec.kind is SourceKind.REPLAY:
        path = _want_path(key, Raw(spec.argument, raw.origin, raw.where, raw.base))
        if not path.is_file():
            raise fail(key, raw, f"replay file not found: {path}")
        return f"replay:{path}"
    return text


def _check_name(key: str, raw: Raw) -> str:
    name = _want_str(key, raw)
    if not _NAME.match(name):
        raise fail(
            key, raw, f"{name!r} may hold only letters, digits, '-', '_' and '.' (64 at most)"
        )
    return name


def _check_pin_hash(key: str, raw: Raw) -> str:
    text = _want_str(key, raw)
    if not is_pin_hash(text):
        raise fail(key, raw, "not a PIN hash made by 'skitter set-pin' (scrypt$...)")
    return text


def _check_password(key: str, raw: Raw) -> str:
    # Never repeat a password in a message: it may be shown on a screen or logged.
    if not isinstance(raw.value, str) or not raw.value:
        raise fail(key, raw, f"expected a non-empty string, got a {_type_name(raw.value)}")
    return raw.value


CALLER_LANGUAGES = ("en", "de")
"""Languages the caller speaks (the sentence tables of ``web/caller/sentences.py``)."""


def _check_language(key: str, raw: Raw) -> str:
    text = _want_str(key, raw)
    if text not in CALLER_LANGUAGES:
        raise fail(key, raw, f"must be one of {', '.join(CALLER_LANGUAGES)}")
    return text


def _check_page_language(key: str, raw: Raw) -> str:
    from web_common.i18n import available

    text = _want_str(key, raw)
    if text not in available():
        raise fail(key, raw, f"must be one of {', '.join(available())} (web_common/locale/*.po)")
    return text


_ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+$")


def _check_origins(key: str, raw: Raw) -> tuple[str, ...]:
    """Web origins (``http://host[:port]``) whose pages may change a match besides our own."""
    if not isinstance(raw.value, list | tuple) or not all(isinstance(v, str) for v in raw.value):
        raise fail(key, raw, f"expected a list of strings, got {_type_name(raw.value)}")
    for origin in raw.value:
        if not _ORIGIN.match(origin.rstrip("/")):
            raise fail(key, raw, f"{origin!r} is not an origin like http://host:8000")
    return tuple(o.rstrip("/") for o in raw.value)


def _check_mqtt_url(key: str, raw: Raw) -> str:
    text = _want_str(key, raw)
    try:
        parse_mqtt_url(text)
    except ValueError as exc:
        raise fail(key, raw, str(exc)) from None
    return text


CHECKS = {
    "source": _check_source,
    "profile": lambda k, r: _want_path(k, r, must_exist=True),
    "data_dir": _want_path,
    "db": _want_path,
    "host": _check_host,
    "port": lambda k, r: _want_int(k, r, 1, 65535),
    "pin_hash": _check_pin_hash,
    "settle_ms": lambda k, r: _want_int(k, r, 0, 60_000),
    "debounce_ms": lambda k, r: _want_int(k, r, 0, 60_000),
    "record": _want_path,
    "board_id": _check_name,
    "caller_language": lambda k, r: _check_language(k, r),
    "language": lambda k, r: _check_page_language(k, r),
    "mqtt.url": _check_mqtt_url,
    "mqtt.username": _want_str,
    "allowed_origins": _check_origins,
    "proxy_headers": _want_bool,
    "connections_per_address": lambda k, r: _want_int(k, r, 1, 100_000),
    "connections": lambda k, r: _want_int(k, r, 8, 100_000),
    "connections_reserved": lambda k, r: _want_int(k, r, 0, 10_000),
    "request_seconds": lambda k, r: _want_int(k, r, 1, 600),
    "stall_seconds": lambda k, r: _want_int(k, r, 1, 3600),
    "websocket_max_bytes": lambda k, r: _want_int(k, r, 1024, 16 * 1024 * 1024),
    "mqtt.password": lambda k, r: _check_password(k, r),
    "mqtt.password_file": lambda k, r: _want_path(k, r, must_exist=True),
    "mqtt.tls_ca": lambda k, r: _want_path(k, r, must_exist=True),
    "mqtt.tls_cert": lambda k, r: _want_path(k, r, must_exist=True),
    "mqtt.tls_key": lambda k, r: _want_path(k, r, must_exist=True),
    "mqtt.tls_insecure": _want_bool,
    "mqtt.topic_prefix": _check_name,
}


def _unknown(key: str, where: str) -> ConfigError:
    near = difflib.get_close_matches(key, ALL_KEYS, n=1)
    hint = f"; did you mean {near[0]!r}?" if near else f"; known keys: {', '.join(ALL_KEYS)}"
    return ConfigError(f"unknown key {key!r} ({where}){hint}")


def flatten_file(data: Mapping[str, object], path: Path) -> dict[str, Raw]:
    where = f"in {path}"
    flat: dict[str, Raw] = {}
    for key, value in data.items():
        if key == "mqtt":
            if not isinstance(value, dict):
                raise ConfigError(
                    f"mqtt: expected a [mqtt] table, got {_type_name(value)} ({where})"
                )
            for sub, subvalue in value.items():
                if sub not in MQTT_KEYS:
                    raise _unknown(f"mqtt.{sub}", where)
                flat[f"mqtt.{sub}"] = Raw(subvalue, ORIGIN_FILE, where, path.parent)
        elif key in TOP_KEYS:
            flat[key] = Raw(value, ORIGIN_FILE, where, path.parent)
        else:
            raise _unknown(key, where)
    return flat


def flatten_overrides(overrides: Mapping[str, object]) -> dict[str, Raw]:
    flat: dict[str, Raw] = {}
    for key, value in overrides.items():
        if value is None:
            continue
        name = key.replace("-", "_")
        if name not in CHECKS:
            raise _unknown(name, "on the command line")
        flat[name] = Raw(value, ORIGIN_COMMAND_LINE, "on the command line", Path.cwd())
    return flat


