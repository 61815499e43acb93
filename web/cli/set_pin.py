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
import tempfile
from collections.abc import Callable
from pathlib import Path

import tomlkit

from web.config.args import add_config_argument
from web.config.pin import PinError, PinStore, check_pin_format, hash_pin
from web.config.settings import ConfigError, load_settings

NAME = "set-pin"
HELP = "Set the referee PIN (stored only as a hash)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--data-dir``, ``--config`` and ``--pin`` (for scripts; otherwise it is asked twice)."""
    parser.add_argument("--data-dir", type=Path, help="data directory (default: the config's)")
    add_config_argument(parser)
    parser.add_argument(
        "--pin", help="the new PIN, for scripts (visible to other users in the process list)"
    )


def run(args: argparse.Namespace, *, ask: Callable[[str], str] = getpass.getpass) -> int:
    """Write the new PIN; exit status 2 with a message for a bad PIN or configuration."""
    try:
        settings = load_settings(args.config, {"data_dir": args.data_dir})
        pin = args.pin if args.pin is not None else _ask_twice(ask)
        pin = check_pin_format(pin)
        hashed = hash_pin(pin)
        store = PinStore(settings.data_dir)
        store.set_hash(hashed)
        print(f"referee PIN saved in {store.path}")
        config_file = settings.config_path
        if config_file is not None and (args.config is not None or settings.pin_hash):
            write_pin_hash_to_config(config_file, hashed)
            print(f"pin_hash written to {config_file}")
    except (ConfigError, PinError) as exc:
        print(f"skitter set-pin: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        print(f"skitter set-pin: cannot write{where}: {exc.strerror}", file=sys.stderr)
        return 1
    return 0


def _ask_twice(ask: Callable[[str], str]) -> str:
    first = check_pin_format(ask("New referee PIN (4-12 digits): "))
    if ask("Repeat the PIN: ").strip() != first:
        raise PinError("the two PINs differ; nothing was changed")
    return first


def write_pin_hash_to_config(path: Path, hashed: str) -> None:
    """Set ``pin_hash`` in the TOML file, keeping everything else as the person wrote it.

    The file is replaced atomically and keeps its mode and owner.
    """
    doc = tomlkit.parse(path.read_text(encoding="utf-8"))
    doc["pin_hash"] = hashed  # tomlkit keeps a new top-level key ahead of the tables
    mode = path.stat().st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(tomlkit.dumps(doc))
        if os.geteuid() == 0:
            st = path.stat()
            os.chown(tmp, st.st_uid, st.st_gid)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

