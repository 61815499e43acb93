"""``skitter calibrate``: walk the builder through the fields and save each count map and
capacity (the most skitts the counts can be trusted for).

The dialogue itself lives in :mod:`firmware_bridge.calibrate` (tested without a terminal);
this module only wires it to ``input()``, ``print()`` and the real clock.
"""

from __future__ import annotations

import argparse
import sys
import time

from firmware_bridge.calibrate import Calibration, CalibrationError, write_count_maps
from firmware_bridge.clocks import MonotonicClock
from firmware_bridge.profile import ProfileError, is_shipped_copy
from firmware_bridge.source import SourceError
from firmware_bridge.sources import SPECS_HELP
from skitter_cli.help_words import WORDS
from skitter_cli.language import configured_language
from skitter_cli.sensors import open_for_command

ETC_PROFILE = "/etc/skitter/board.toml"
"""Where install.sh puts the builder's own copy of the reference profile."""

HELP = WORDS.gettext("Learn how many skitts each number of active cells means, field by "
                     "field, and up to how many the counts can be trusted.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", help=WORDS.gettext(
        "{sources} (default: the profile's hardware)").format(sources=WORDS.gettext(SPECS_HELP)))
    parser.add_argument("--profile", help=WORDS.gettext(
                        "board profile TOML to calibrate and update "
                        "(on an installed Pi: /etc/skitter/board.toml; the profile shipped "
                        "inside skitter is never written)"))
    parser.add_argument("--fields", nargs="+", metavar="FIELD",
                        help=WORDS.gettext("calibrate only these fields (default: all seven)"))


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "q"


def run(args: argparse.Namespace) -> int:
    t = configured_language()
    clock = MonotonicClock()
    try:
        profile, source = open_for_command(args, clock)
    except (ProfileError, SourceError) as exc:
        print(f"skitter calibrate: {exc}", file=sys.stderr)
        return 2
    if profile.path is not None and is_shipped_copy(profile.path):
        print("skitter calibrate: " + t.gettext(
            "board profile {path} is the copy shipped inside skitter, replaced by every "
            "update: calibrate your own copy, e.g. 'sudo install -m 0644 {path} {etc}', then "
            "'sudo skitter calibrate --profile {etc}' and profile = \"{etc}\" in "
            "/etc/skitter/skitter.toml (install.sh makes that copy)").format(
            path=profile.path, etc=ETC_PROFILE), file=sys.stderr)
        return 2
    try:
        source.start()
    except SourceError as exc:
        source.close()
        print(f"skitter calibrate: {exc}", file=sys.stderr)
        return 2
    try:
        print(t.gettext("Calibrating board {board} ({path}) from source {source}.").format(
            board=repr(profile.name), path=profile.path, source=source.name))
        calibration = Calibration(source, profile, clock, ask=_ask, say=print, wait=time.sleep,
                                  t=t)
        maps = calibration.run(args.fields)
        if not maps:
            print(t.gettext("nothing written"))
            return 0
        write_count_maps(profile.path, maps, calibration.capacities)  # type: ignore[arg-type]
        print(t.gettext("wrote counts and capacity for {n} field(s) to {path}").format(
            n=len(maps), path=profile.path))
        return 0
    except CalibrationError as exc:
        print(f"skitter calibrate: {exc}", file=sys.stderr)
        return 1
    finally:
        source.close()
