"""The ``skitter`` command's ``--help`` in the command's language.

Help texts are written where each option is, as ``WORDS.gettext("...")`` (so ``python -m
web_common.catalogs`` finds them); :func:`skitter_cli.main.build_parser` sets the language first
(:func:`skitter_cli.language.configured_language` decides), so they are made in it. The module
constants (a command's ``HELP``) are made at import, in English, and translated when the parser is
built. argparse's own headings are translated there too, and so are its refusals of an argument
(:func:`argparse_refusals`).
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

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.t.ngettext(singular, plural, n)


WORDS = _HelpWords()


def N_(message: str) -> str:  # noqa: N802 (gettext's name for a message marked, not said)
    """A message for the catalogs that another module says (argparse's, below)."""
    return message


def N_plural(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 (as N_)
    """:func:`N_` for a message with a plural."""
    return singular, plural


# The refusals argparse can give a person at the command line, as argparse writes them (its
# msgids, %-placeholders and all); argparse's checks of the parser itself are the
# programmer's and stay English.
ARGPARSE_REFUSALS = (
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("can't open '%(filename)s': %(error)s"),
)
ARGPARSE_PLURALS = (N_plural("expected %s argument", "expected %s arguments"),)


def argparse_refusals() -> None:
    """argparse's refusals of an argument in this run's language.

    argparse words them with the ``gettext`` functions it imported as ``_`` and ``ngettext``
    (the C locale's English, whatever the catalogs say); they are looked up when a refusal is
    made, so pointing them at :data:`WORDS` makes every refusal the command gives in its
    language. Only the ``skitter`` command's process calls this."""
    argparse._ = WORDS.gettext  # type: ignore[attr-defined]
    argparse.ngettext = WORDS.ngettext  # type: ignore[attr-defined]


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
