"""``skitter set-pin``: replace the referee PIN (asked twice, never echoed).

The hash goes into the data directory's PIN file. A ``pin_hash`` in a configuration file wins
over that file, so the new hash is also written there: always into the file named by
``--config``, and into the file in effect whenever it already holds a ``pin_hash`` (otherwise
the new PIN would silently not work). ``tomlkit`` keeps the file's comments and layout.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from collections.abc import Callable
from pathlib import Path

import tomlkit

from firmware_bridge.files import replace_file
from scorekeeper.words import ENGLISH, Words
from skitter_cli.args import add_config_argument
from skitter_cli.help_words import WORDS
from skitter_cli.language import command_language
from web.config.settings import ConfigError, load_settings
from web_common.pin import PinError, PinStore, check_pin_format, hash_pin

HELP = WORDS.gettext("Set the referee PIN (stored only as a hash).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--data-dir``, ``--config`` and ``--pin`` (for scripts; otherwise it is asked twice)."""
    parser.add_argument("--data-dir", type=Path,
                        help=WORDS.gettext("data directory (default: the config's)"))
    add_config_argument(parser)
    parser.add_argument(
        "--pin",
        help=WORDS.gettext("the new PIN, for scripts (visible to other users in the process "
                           "list)")
    )


def run(args: argparse.Namespace, *, ask: Callable[[str], str] = getpass.getpass) -> int:
    """Write the new PIN; exit status 2 with a message for a bad PIN or configuration."""
    t = command_language()  # until the configuration is read: the person's locale
    try:
        settings = load_settings(args.config, {"data_dir": args.data_dir})
        t = command_language(settings)
        pin = args.pin if args.pin is not None else _ask_twice(ask, t)
        pin = check_pin_format(pin)
        hashed = hash_pin(pin)
        store = PinStore(settings.data_dir)
        store.set_hash(hashed)
        print(t.gettext("referee PIN saved in {path}").format(path=store.path))
        config_file = settings.config_path
        if config_file is not None and (args.config is not None or settings.pin_hash):
            write_pin_hash_to_config(config_file, hashed)
            print(t.gettext("pin_hash written to {path}").format(path=config_file))
    except (ConfigError, PinError) as exc:
        print(f"skitter set-pin: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        message = (t.gettext("cannot write {path}: {why}") if exc.filename
                   else t.gettext("cannot write: {why}"))
        print("skitter set-pin: " + message.format(path=exc.filename, why=exc.strerror),
              file=sys.stderr)
        return 1
    return 0


def _ask_twice(ask: Callable[[str], str], t: Words = ENGLISH) -> str:
    first = check_pin_format(ask(t.gettext("New referee PIN (4-12 digits): ")))
    if ask(t.gettext("Repeat the PIN: ")).strip() != first:
        raise PinError(t.gettext("the two PINs differ; nothing was changed"))
    return first


def write_pin_hash_to_config(path: Path, hashed: str) -> None:
    """Set ``pin_hash`` in the TOML file, keeping everything else as the person wrote it.

    The file is replaced atomically and keeps its mode and owner.
    """
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    doc["pin_hash"] = hashed  # tomlkit keeps a new top-level key ahead of the tables
    st = path.stat()
    replace_file(path, tomlkit.dumps(doc), mode=st.st_mode & 0o7777,
                 owner=(st.st_uid, st.st_gid) if os.geteuid() == 0 else None)

