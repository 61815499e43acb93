"""``skitter sensors``: the live cell map and field counts, for building and checking a board.
(``--audit``: the sensors' record over past matches instead, see ``skitter_cli.sensors_audit``.)

A builder runs it while passing a magnet over each cell: every cell lights up in the map
next to the field it belongs to, so a miswired sensor shows at once. ``--json`` prints one
JSON line per change (``"type": "frame"``) and per settled reading (``"type": "reading"``)
for scripts; ``--record FILE`` keeps the raw events as a sensor log for ``replay:FILE``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from firmware_bridge.clocks import MonotonicClock
from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import BoardProfile, ProfileError, load_profile
from firmware_bridge.replay import RecordingSource
from firmware_bridge.source import Source, SourceError
from firmware_bridge.sources import SPECS_HELP, open_source
from firmware_bridge.timeline import reading_json
from scorekeeper.clock import Clock
from scorekeeper.reading import BoardReading
from scorekeeper.words import ENGLISH, Words
from skitter_cli import sensors_audit
from skitter_cli.help_words import WORDS
from skitter_cli.language import configured_language

HELP = WORDS.gettext("Show the live sensor cells and field counts of a board.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", help=WORDS.gettext(
                        "{sources} (default: the profile's hardware, "
                        "mcp23017 when it has an [mcp23017] section, else serial)").format(
                            sources=WORDS.gettext(SPECS_HELP)))
    parser.add_argument("--profile", help=WORDS.gettext(
                        "board profile TOML (default: the reference profile "
                        "shipped with skitter; on an installed Pi /etc/skitter/board.toml)"))
    parser.add_argument("--json", action="store_true",
                        help=WORDS.gettext("print JSON lines, one per change"))
    parser.add_argument("--once", action="store_true",
                        help=WORDS.gettext("print one frame and exit"))
    parser.add_argument("--duration", type=float, metavar="SECONDS",
                        help=WORDS.gettext("stop after this many seconds (default: until Ctrl-C)"))
    parser.add_argument("--interval", type=float, default=0.05, metavar="SECONDS",
                        help=WORDS.gettext("polling interval (default 0.05)"))
    parser.add_argument("--record", metavar="FILE",
                        help=WORDS.gettext("also write the raw events to FILE"))
    parser.add_argument("--speed", type=float, default=1.0,
                        help=WORDS.gettext("replay speed for replay:FILE (0 = all at once)"))
    sensors_audit.add_arguments(parser)


def default_spec(profile: BoardProfile) -> str:
    """The hardware the profile describes."""
    return "mcp23017" if profile.mcp23017 is not None else "serial"


def open_for_command(args: argparse.Namespace, clock: Clock) -> tuple[BoardProfile, Source]:
    """Profile and (unstarted) source from ``--profile``/``--source``; errors propagate."""
    profile = load_profile(args.profile)
    spec = args.source or default_spec(profile)
    opts: dict[str, Any] = {}
    if spec.startswith("replay:"):
        opts["speed"] = getattr(args, "speed", 1.0)
    source = open_source(spec, profile, clock, **opts)
    record = getattr(args, "record", None)
    if record:
        source = RecordingSource(source, record, clock=clock, profile=profile.name)
    return profile, source


def run(args: argparse.Namespace) -> int:
    if getattr(args, "audit", False):
        return sensors_audit.run(args)
    t = configured_language()
    clock = MonotonicClock()
    try:
        profile, source = open_for_command(args, clock)
        source.start()
    except (ProfileError, SourceError) as exc:
        print(f"skitter sensors: {exc}", file=sys.stderr)
        return 2
    try:
        pipeline = Pipeline(profile, clock, initial=source.snapshot())
        return stream(
            source, pipeline, clock, sys.stdout, as_json=args.json, once=args.once,
            duration=args.duration, interval=args.interval, sleep=time.sleep,
            clear=sys.stdout.isatty() and not args.json, t=t,
        )
    finally:
        source.close()


def stream(
    source: Source,
    pipeline: Pipeline,
    clock: Clock,
    out: TextIO,
    *,
    as_json: bool = False,
    once: bool = False,
    duration: float | None = None,
    interval: float = 0.05,
    sleep: Callable[[float], object] = time.sleep,
    clear: bool = False,
    t: Words = ENGLISH,
) -> int:
    """Poll ``source`` into ``pipeline`` and print a frame whenever the board changes (its
    words in the language ``t``)."""
    start = clock.now()
    last: object = None
    while True:
        readings = pipeline.pump(source)
        if as_json:
            data = frame_data(source, pipeline)
            if data != last:
                out.write(json.dumps({"type": "frame", "t": round(clock.now() - start, 3),
                                      **data}) + "\n")
                last = data
            for reading in readings:
                out.write(json.dumps(reading_data(reading)) + "\n")
        else:
            text = render_frame(source, pipeline, t)
            if text != last:
                out.write(("\x1b[H\x1b[2J" if clear else "") + text + "\n")
                last = text
        out.flush()
        if once or (duration is not None and clock.now() - start >= duration):
            return 0
        sleep(interval)


def frame_data(source: Source, pipeline: Pipeline) -> dict[str, Any]:
    """The live board as plain JSON-able data."""
    status = source.status()
    reading = pipeline.reading()
    return {
        "source": source.name,
        "link": {"up": status.up, "message": status.message, "degraded": status.degraded,
                 "errors": status.errors},
        "active": sorted(pipeline.active_cells()),
        "counts": dict(reading.counts),
        "big": dict(reading.big),
        "bridges": sorted(list(pair) for pair in reading.bridges),
        "muted": sorted(pipeline.health.muted),
        "flags": [{"cell": f.cell, "field": f.field, "kind": str(f.kind), "since": f.since,
                   "muted": f.muted} for f in pipeline.flags()],
        "at_rest": pipeline.at_rest(),
        "held": pipeline.hold_reasons(),
    }


def reading_data(reading: BoardReading) -> dict[str, Any]:
    """A settled reading as JSON-able data (the keys a shot timeline keeps, and its time)."""
    return {"type": "reading", "at": reading.at, **reading_json(reading)}


def render_frame(source: Source, pipeline: Pipeline, t: Words = ENGLISH) -> str:
    """The live board as text: the cell map, then counts, spots, bridges and flags, in the
    language ``t``."""
    profile = pipeline.profile
    status = source.status()
    active = pipeline.active_cells()
    muted = pipeline.health.muted
    flagged = {f.cell for f in pipeline.flags()}
    roles = profile.cell_roles()
    link = t.gettext("up") if status.up else t.gettext("DOWN")
    if status.degraded:
        link += ", " + t.gettext("degraded ({n} errors)").format(n=status.errors)
    if status.message and not status.up:  # it says the link is down, and why
        lines = [t.gettext("board {board} · source {source}").format(
            board=profile.name, source=source.name) + f" · {status.message}"]
    else:
        lines = [t.gettext("board {board} · source {source} · link {link}").format(
            board=profile.name, source=source.name, link=link)
                 + (f" · {status.message}" if status.message else "")]
    lines.append(t.gettext("cells: ■ active  □ idle  ✕ muted  ! flagged  · not used"))

    def mark(cell: int) -> str:
        if cell in flagged:
            return "!"
        if cell in muted:
            return "✕"
        if cell in active:
            return "■"
        return "□" if cell in roles else "·"

    for block in range(0, profile.cells, 16):
        cells = range(block, min(block + 16, profile.cells))
        if profile.mcp23017 is not None and block // 16 < len(profile.mcp23017.addresses):
            label = f"0x{profile.mcp23017.addresses[block // 16]:02X}"
            marks = "".join(mark(c) for c in cells)
            lines.append(f"  {label} A {marks[:8]} B {marks[8:]}   ("
                         + t.gettext("cells {first}-{last}").format(first=block, last=cells[-1])
                         + ")")
        else:
            lines.append(f"  {block:3d}-{cells[-1]:<3d} " + "".join(mark(c) for c in cells))
    counts = pipeline.current_counts()
    lines.append(t.gettext("fields:"))
    for name, fc in profile.fields.items():
        marks = "".join(mark(c) for c in fc.cells)
        lines.append(f"  {name:<14} {counts[name]:>2}  {marks}")
    reading = pipeline.reading()
    # (each message outside the f-strings, where Babel extracts it)
    on_spot, pressed = t.gettext("on spot"), t.gettext("pressed")
    if profile.big:
        big = ", ".join(f"{p} {on_spot if on else '-'}" for p, on in reading.big.items())
        lines.append(t.gettext("big skitts: {spots}").format(spots=big))
    if profile.bridges:
        chains = ", ".join(f"{a}/{b}" for a, b in sorted(reading.bridges)) or t.gettext("none")
        lines.append(t.gettext("bridges: {chains}").format(chains=chains))
    if profile.launch:
        spots = ", ".join(
            f"{p} {pressed if any(c in active for c in cells) else '-'}"
            for p, cells in profile.launch.items()
        )
        lines.append(t.gettext("launch spots: {spots}").format(spots=spots))
    lines.append(t.gettext("board at rest") if pipeline.at_rest() else t.gettext("board settling"))
    lines.extend(t.gettext("HELD: {reason}").format(reason=reason)
                 for reason in pipeline.hold_reasons())
    lines.extend(t.gettext("flag: {flag}").format(flag=f.message())
                 for f in pipeline.flags() if f.muted)
    return "\n".join(lines)
