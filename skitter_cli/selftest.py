"""``skitter selftest``: prove every cell of a board before play, and print its check sheet.

The walk (:mod:`firmware_bridge.selftest`) says what to do next: a skitt on each spot of a
field, lifted again; the spots, the bridges, the buttons. It moves on by itself when every
cell of the part has answered, or after ``--step-timeout`` seconds without a new answer (the
silent cells are then marked). Ctrl-C ends the walk early; the sheet then says so. The sheet
is printed, kept as the board's last self-test beside the match log (``skitter serve``
shows it and sends it to the tournament hub), and written to ``--sheet FILE`` if asked.
Exit status 0 when every check passed, 1 when one failed. It opens the sensors itself: run
it while ``skitter serve`` is stopped (with the scorekeeper running, the referee page runs
the same walk).
"""

from __future__ import annotations

import argparse
import datetime
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from firmware_bridge.clocks import MonotonicClock
from firmware_bridge.profile import BoardProfile, ProfileError
from firmware_bridge.selftest import SelfTest, steps_for
from firmware_bridge.source import Source, SourceError
from firmware_bridge.sources import SPECS_HELP, SourceKind
from scorekeeper.clock import Clock
from scorekeeper.words import ENGLISH, Words
from skitter_cli.help_words import WORDS
from skitter_cli.language import command_language
from skitter_cli.sensors import open_for_command
from web.config.settings import ConfigError, load_settings
from web.table import selftest_record

HELP = WORDS.gettext(
    "Walk through every sensor cell and button of a board and print its check sheet.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", help=WORDS.gettext(
        "{sources} (default: the profile's hardware)").format(sources=WORDS.gettext(SPECS_HELP)))
    parser.add_argument("--profile", help=WORDS.gettext("board profile TOML"))
    parser.add_argument("--config",
                        help=WORDS.gettext("configuration file (for the board id and data dir)"))
    parser.add_argument("--data-dir", help=WORDS.gettext("where the last self-test is kept"))
    parser.add_argument("--board-id", help=WORDS.gettext(
                        "the board's id on the sheet (default: the "
                        "configuration's, the profile's, else the host name)"))
    parser.add_argument("--step-timeout", type=float, default=60.0, metavar="SECONDS",
                        help=WORDS.gettext("move on after this long without a new answer (default "
                                           "60)"))
    parser.add_argument("--sheet", metavar="FILE",
                        help=WORDS.gettext("also write the check sheet to FILE"))
    parser.add_argument("--interval", type=float, default=0.01, metavar="SECONDS",
                        help=WORDS.gettext("polling interval (default 0.01: chatter is seen raw)"))


def run(args: argparse.Namespace) -> int:
    clock = MonotonicClock()
    t = command_language()  # until the configuration is read: the person's locale
    try:
        settings = load_settings(args.config, {"data_dir": args.data_dir})
        t = command_language(settings)
        profile, source = open_for_command(args, clock)
        source.start()
    except (ConfigError, ProfileError, SourceError) as exc:
        print(f"skitter selftest: {exc}", file=sys.stderr)
        return 2
    board_id = args.board_id or settings.board_id or profile.board_id or socket.gethostname()
    buttons = open_buttons(profile, source, t)
    try:
        test = SelfTest(profile, clock.now(), initial=source.snapshot(), source=source.name,
                        buttons={role: list(b.names) for role, b in buttons.items()})
        try:
            walk(test, source, clock, sys.stdout, presses=lambda: poll_buttons(buttons),
                 step_timeout=args.step_timeout, interval=args.interval, sleep=time.sleep, t=t)
        except KeyboardInterrupt:
            print("\n" + t.gettext("stopped: the sheet marks what was not reached"),
                  file=sys.stdout)
        test.finish(clock.now())
        date = datetime.datetime.now().astimezone().isoformat("T", "seconds")
        sheet = test.sheet(board_id, date)  # kept and sent to the hub in English
        shown = test.sheet(board_id, date, t)
    finally:
        for b in buttons.values():
            b.close()
        source.close()
    text = shown.text(t)
    print("\n" + text, end="")
    kept = selftest_record.save(settings.data_dir, sheet)
    print(t.gettext("kept as the board's last self-test: {path}").format(path=kept))
    if args.sheet:
        Path(args.sheet).write_text(text, encoding="utf-8")
        print(t.gettext("check sheet written to {path}").format(path=args.sheet))
    return 0 if sheet.passed else 1


