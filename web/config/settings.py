"""The one configuration file of ``skitter serve``, read and checked once at start.

A board at a venue runs unattended, so every key has a default and every mistake is caught
when the program starts, with a message naming the key and the file, rather than in the
middle of a match. Precedence, lowest first: defaults (``$SKITTER_DATA`` moves the data
directory), the TOML file, command-line options. Each :class:`Settings` remembers where every
value came from so ``skitter config --show`` can say so.

Where the file is found: ``--config FILE``; else ``$SKITTER_CONFIG``; else
``/etc/skitter/skitter.toml`` when it exists; else no file (all defaults). A file named
explicitly (option or environment) must exist.

Relative paths in the file are taken relative to the file's folder, so a configuration and
its profile can move together; on the command line they are relative to the working folder.
"""

from __future__ import annotations

import os
import tomllib
import types
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tournament_wire.broker import MqttSettings, parse_mqtt_url
from web.config.values import (
    ALL_KEYS,
    CALLER_LANGUAGES,
    CHECKS,
    ORIGIN_COMMAND_LINE,
    ORIGIN_DEFAULT,
    ORIGIN_ENV,
    ORIGIN_FILE,
    ConfigError,
    Raw,
    SourceSpec,
    fail,
    flatten_file,
    flatten_overrides,
    parse_source,
)
from web_common.limits import DEFAULT_LIMITS, Limits

__all__ = [
    "ALL_KEYS",
    "DEFAULT_CONFIG_PATH",
    "ORIGIN_COMMAND_LINE",
    "ORIGIN_DEFAULT",
    "ORIGIN_ENV",
    "ORIGIN_FILE",
    "ConfigError",
    "Settings",
    "SourceSpec",
    "find_config_file",
    "load_settings",
    "parse_source",
    "read_config_file",
    "settings_as_dict",
    "settings_to_toml",
]

DEFAULT_CONFIG_PATH = Path("/etc/skitter/skitter.toml")
"""Read when present and no other file is named."""

PASSWORD_ENV = "SKITTER_MQTT_PASSWORD"
"""The broker password from the environment (wins over the file, loses to the command line)."""

def _default_data_dir(environ: Mapping[str, str]) -> Path:
    if environ.get("SKITTER_DATA"):
        return Path(environ["SKITTER_DATA"]).expanduser()
    home = environ.get("HOME")
    return (Path(home) if home else Path.home()) / ".local" / "share" / "skitter"


@dataclass(frozen=True)
class Settings:
    """The effective configuration of one ``skitter`` process."""

    source: str = "sim"
    """Where sensor events come from: ``sim``, ``physics``, ``mcp23017``, ``serial``,
    ``serial:PORT``, ``replay:FILE``."""

    profile: Path | None = None
    """Board profile file; None: the profile shipped with skitter."""

    data_dir: Path = field(default_factory=lambda: _default_data_dir(os.environ))
    """Where the match log and the referee PIN live."""

    db: Path | None = None
    """The SQLite match log; None: ``<data_dir>/skitter.db`` (``load_settings`` fills it)."""

    host: str = "127.0.0.1"
    """Address the web app listens on; ``0.0.0.0`` makes it reachable from the venue's LAN."""

    port: int = 8000
    """TCP port of the web app."""

    pin_hash: str | None = None
    """Hash of the referee PIN; when set it wins over the PIN file in the data directory."""

    settle_ms: int | None = None
    """How long the board must be at rest before a reading counts; None: the profile's."""

    debounce_ms: int | None = None
    """How long a cell must keep a new state before it counts; None: the profile's."""

    record: Path | None = None
    """Record every sensor event to this file (for ``replay:``); None: do not record."""

    board_id: str | None = None
    """This board's name in a tournament; None: the profile's ``board_id``, else host name."""

    allowed_origins: tuple[str, ...] = ()
    """Web origins (``http://host:port``) besides this server's own whose pages may change a
    match (a browser's change from any other origin gets 403)."""

    proxy_headers: bool = False
    """Trust ``X-Forwarded-For`` (only behind a reverse proxy: otherwise anyone could claim
    another address and dodge the wrong-PIN throttle)."""

    language: str = "en"
    """The venue's language for pages, answers and commands (a catalog in ``web_common/locale``);
    a page may ask for another with ``?lang=`` or its browser's Accept-Language."""

    caller_language: str = "en"
    """The language the caller speaks at start (``en`` or ``de``; the tablet may change it);
    when not set, ``language`` if the caller speaks it."""

    connections_per_address: int = DEFAULT_LIMITS.per_address
    """Connections one client address may hold at once (the next gets 429)."""

    connections: int = DEFAULT_LIMITS.connections
    """Connections the server holds at once (the next gets 503)."""

    connections_reserved: int = DEFAULT_LIMITS.reserved
    """Of ``connections``, the last ones kept for the signed-in referee and the TV pages."""

    request_seconds: int = int(DEFAULT_LIMITS.request_seconds)
    """Seconds a request may take to arrive in full before its connection is cut."""

    stall_seconds: int = int(DEFAULT_LIMITS.stall_seconds)
    """Seconds a live stream whose client stopped reading is kept before it is cut."""

    websocket_max_bytes: int = DEFAULT_LIMITS.websocket_bytes
    """Largest WebSocket message a page may send (a bigger one closes it with 1009)."""

    mqtt: MqttSettings = field(default_factory=MqttSettings)
    """Tournament link; off unless ``mqtt.url`` is set."""

    config_path: Path | None = field(default=None, compare=False)
    """The file these settings were read from (None: defaults only)."""

    origins: Mapping[str, str] = field(
        default_factory=lambda: types.MappingProxyType({}), compare=False, hash=False
    )
    """Where each key's value came from: ``default``, ``environment``, ``file``,
    ``command line``. Keys of the ``[mqtt]`` table are written ``mqtt.url`` etc."""

    @property
    def source_spec(self) -> SourceSpec:
        """``source`` split into its kind and argument."""
        return parse_source(self.source)

    @property
    def limits(self) -> Limits:
        """The connection and WebSocket caps the server runs with."""
        return Limits(per_address=self.connections_per_address, connections=self.connections,
                      reserved=self.connections_reserved, request_seconds=self.request_seconds,
                      stall_seconds=self.stall_seconds,
                      websocket_bytes=self.websocket_max_bytes)

    @property
    def db_path(self) -> Path:
        """The match log's path (``db`` or its default under ``data_dir``)."""
        return self.db if self.db is not None else self.data_dir / "skitter.db"



