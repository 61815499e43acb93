"""``skitter hardware``: the wiring diagram (SVG) and the bill of materials (CSV) of a board,
made from its profile, so they always match what the scorekeeper reads."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from firmware_bridge.profile import ProfileError, load_profile
from firmware_bridge.wiring import bom_csv, schematic_svg
from skitter_cli.help_words import WORDS
from skitter_cli.language import configured_language

HELP = WORDS.gettext("Write the board's wiring diagram (SVG) and parts list (CSV), made from "
                     "its profile.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--profile", metavar="FILE",
                        help=WORDS.gettext("board profile (default: the shipped profile)"))
    parser.add_argument("--out", metavar="DIR", default=".",
                        help=WORDS.gettext("folder to write wiring.svg and parts.csv into "
                                           "(default: the current folder)"))


def run(args: argparse.Namespace) -> int:
    t = configured_language()
    try:
        profile = load_profile(args.profile)
        svg, csv_text = schematic_svg(profile), bom_csv(profile)
    except ProfileError as exc:
        print(f"skitter hardware: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / "wiring.svg").write_text(svg, encoding="utf-8")
        (out / "parts.csv").write_text(csv_text, encoding="utf-8")
    except OSError as exc:
        print(f"skitter hardware: {exc}", file=sys.stderr)
        return 1
    print(t.gettext("wrote {svg} and {csv}").format(svg=out / "wiring.svg",
                                                    csv=out / "parts.csv"))
    return 0
