"""``skitter log``: list the stored matches, export one as JSON lines, import one back, or
prune old shot timelines.

An export is a header line (rules, setup, names, timestamps) and one line per event with its
time and source, and a sensed step its sensor timeline (the shot review). An import is
checked twice before anything is written: the file's shape by the store, and the events by
replaying them through the rules, so a damaged or edited file that the rules would refuse
adds nothing to the log.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from datetime import UTC, datetime
from pathlib import Path

from pydantic import ValidationError

from firmware_bridge.clocks import WallClock
from scorekeeper.clock import Clock
from scorekeeper.errors import IllegalEventError
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.store import MatchStore, StoredMatch, StoreError
from scorekeeper.words import ENGLISH, Words, players_named
from skitter_cli.args import add_config_argument
from skitter_cli.help_words import WORDS
from skitter_cli.language import command_language
from web.config.settings import ConfigError, load_settings
from web_common.schemas import Names

HELP = WORDS.gettext("List stored matches, export or import one, or prune old shot timelines.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--db", type=Path,
                        help=WORDS.gettext("match log file (default: DATA_DIR/skitter.db)"))
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--export", metavar="MATCH",
                      help=WORDS.gettext("match id to export, or 'latest'"))
    what.add_argument("--import", dest="import_file", metavar="FILE", type=Path,
                      help=WORDS.gettext("a JSON lines export to add as a new match"))
    what.add_argument("--prune-timelines", metavar="DAYS", type=_days,
                      help=WORDS.gettext("remove the sensor timelines of steps older than "
                                         "DAYS days (the steps stay)"))
    parser.add_argument("-o", "--output", type=Path,
                        help=WORDS.gettext("write the export here (default: stdout)"))


def run(args: argparse.Namespace, wall: Clock | None = None) -> int:
    """``wall`` dates what ``--prune-timelines`` counts back from (the real time if None)."""
    t = command_language()  # until the configuration is read: the person's locale
    try:
        settings = load_settings(args.config, {"db": args.db})
    except ConfigError as exc:
        return _fail(t.gettext("configuration: {problem}").format(problem=exc))
    t = command_language(settings)
    try:
        with MatchStore(settings.db_path) as store:
            if args.export is not None:
                return _export(store, args.export, args.output, t)
            if args.import_file is not None:
                return _import(store, args.import_file, t)
            if args.prune_timelines is not None:
                now = (WallClock() if wall is None else wall).now()
                return _prune(store, args.prune_timelines, now, t)
            return _list(store, t)
    except StoreError as exc:
        return _fail(str(exc))


def shown(text: object) -> str:
    """``text`` safe for a terminal: control, format and direction characters escaped.

    A stored name is whatever a client sent; printed raw, ``\x1b[...`` would drive the
    terminal and U+202E would turn the line around.
    """
    return "".join(
        ch if ch == " " or unicodedata.category(ch)[0] not in "CZ" else f"\\u{ord(ch):04x}"
        for ch in str(text)
    )


def _list(store: MatchStore, t: Words = ENGLISH) -> int:
    matches = store.list_matches()
    if not matches:
        print(t.gettext("no matches stored"))
    for m in matches:
        when = _when(m["created_at"], t)
        names = t.gettext(" vs ").join(shown(n) for n in players_named(m["names"], t).values())
        variant = shown(m["rules"].get("variant", "classic"))
        events = t.ngettext("{variant}, {n} event", "{variant}, {n} events",
                            m["events"]).format(variant=variant, n=m["events"])
        print(f"{m['id']:>4}  {when}  {names}  ({events})")
    return 0


def _when(created_at: object, t: Words = ENGLISH) -> str:
    """The date of a match, or words saying it has none a calendar can show."""
    try:
        return datetime.fromtimestamp(float(created_at), UTC).strftime(  # type: ignore[arg-type]
            "%Y-%m-%d %H:%M UTC")
    except (OverflowError, OSError, ValueError, TypeError):
        return t.gettext("date unknown").ljust(16)


def _export(store: MatchStore, which: str, output: Path | None, t: Words = ENGLISH) -> int:
    if which == "latest":
        match_id = store.latest_match_id()
        if match_id is None:
            return _fail(t.gettext("no matches stored"))
    elif which.isdigit():
        match_id = int(which)
        if all(m["id"] != match_id for m in store.list_matches()):
            return _fail(t.gettext("no match {id} in {path}").format(id=match_id,
                                                                     path=store.path))
    else:
        return _fail(t.gettext("--export takes a match id or 'latest', not {which}").format(
            which=repr(which)))
    if output is None:
        store.export_jsonl(match_id, sys.stdout)
        return 0
    with output.open("w", encoding="utf-8") as out:
        count = store.export_jsonl(match_id, out)
    print(t.ngettext("exported match {id} ({n} event) to {path}",
                     "exported match {id} ({n} events) to {path}", count).format(
        id=match_id, n=count, path=output))
    return 0


MAX_IMPORT = 64 * 1024 * 1024
"""Bytes an export may have (a long match with every timeline is a few MB)."""


def _import(store: MatchStore, path: Path, t: Words = ENGLISH) -> int:
    """Add the export at ``path`` as a new match, or nothing: the file goes through the
    decoder and the value checks of the API (names as ``POST /api/match/new`` checks them,
    every step as the rules parse it) before anything is written."""
    try:
        if path.stat().st_size > MAX_IMPORT:
            return _fail(t.gettext("{path}: larger than {mb} MB; not an export").format(
                path=path, mb=MAX_IMPORT // (1024 * 1024)))
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(t.gettext("cannot read {path}: {why}").format(path=path, why=exc))
    try:
        staged = _staged(lines)
    except StoreError as exc:
        return _fail(f"{path}: {exc}")
    except Exception as exc:  # a file no check foresaw: one line, nothing imported
        return _fail(t.gettext("{path}: cannot be read as an export ({why})").format(
            path=path, why=f"{type(exc).__name__}: {exc}"))
    try:
        Names.model_validate(dict(staged.names))
    except ValidationError as exc:
        return _fail(t.gettext("{path}: {problem}; nothing imported").format(
            path=path, problem=_name_problem(exc)))
    try:
        rules, setup = Rules.from_json(dict(staged.rules)), Setup.from_json(dict(staged.setup))
        Match.replay(rules, setup, [e.body for e in staged.events], staged.names)  # type: ignore[arg-type]
    except IllegalEventError as exc:
        return _fail(t.gettext("{path}: the rules refuse this log: {why}").format(
            path=path, why=exc))
    except Exception as exc:  # a value the rules did not foresee: refused all the same
        return _fail(t.gettext("{path}: the rules refuse this log ({why})").format(
            path=path, why=f"{type(exc).__name__}: {exc}"))
    match_id = store.import_jsonl(lines)
    print(t.ngettext("imported {path} as match {id} ({n} event)",
                     "imported {path} as match {id} ({n} events)", len(staged.events)).format(
        path=path, id=match_id, n=len(staged.events)))
    return 0


def _staged(lines: list[str]) -> StoredMatch:
    """The match the export's lines make, read back from a scratch log in memory."""
    staging = MatchStore(":memory:")
    try:
        return staging.load(staging.import_jsonl(lines))
    finally:
        staging.close()


def _name_problem(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    return f"names.{where}: {first.get('msg', 'not a name')}"


def _days(text: str) -> float:
    try:
        days = float(text)
    except ValueError:
        days = -1.0
    if not days >= 0:
        raise argparse.ArgumentTypeError(command_language().gettext(
            "DAYS must be a number of days, 0 or more, not {text}").format(text=repr(text)))
    return days


def _prune(store: MatchStore, days: float, now: float, t: Words = ENGLISH) -> int:
    removed = store.prune_timelines(now - days * 86400)
    print(t.gettext("removed {n} shot timeline(s) older than {days} days; every step is "
                    "kept").format(n=removed, days=f"{days:g}"))
    return 0


def _fail(message: str) -> int:
    print(f"skitter log: {shown(message)}", file=sys.stderr)
    return 1
