"""``skitter stats``: players' statistics and ratings in the terminal, or as CSV.

The same figures as ``/stats`` (both read :class:`~web.stats.history.History`), for a referee
with a laptop and no browser, or for a spreadsheet.
"""

from __future__ import annotations

import argparse
import csv
import sys
from pathlib import Path

from scorekeeper.stats import PlayerStats
from scorekeeper.store import StoreError
from web.config.args import add_config_argument
from web.config.settings import ConfigError, load_settings
from web.stats.history import History, Overview

NAME = "stats"
HELP = "Players' statistics and ratings from the match log; --export writes CSV."

COLUMNS = ("name", "rating", "matches", "matches_won", "rounds_won", "rounds_played", "shots",
           "points", "points_per_shot", "red_advance", "red_back", "penalties", "own_goals",
           "clearings", "chains", "shots_per_round")
"""The CSV's columns, in order (the keys of ``/api/stats`` rows)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_config_argument(parser)
    parser.add_argument("--db", type=Path, help="match log file (default: DATA_DIR/skitter.db)")
    parser.add_argument("--player", metavar="NAME", help="one player's statistics in full")
    parser.add_argument("--export", metavar="FILE", type=Path,
                        help="write every player's statistics as CSV")


def run(args: argparse.Namespace) -> int:
    try:
        settings = load_settings(args.config, {"db": args.db})
    except ConfigError as exc:
        return _fail(f"configuration: {exc}")
    if not settings.db_path.is_file():
        return _fail(f"no match log at {settings.db_path}")
    try:
        view = History(settings.db_path).overview()
    except StoreError as exc:
        return _fail(str(exc))
    for problem in view.problems:
        print(f"skitter stats: {problem}", file=sys.stderr)
    if args.export is not None:
        return _export(view, args.export)
    if args.player is not None:
        return _player(view, args.player)
    return _table(view)


def _export(view: Overview, path: Path) -> int:
    try:
        with path.open("w", newline="", encoding="utf-8") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(view.table())
    except OSError as exc:
        return _fail(f"cannot write {path}: {exc.strerror}")
    print(f"wrote {len(view.players)} players to {path}")
    return 0


def _table(view: Overview) -> int:
    rows = view.table()
    if not rows:
        print("no finished matches between named players yet")
        return 0
    print(f"{'Player':<20} {'Rating':>7} {'Matches':>8} {'Won':>4} {'Rounds':>7} "
          f"{'Pts/shot':>9}")
    for r in rows:
        rating = "" if r["rating"] is None else f"{r['rating']:.1f}"
        print(f"{r['name'][:20]:<20} {rating:>7} {r['matches']:>8} {r['matches_won']:>4} "
              f"{r['rounds_won']:>7} {r['points_per_shot']:>9.2f}")
    return 0


def lines_for(player: PlayerStats, rating: float | None) -> list[str]:
    """One player's figures as lines of plain words."""
    t = player.tally
    return [
        player.name,
        f"  Rating: {'not rated' if rating is None else f'{rating:.1f}'}",
        f"  Matches: {player.matches} played, {player.matches_won} won",
        f"  Rounds: {player.rounds_won} won of {player.rounds_played}",
        f"  Shots: {t.shots}, points: {t.points}",
        f"  Points per shot: {player.points_per_shot:.2f}",
        f"  Hit on Red: {t.red_advance} advance, {t.red_back} back",
        f"  Penalties: {t.penalties}",
        f"  Own goals: {t.own_goals}",
        f"  Clearings: {t.clearings}",
        f"  Chains: {t.chains}",
        f"  Shots per round: {player.shots_per_round:.2f}",
    ]


def _player(view: Overview, name: str) -> int:
    player = view.player(name)
    if player is None:
        return _fail(f"no finished match of a player called {name!r}")
    rating = view.rating(name)
    print("\n".join(lines_for(player, None if rating is None else rating.ordinal)))
    others = [p.name for p in view.players.values() if p.name != player.name]
    if others:
        print("  Head to head:")
    for other in sorted(others, key=str.casefold):
        h = view.head_to_head(player.name, other)
        if h.matches:
            print(f"    against {other}: {h.matches} matches, won {h.wins[0]}, "
                  f"lost {h.wins[1]}; rounds {h.rounds[0]} to {h.rounds[1]}")
    return 0


def _fail(message: str) -> int:
    print(f"skitter stats: {message}", file=sys.stderr)
    return 1
