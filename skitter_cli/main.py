"""The ``skitter`` command line: one subcommand per module, registered below.

Each command module provides ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Keeping them apart keeps this file a table of contents.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from skitter_cli.help_words import WORDS, Formatter, argparse_refusals, headings
from web_common.version import skitter_version

COMMANDS: dict[str, str] = {
    "rules-check": "skitter_cli.rules_check",
    "serve": "skitter_cli.serve",
    "config": "skitter_cli.config_cmd",
    "set-pin": "skitter_cli.set_pin",
    "sensors": "skitter_cli.sensors",
    "selftest": "skitter_cli.selftest",
    "calibrate": "skitter_cli.calibrate",
    "hardware": "skitter_cli.hardware",
    "hub": "skitter_cli.hub",
    "log": "skitter_cli.log",
    "stats": "skitter_cli.stats",
}
"""Each subcommand's name and the module that holds it. Only the module of the command asked
for is imported (each brings what its work needs, the web app, the hub, the sensors: all of
them took a second to import on every ``skitter`` run); ``skitter`` alone, or ``--help``, or
a name it does not know imports them all to list them."""


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser with every registered subcommand, its help in the command's language
    (``argv``'s ``--config`` file, else the usual one, else the locale: see
    :mod:`skitter_cli.language`)."""
    from skitter_cli.language import configured_language

    WORDS.t = configured_language(_config_in(sys.argv[1:] if argv is None else argv))
    argparse_refusals()
    parser = argparse.ArgumentParser(
        prog="skitter", formatter_class=Formatter,
        description=WORDS.gettext("Scorekeeper for skitter, the magnetic flicking game."),
    )
    headings(parser)
    parser.add_argument("--version", action="version", version=f"skitter {skitter_version()}",
                        help=WORDS.gettext("show the version of skitter and stop"))
    sub = parser.add_subparsers(dest="command", metavar=WORDS.gettext("COMMAND"))
    chosen = _command_in(sys.argv[1:] if argv is None else argv)
    for name, dotted in COMMANDS.items():
        if chosen in COMMANDS and name != chosen:
            sub.add_parser(name)  # only its name is needed: the command asked for is another
            continue
        module = importlib.import_module(dotted)
        about = WORDS.gettext(module.HELP)
        p = sub.add_parser(name, help=about, description=about)
        headings(p)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def _command_in(argv: Sequence[str]) -> str | None:
    """The command ``argv`` asks for: its first word that is not an option (the options
    before a command take no value)."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def _config_in(argv: Sequence[str]) -> str | None:
    """The ``--config`` file ``argv`` names, if any (read before the parser exists)."""
    for i, arg in enumerate(argv):
        if arg == "--config" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--config="):
            return arg.split("=", 1)[1]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``skitter`` console script."""
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