# ----------------------------------------------------------------------------- finding the file


def find_config_file(
    config_path: str | Path | None,
    environ: Mapping[str, str],
    default_path: Path,
) -> Path | None:
    """The file to read, or None. A file named explicitly must exist."""
    if config_path is not None:
        named, how = Path(config_path).expanduser(), "--config"
    elif environ.get("SKITTER_CONFIG"):
        named, how = Path(environ["SKITTER_CONFIG"]).expanduser(), "SKITTER_CONFIG"
    else:
        return default_path if default_path.is_file() else None
    if not named.is_file():
        raise ConfigError(f"configuration file not found: {named} (named by {how})")
    return named


def read_config_file(path: Path) -> dict[str, object]:
    """The file's TOML as a dict; syntax errors name the file and the line."""
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"cannot read configuration file {path}: {exc.strerror}") from exc


# ----------------------------------------------------------------------------- loading


def load_settings(
    config_path: str | Path | None = None,
    overrides: Mapping[str, object] | None = None,
    *,
    environ: Mapping[str, str] = os.environ,
    default_path: Path | None = None,
) -> Settings:
    """Read and check the configuration; raise :class:`ConfigError` naming the first bad key.

    ``overrides`` are command-line values by key (``port``, ``data_dir``, ``mqtt.url``...);
    None values are ignored so argparse defaults of None mean "not given".
    """
    path = find_config_file(config_path, environ, default_path or DEFAULT_CONFIG_PATH)
    raw = flatten_file(read_config_file(path), path) if path else {}
    if environ.get(PASSWORD_ENV):
        raw["mqtt.password"] = Raw(environ[PASSWORD_ENV], ORIGIN_ENV, f"from ${PASSWORD_ENV}",
                                   Path.cwd())
    raw.update(flatten_overrides(overrides or {}))

    values: dict[str, object] = {}
    origins: dict[str, str] = dict.fromkeys(ALL_KEYS, ORIGIN_DEFAULT)
    for key, item in raw.items():
        values[key] = CHECKS[key](key, item)
        origins[key] = item.origin

    if "caller_language" not in values and values.get("language") in CALLER_LANGUAGES:
        # a venue in German hears a German caller too, unless told otherwise
        values["caller_language"] = values["language"]
        origins["caller_language"] = origins["language"]
    if "data_dir" not in values:
        values["data_dir"] = _default_data_dir(environ)
        if environ.get("SKITTER_DATA"):
            origins["data_dir"] = ORIGIN_ENV
    if "db" not in values:
        values["db"] = values["data_dir"] / "skitter.db"  # type: ignore[operator]
        origins["db"] = origins["data_dir"]

    mqtt = _build_mqtt(values, raw, origins)
    top = {k: v for k, v in values.items() if not k.startswith("mqtt.")}
    return Settings(
        **top,  # type: ignore[arg-type]
        mqtt=mqtt,
        config_path=path,
        origins=types.MappingProxyType(origins),
    )


