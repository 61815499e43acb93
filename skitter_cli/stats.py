"""``skitter stats``: players' statistics and ratings in the terminal, or as CSV.

The same figures as ``/stats`` (both read :class:`~web.stats.history.History`), for a referee
with a laptop and no browser, or for a spreadsheet.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scorekeeper.stats import PlayerStats
from scorekeeper.store import StoreError
from scorekeeper.words import ENGLISH, Words
from skitter_cli.args import add_config_argument
from skitter_cli.help_words import WORDS
from skitter_cli.language import command_language
from web.config.settings import ConfigError, load_settings
from web.stats.history import History, Overview
from web_common.spreadsheet_csv import csv_writer

HELP = WORDS.gettext("Players' statistics and ratings from the match log; --export writes CSV.")

COLUMNS = ("name", "rating", "matches", "matches_won", "rounds_won", "rounds_played", "shots",
           "points", "points_per_shot", "red_advance", "red_back", "penalties", "own_goals",
           "clearings", "chains", "shots_per_round")
"""The CSV's columns, in order (the keys of ``/api/stats`` rows)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--db", type=Path,
                        help=WORDS.gettext("match log file (default: DATA_DIR/skitter.db)"))
    parser.add_argument("--player", metavar="NAME",
                        help=WORDS.gettext("one player's statistics in full"))
    parser.add_argument("--export", metavar="FILE", type=Path,
                        help=WORDS.gettext("write every player's statistics as CSV"))


def run(args: argparse.Namespace) -> int:
    t = command_language()  # until the configuration is read: the person's locale
    try:
        settings = load_settings(args.config, {"db": args.db})
    except ConfigError as exc:
        return _fail(t.gettext("configuration: {problem}").format(problem=exc))
    t = command_language(settings)
    if not settings.db_path.is_file():
        return _fail(t.gettext("no match log at {path}").format(path=settings.db_path))
    try:
        view = History(settings.db_path).overview()
    except StoreError as exc:
        return _fail(str(exc))
    for problem in view.problems:
        print(f"skitter stats: {problem}", file=sys.stderr)
    if args.export is not None:
        return _export(view, args.export, t)
    if args.player is not None:
        return _player(view, args.player, t)
    return _table(view, t)


def _export(view: Overview, path: Path, t: Words = ENGLISH) -> int:
    try:
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv_writer(f)
            writer.writerow(COLUMNS)
            writer.writerows([row.get(column) for column in COLUMNS] for row in view.table())
    except OSError as exc:
        return _fail(t.gettext("cannot write {path}: {why}").format(path=path,
                                                                     why=exc.strerror))
    print(t.gettext("wrote {n} players to {path}").format(n=len(view.players), path=path))
    return 0


def _table(view: Overview, t: Words = ENGLISH) -> int:
    rows = view.table()
    if not rows:
        print(t.gettext("no finished matches between named players yet"))
        return 0
    # the headings outside the f-string: Babel extracts no message from inside one
    player, rating, matches = t.gettext("Player"), t.gettext("Rating"), t.gettext("Matches")
    won, rounds, per_shot = t.gettext("Won"), t.gettext("Rounds"), t.gettext("Pts/shot")
    print(f"{player:<20} {rating:>7} {matches:>8} {won:>4} {rounds:>7} {per_shot:>9}")
    for r in rows:
        rating = "" if r["rating"] is None else f"{r['rating']:.1f}"
        print(f"{r['name'][:20]:<20} {rating:>7} {r['matches']:>8} {r['matches_won']:>4} "
              f"{r['rounds_won']:>7} {r['points_per_shot']:>9.2f}")
    return 0


def lines_for(player: PlayerStats, rating: float | None, t: Words = ENGLISH) -> list[str]:
    """One player's figures as lines of plain words (in the language ``t``)."""
    tally = player.tally
    rated = t.gettext("not rated") if rating is None else f"{rating:.1f}"
    return [player.name] + ["  " + line for line in (
        t.gettext("Rating: {rating}").format(rating=rated),
        t.gettext("Matches: {played} played, {won} won").format(
            played=player.matches, won=player.matches_won),
        t.gettext("Rounds: {won} won of {played}").format(
            won=player.rounds_won, played=player.rounds_played),
        t.gettext("Shots: {shots}, points: {points}").format(
            shots=tally.shots, points=tally.points),
        t.gettext("Points per shot: {n}").format(n=f"{player.points_per_shot:.2f}"),
        t.gettext("Hit on Red: {advance} advance, {back} back").format(
            advance=tally.red_advance, back=tally.red_back),
        t.gettext("Penalties: {n}").format(n=tally.penalties),
        t.gettext("Own goals: {n}").format(n=tally.own_goals),
        t.gettext("Clearings: {n}").format(n=tally.clearings),
        t.gettext("Chains: {n}").format(n=tally.chains),
        t.gettext("Shots per round: {n}").format(n=f"{player.shots_per_round:.2f}"),
    )]


def _player(view: Overview, name: str, t: Words = ENGLISH) -> int:
    player = view.player(name)
    if player is None:
        return _fail(t.gettext("no finished match of a player called {name}").format(
            name=repr(name)))
    rating = view.rating(name)
    print("\n".join(lines_for(player, None if rating is None else rating.ordinal, t)))
    others = [p.name for p in view.players.values() if p.name != player.name]
    if others:
        print("  " + t.gettext("Head to head:"))
    for other in sorted(others, key=str.casefold):
        h = view.head_to_head(player.name, other)
        if h.matches:
            print("    " + t.gettext("against {other}: {n} matches, won {won}, lost {lost}; "
                                     "rounds {mine} to {theirs}").format(
                other=other, n=h.matches, won=h.wins[0], lost=h.wins[1],
                mine=h.rounds[0], theirs=h.rounds[1]))
    return 0


def _fail(message: str) -> int:
    print(f"skitter stats: {message}", file=sys.stderr)
    return 1