def open_buttons(profile: BoardProfile, source: Source, t: Words = ENGLISH) -> dict[str, Any]:
    """The profile's GPIO buttons, when this is the Pi they are wired to; none otherwise
    (the simulator, or a laptop with a serial board: the sheet then lists no buttons)."""
    if (profile.gpio is None or not profile.gpio.buttons
            or source.name in (SourceKind.SIM, SourceKind.PHYSICS)):
        return {}
    from firmware_bridge.gpio import Buttons

    out: dict[str, Any] = {}
    for role, mapping in profile.gpio.buttons.items():
        try:
            out[role] = Buttons(mapping)
        except Exception as exc:  # noqa: BLE001 - no GPIO here: test the cells alone
            print("skitter selftest: " + t.gettext("buttons left out ({why})").format(why=exc),
                  file=sys.stderr)
            for b in out.values():
                b.close()
            return {}
    return out


def poll_buttons(buttons: dict[str, Any]) -> list[tuple[str, str]]:
    return [(role, name) for role, b in buttons.items() for name in b.poll()]


def walk(
    test: SelfTest, source: Source, clock: Clock, out: TextIO, *,
    presses: Callable[[], list[tuple[str, str]]] = list,
    step_timeout: float = 60.0, interval: float = 0.01,
    sleep: Callable[[float], object] = time.sleep, t: Words = ENGLISH,
) -> None:
    """Poll ``source`` (and the buttons) into ``test`` until every step is behind, saying
    what to do and which cells answered as it goes (in the language ``t``)."""
    worded = steps_for(test.profile, test.buttons, t)
    shown: int | None = None
    answered: set[int] = set()
    last_news = clock.now()
    # the expanders' own counts (a RecordingSource wraps the real source)
    errors_of = getattr(getattr(source, "inner", source), "errors_by_expander", None)
    while (step := test.current) is not None:
        if test.index != shown:
            shown, answered = test.index, set()
            last_news = clock.now()
            out.write(f"\n[{test.index + 1}/{len(test.steps)}] "
                      f"{worded[test.index].instruction(t)}\n")
            if step.cells:
                out.write("  " + t.gettext("cells {cells}").format(
                    cells=", ".join(map(str, step.cells))) + "\n")
        test.feed(source.poll())
        now = clock.now()
        for role, name in presses():
            test.press(role, name, now)
        if errors_of is not None:
            test.expander_errors(errors_of())
        if test.index == shown:
            view = test.view()["step"]
            new = set(view["answered"]) - answered if view else set()
            for cell in sorted(new):
                out.write("  " + t.gettext("cell {cell} answered ({n}/{count})").format(
                    cell=cell, n=len(answered) + 1, count=len(step.cells)) + "\n")
                answered.add(cell)
            if new:
                last_news = now
            elif now - last_news >= step_timeout:
                silent = [c for c in step.cells if c not in answered]
                if silent:
                    what = t.gettext("moving on: cells {cells} did not answer within {s} s")
                else:
                    what = t.gettext("moving on: no press answer within {s} s")
                out.write("  " + what.format(cells=", ".join(map(str, silent)),
                                             s=f"{step_timeout:g}") + "\n")
                test.skip()
        else:
            out.write("  " + t.gettext("done") + "\n")
        out.flush()
        if test.current is not None:
            sleep(interval)
