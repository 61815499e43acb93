"""The ``skibbitt`` command: score a Triplitt, deal a new or the daily puzzle, solve one, or
serve the page.

``--json`` prints one JSON object (the contract other tools rely on, docs/skibbitt.md).
Bad input gets one line on stderr naming what is wrong, and exit status 2.
"""

from __future__ import annotations

import argparse
import datetime
import json
import secrets
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from skibbitt.generator import Generated, daily, generate
from skibbitt.puzzle import parse_difficulty
from skibbitt.scoring import triplitt
from skibbitt.solver import solve
from skibbitt.tiles import Category, TileError, parse_tiles
from skibbitt_app.wire import puzzle_from_json, puzzle_json, solution_json, triplitt_json

BAD_INPUT = 2


class _Refused(Exception):
    """Bad input: the message is the one line the command prints."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _Refused(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="skibbitt", description="Skibbitt, the three-round tile puzzle.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    score = sub.add_parser("score", help="score three tiles, like: skibbitt score R1A Y3C B5E")
    score.add_argument("tiles", nargs="*", metavar="TILE")
    score.add_argument("--json", action="store_true")
    new = sub.add_parser("new", help="deal a new puzzle")
    new.add_argument("--difficulty", default="standard", help="easy, standard or expert")
    new.add_argument("--seed", type=int, help="the same seed always deals the same puzzle")
    new.add_argument("--json", action="store_true")
    day = sub.add_parser("daily", help="the day's puzzle, the same for everyone")
    day.add_argument("--date", help="YYYY-MM-DD (today if left out)")
    day.add_argument("--difficulty", default="standard", help="easy, standard or expert")
    day.add_argument("--json", action="store_true")
    solver = sub.add_parser("solve", help='solve {"rounds": [...]} read from stdin')
    solver.add_argument("--json", action="store_true")
    serve = sub.add_parser("serve", help="serve the puzzle page")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8080)
    return parser


def _print(data: dict[str, Any], as_json: bool, text: str) -> None:
    print(json.dumps(data) if as_json else text)


def _puzzle_text(g: Generated) -> str:
    lines = [f"Skibbitt, {g.puzzle.difficulty.value}"]
    for n, tiles in enumerate(g.puzzle.rounds, start=1):
        lines.append(f"Round {n}: " + " ".join(t.notation for t in tiles))
    return "\n".join(lines)


def _run(args: argparse.Namespace) -> int:
    match args.command:
        case "score":
            t = triplitt(parse_tiles(args.tiles))
            lines = [f"{t.name}: {t.score}"]
            for category in Category:
                g = t.group(category)
                if g is not None:
                    lines.append(f"  {category.value} {g.kind.value} {g.name}: {g.score}")
            _print(triplitt_json(t), args.json, "\n".join(lines))
        case "new":
            seed = secrets.randbelow(2**48) if args.seed is None else args.seed
            g = generate(parse_difficulty(args.difficulty), seed)
            _print(puzzle_json(g), args.json, _puzzle_text(g) + f"\nSeed: {seed}")
        case "daily":
            g = daily(_date(args.date), parse_difficulty(args.difficulty))
            _print(puzzle_json(g), args.json, _puzzle_text(g))
        case "solve":
            try:
                data = json.loads(sys.stdin.read())
            except json.JSONDecodeError as e:
                raise TileError(f"stdin is not JSON: {e}") from None
            solution = solve(puzzle_from_json(data))
            text = "\n".join([f"Round {n}: {t.name} ({t.score}): "
                              + " ".join(tile.notation for tile in t.tiles)
                              for n, t in enumerate(solution.chain, start=1)]
                             + [f"Maximum: {solution.max_score}"
                                + ("" if solution.unique else " (reached by more than one chain)")])
            _print(solution_json(solution), args.json, text)
        case "serve":
            from skibbitt_app.server import ServeError, serve
            try:
                serve(args.host, args.port)
            except ServeError as e:
                raise _Refused(str(e)) from None
    return 0


def _date(text: str | None) -> datetime.date:
    if text is None:
        return datetime.date.today()
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise TileError(f"unknown date {text!r}: write it as YYYY-MM-DD") from None


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _run(_parser().parse_args(argv))
    except (_Refused, TileError) as e:
        print(f"skibbitt: {e}", file=sys.stderr)
        return BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
