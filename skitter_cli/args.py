"""Command-line options that override the configuration file, shared by every command.

``skitter serve`` and ``skitter config --show`` take the same options so that ``--show``
prints exactly what ``serve`` would use with the same arguments.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from urllib.parse import urlsplit

from scorekeeper.words import Words
from skitter_cli.help_words import WORDS
from web.config.settings import Settings, load_settings

# (option names, settings key, type, what the help calls its value, help: marked for the
# catalogs, translated when added)
_OPTIONS: tuple[tuple[str | tuple[str, ...], str, type, str, str], ...] = (
    (("--source", "--board"), "source", str, "SOURCE",
     WORDS.gettext("sim, physics, mcp23017, serial, serial:PORT or replay:FILE")),
    ("--profile", "profile", str, "FILE",
     WORDS.gettext("board profile file (default: the shipped profile)")),
    ("--data-dir", "data_dir", str, "DIR",
     WORDS.gettext("folder for the match log and the referee PIN")),
    ("--db", "db", str, "FILE",
     WORDS.gettext("match log database (default: DATA_DIR/skitter.db)")),
    ("--host", "host", str, "ADDRESS",
     WORDS.gettext("address to listen on (default 127.0.0.1; 0.0.0.0 for the LAN)")),
    ("--port", "port", int, "PORT", WORDS.gettext("TCP port (default 8000)")),
    ("--settle-ms", "settle_ms", int, "MS",
     WORDS.gettext("a fixed settle window in ms (default: the profile's settle rule)")),
    ("--debounce-ms", "debounce_ms", int, "MS",
     WORDS.gettext("debounce in ms (default: the profile's)")),
    ("--record", "record", str, "FILE", WORDS.gettext("record every sensor event to this file")),
    ("--board-id", "board_id", str, "NAME", WORDS.gettext("this board's name in a tournament")),
    (("--mqtt", "--mqtt-url"), "mqtt.url", str, "URL", WORDS.gettext(
     "tournament broker, mqtt[s]://[user@]host[:port] (a password here is visible to "
     "every user of the machine: use --mqtt-password-file or $SKITTER_MQTT_PASSWORD)")),
    ("--mqtt-password-file", "mqtt.password_file", str, "FILE",
     WORDS.gettext("file whose first line is the broker password")),
)


def add_config_argument(parser: argparse.ArgumentParser) -> None:
    """Add ``--config FILE`` alone."""
    parser.add_argument(
        "--config",
        metavar="FILE",
        type=Path,
        help=WORDS.gettext("configuration file (default: $SKITTER_CONFIG, else "
                           "/etc/skitter/skitter.toml when present)"),
    )


def add_settings_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--config`` and one option per overridable key (each defaults to "not given")."""
    add_config_argument(parser)
    group = parser.add_argument_group(WORDS.gettext("configuration overrides (win over the file)"))
    for option, key, kind, value, text in _OPTIONS:
        names = (option,) if isinstance(option, str) else option
        group.add_argument(*names, dest=_dest(key), type=kind, default=None, metavar=value,
                           help=WORDS.gettext(text))


def overrides_from_args(args: argparse.Namespace) -> dict[str, object]:
    """The override mapping for :func:`web.config.settings.load_settings` (None: not given)."""
    return {key: getattr(args, _dest(key), None) for _, key, _, _, _ in _OPTIONS}


def settings_from_args(args: argparse.Namespace) -> Settings:
    """Load the settings named and overridden by parsed arguments (raises ConfigError)."""
    return load_settings(getattr(args, "config", None), overrides_from_args(args))


def _dest(key: str) -> str:
    return "opt_" + key.replace(".", "_")


def command_line_secrets(pin: str | None, mqtt_url: str | None, t: Words) -> list[str]:
    """Warnings for secrets typed as arguments: ``ps`` shows them to every user.

    Shared by ``skitter serve`` and ``skitter hub``, in the command's words ``t``; a warning
    never repeats the secret.
    """
    out = []
    if pin is not None:
        out.append(t.gettext("--pin puts the PIN where every user of this machine can "
                             "read it (ps); use --pin-file or $SKITTER_PIN"))
    try:
        password = urlsplit(mqtt_url).password if mqtt_url else None
    except ValueError:
        password = None
    if password is not None:
        out.append(t.gettext("the --mqtt address holds a password that every user of "
                             "this machine can read (ps); use --mqtt-password-file or "
                             "$SKITTER_MQTT_PASSWORD"))
    return out
