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
from web.cli.sensors import open_for_command

ETC_PROFILE = "/etc/skitter/board.toml"
"""Where install.sh puts the builder's own copy of the reference profile."""

NAME = "calibrate"
HELP = ("Learn how many skitts each number of active cells means, field by field, and up to "
        "how many the counts can be trusted.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", help=f"{SPECS_HELP} (default: the profile's hardware)")
    parser.add_argument("--profile", help="board profile TOML to calibrate and update "
                        "(on an installed Pi: /etc/skitter/board.toml; the profile shipped "
                        "inside skitter is never written)")
    parser.add_argument("--fields", nargs="+", metavar="FIELD",
                        help="calibrate only these fields (default: all seven)")


def _ask(prompt: str) -> str:
    try:
        return input(prompt)
    except EOFError:
        return "q"


def run(args: argparse.Namespace) -> int:
    clock = MonotonicClock()
    try:
        profile, source = open_for_command(args, clock)
    except (ProfileError, SourceError) as exc:
        print(f"skitter calibrate: {exc}", file=sys.stderr)
        return 2
    if profile.path is not None and is_shipped_copy(profile.path):
        print(f"skitter calibrate: board profile {profile.path} is the copy shipped inside "
              f"skitter, replaced by every update: calibrate your own copy, e.g. "
              f"'sudo install -m 0644 {profile.path} {ETC_PROFILE}', then 'sudo skitter "
              f"calibrate --profile {ETC_PROFILE}' and profile = \"{ETC_PROFILE}\" in "
              "/etc/skitter/skitter.toml (install.sh makes that copy)", file=sys.stderr)
        return 2
    try:
        source.start()
    except SourceError as exc:
        source.close()
        print(f"skitter calibrate: {exc}", file=sys.stderr)
        return 2
    try:
        print(f"Calibrating board {profile.name!r} ({profile.path}) from source {source.name}.")
        calibration = Calibration(source, profile, clock, ask=_ask, say=print, wait=time.sleep)
        maps = calibration.run(args.fields)
        if not maps:
            print("nothing written")
            return 0
        write_count_maps(profile.path, maps, calibration.capacities)  # type: ignore[arg-type]
        print(f"wrote counts and capacity for {len(maps)} field(s) to {profile.path}")
        return 0
    except CalibrationError as exc:
        print(f"skitter calibrate: {exc}", file=sys.stderr)
        return 1
    finally:
        source.close()