def _build_mqtt(
    values: dict[str, object], raw: Mapping[str, Raw], origins: dict[str, str]
) -> MqttSettings:
    """Move credentials out of the URL and check the keys that only make sense together."""
    fields_ = {k.removeprefix("mqtt."): v for k, v in values.items() if k.startswith("mqtt.")}
    secret_file = fields_.pop("password_file", None)
    if isinstance(secret_file, Path):
        if "password" in fields_:
            raise fail("mqtt.password_file", raw["mqtt.password_file"],
                       "given with mqtt.password as well; keep one")
        fields_["password"] = read_secret_file(secret_file, "mqtt.password_file")
        origins["mqtt.password"] = origins["mqtt.password_file"]
    url = fields_.get("url")
    if isinstance(url, str):
        split = parse_mqtt_url(url)
        for name in ("username", "password"):
            if getattr(split, name) is not None:
                if name in fields_:
                    raise fail(f"mqtt.{name}", raw[f"mqtt.{name}"],
                               "given both in mqtt.url and as its own key; keep one")
                fields_[name] = getattr(split, name)
                origins[f"mqtt.{name}"] = origins["mqtt.url"]
        fields_["url"] = split.url
    if ("tls_cert" in fields_) != ("tls_key" in fields_):
        given = "mqtt.tls_cert" if "tls_cert" in fields_ else "mqtt.tls_key"
        missing = "mqtt.tls_key" if "tls_cert" in fields_ else "mqtt.tls_cert"
        raise fail(given, raw[given], f"needs {missing} as well")
    if "password" in fields_ and "username" not in fields_:
        raise fail("mqtt.password", raw["mqtt.password"], "needs mqtt.username as well")
    return MqttSettings(**fields_)  # type: ignore[arg-type]


def read_secret_file(path: Path, key: str) -> str:
    """The first line of a secret file (a password, a PIN), never repeated in a message."""
    try:
        text = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{key}: cannot read {path}: {exc.__class__.__name__}") from None
    secret = text[0].strip() if text else ""
    if not secret:
        raise ConfigError(f"{key}: {path} is empty")
    return secret


# ----------------------------------------------------------------------------- showing

MASK = "********"

_UNSET_MEANING = {
    "profile": "the board profile shipped with skitter",
    "pin_hash": "the PIN file in the data directory",
    "settle_ms": "the board profile's settle rule",
    "debounce_ms": "the board profile's debounce",
    "record": "sensor events are not recorded",
    "board_id": "the profile's board_id, else the host name",
    "mqtt.url": "no tournament link",
    "mqtt.username": "none",
    "mqtt.password": "none",
    "mqtt.password_file": "none",
    "allowed_origins": "only this server's own pages",
    "mqtt.tls_ca": "the system's certificate authorities",
    "mqtt.tls_cert": "no client certificate",
    "mqtt.tls_key": "no client certificate",
}


def settings_as_dict(settings: Settings, *, mask: bool = True) -> dict[str, object]:
    """The settings as plain TOML-able values by dotted key; None for unset keys.

    With ``mask`` the MQTT password is replaced by asterisks (for printing and logs).
    """
    flat: dict[str, object] = {}
    for key in ALL_KEYS:
        if key == "mqtt.password_file":
            continue  # read into mqtt.password at start
        owner, name = (settings.mqtt, key[5:]) if key.startswith("mqtt.") else (settings, key)
        value = getattr(owner, name)
        if isinstance(value, Path):
            value = str(value)
        if isinstance(value, tuple):
            value = list(value) if value else None
        if key == "mqtt.password" and value is not None and mask:
            value = MASK
        flat[key] = value
    return flat


def settings_to_toml(settings: Settings, *, with_origins: bool = True) -> str:
    """The effective configuration as TOML a person can read (and paste into a file).

    Each line ends with where its value came from; unset keys appear as comments saying what
    applies instead. The password is always masked.
    """
    import tomlkit  # only needed for printing

    doc = tomlkit.document()
    where = f"read from {settings.config_path}" if settings.config_path else "no file: defaults"
    doc.add(tomlkit.comment(f"skitter configuration in effect ({where})"))
    mqtt = tomlkit.table()
    for key, value in settings_as_dict(settings).items():
        target, name = (mqtt, key[5:]) if key.startswith("mqtt.") else (doc, key)
        origin = settings.origins.get(key, ORIGIN_DEFAULT)
        if value is None:
            text = f"{name} is not set: {_UNSET_MEANING.get(key, 'none')}"
            target.add(tomlkit.comment(f"{text} ({origin})" if with_origins else text))
            continue
        item = tomlkit.item(value)
        if with_origins:
            item.comment(origin)
        target.add(name, item)
    doc.add(tomlkit.nl())
    doc.add("mqtt", mqtt)
    return tomlkit.dumps(doc)
