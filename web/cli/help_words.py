"""The ``skitter`` command's ``--help`` in the command's language.

Help texts are written where each option is, as ``WORDS.gettext("...")`` (so
``python -m web.catalogs`` finds them); :func:`web.cli.main.build_parser` sets the language
first (:func:`web.cli.language.configured_language` decides), so they are made in it. The
module constants (a command's ``HELP``) are made at import, in English, and translated when
the parser is built. argparse's own headings are translated there too.
"""

from __future__ import annotations

import argparse
from typing import Any

from scorekeeper.words import ENGLISH, Words


class _HelpWords:
    """``gettext`` in the language of this run's help (English until one is set)."""

    def __init__(self) -> None:
        self.t: Words = ENGLISH

    def gettext(self, message: str) -> str:
        return self.t.gettext(message)


WORDS = _HelpWords()


class Formatter(argparse.HelpFormatter):
    """argparse's help with its ``usage:`` in the help's language."""

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups,
                          WORDS.gettext("usage: ") if prefix is None else prefix)


def headings(parser: argparse.ArgumentParser) -> None:
    """argparse's own words of ``parser`` (its sections, the help option) in the language."""
    parser.formatter_class = Formatter
    parser._positionals.title = WORDS.gettext("positional arguments")
    parser._optionals.title = WORDS.gettext("options")
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            action.help = WORDS.gettext("show this help message and exit")
