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
from firmware_bridge.profile import ProfileError
from firmware_bridge.source import SourceError
from firmware_bridge.sources import SPECS_HELP
from web.cli.sensors import open_for_command

NAME = "calibrate"
HELP = ("Learn how many skitts each number of active cells means, field by field, and up to "
        "how many the counts can be trusted.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", help=f"{SPECS_HELP} (default: the profile's hardware)")
    parser.add_argument("--profile", help="board profile TOML to calibrate and update "
                        "(default: hardware/boards/default.toml)")
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
        source.start()
    except (ProfileError, SourceError) as exc:
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
