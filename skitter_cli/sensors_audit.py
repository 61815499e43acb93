"""``skitter sensors --audit``: each cell's record over the last matches (changes, flags,
mutes, matches in a row without a change) and each field's amended shots, from the match
log and the health log beside it (``firmware_bridge.audit``)."""

from __future__ import annotations

import argparse
import json
import sys

from firmware_bridge.profile import ProfileError, load_profile
from scorekeeper.store import MatchStore, StoreError
from skitter_cli.help_words import WORDS
from skitter_cli.language import command_language
from web.config.settings import ConfigError, load_settings
from web.table.audit_read import read_audit


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--audit", action="store_true",
                        help=WORDS.gettext("print the sensor audit over the last matches and exit"))
    parser.add_argument("--db",
                        help=WORDS.gettext("the match log for --audit (default: the "
                                           "configuration's)"))
    parser.add_argument("--config", help=WORDS.gettext("configuration file (for --audit)"))
    parser.add_argument("--matches", type=int, default=20, metavar="N",
                        help=WORDS.gettext("--audit: how many of the newest matches (default 20)"))
    parser.add_argument("--silent-after", type=int, default=3, metavar="N",
                        help=WORDS.gettext("--audit: name cells unchanged in this many matches "
                                           "(default 3)"))


def run(args: argparse.Namespace) -> int:
    t = command_language()  # until the configuration is read: the person's locale
    try:
        settings = load_settings(args.config, {"db": args.db})
        t = command_language(settings)
        profile = load_profile(args.profile)
    except (ConfigError, ProfileError) as exc:
        print(f"skitter sensors: {exc}", file=sys.stderr)
        return 2
    if not settings.db_path.exists():
        print("skitter sensors: " + t.gettext("no match log at {path}").format(
            path=settings.db_path), file=sys.stderr)
        return 2
    try:
        store = MatchStore(settings.db_path)
    except StoreError as exc:
        print(f"skitter sensors: {exc}", file=sys.stderr)
        return 2
    try:
        result = read_audit(store, profile, last=max(1, args.matches),
                            silent_after=max(1, args.silent_after), t=t)
    finally:
        store.close()
    if args.json:
        print(json.dumps(result.to_json(t)))
    else:
        print(result.text(t), end="")
    return 0
