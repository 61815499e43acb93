"""The ``skitter`` command line: one subcommand per module, registered below.

Each command module provides ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Keeping them apart keeps this file a table of contents.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from skitter_cli.help_words import WORDS, Formatter, argparse_refusals, headings
from web_common.version import skitter_version

COMMAND_MODULES: tuple[str, ...] = (
    "skitter_cli.rules_check",
    "skitter_cli.serve",
    "skitter_cli.config_cmd",
    "skitter_cli.set_pin",
    "skitter_cli.sensors",
    "skitter_cli.selftest",
    "skitter_cli.calibrate",
    "skitter_cli.hardware",
    "skitter_cli.hub",
    "skitter_cli.log",
    "skitter_cli.stats",
)


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
    for dotted in COMMAND_MODULES:
        module = importlib.import_module(dotted)
        about = WORDS.gettext(module.HELP)
        p = sub.add_parser(module.NAME, help=about, description=about)
        headings(p)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


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
