"""``skitter rules-check FILE_OR_FOLDER...``: run rules scenario files (docs/scenarios.md).

Prints ``PASS``/``FAIL`` per file and ``N passed, M failed``; exits 0 when all passed, 1 when
any failed, 2 when no file was found.
"""

from __future__ import annotations

import argparse
import sys

from scorekeeper.scenarios import run_paths
from skitter_cli.help_words import WORDS
from skitter_cli.language import configured_language

HELP = WORDS.gettext("Run rules scenario files (a folder means every *.json under it) and report.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="FILE_OR_FOLDER",
                        help=WORDS.gettext("scenario files, or folders searched recursively for "
                                           "*.json"))


def run(args: argparse.Namespace) -> int:
    return run_paths(args.paths, sys.stdout, t=configured_language())
