"""The ``skitter`` command line: one subcommand per module, registered below.

Each command module provides ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``. Keeping them apart keeps this file a table of contents.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES: tuple[str, ...] = (
    "web.cli.rules_check",
    "web.cli.serve",
    "web.cli.config_cmd",
    "web.cli.set_pin",
    "web.cli.sensors",
    "web.cli.calibrate",
    "web.cli.hub",
    "web.cli.log",
    "web.cli.stats",
)


def build_parser() -> argparse.ArgumentParser:
    """The parser with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="skitter", description="Scorekeeper for skitter, the magnetic flicking game."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for dotted in COMMAND_MODULES:
        module = importlib.import_module(dotted)
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``skitter`` console script."""
    parser = build_parser()
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
