"""Skibbitt's JSON: what the command prints and the page is sent, and rounds read from JSON.

Values are turned into dicts here and nowhere else; JSON read in is decoded once, into tiles.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from skibbitt.generator import Generated
from skibbitt.puzzle import Puzzle, puzzle_of
from skibbitt.scoring import Triplitt, triplitt
from skibbitt.solver import Solution
from skibbitt.tiles import Category, Tile, TileError, parse_tiles


def triplitt_json(t: Triplitt) -> dict[str, Any]:
    groups: dict[str, Any] = {}
    for category in Category:
        g = t.group(category)
        groups[category.value] = (None if g is None else
                                  {"type": g.kind.value, "name": g.name, "score": g.score})
    return {"name": t.name, "rating": t.rating.value, "score": t.score, "groups": groups}


def _chain(solution: Solution) -> list[list[str]]:
    return [[tile.notation for tile in t.tiles] for t in solution.chain]


def solution_json(solution: Solution) -> dict[str, Any]:
    return {"best": _chain(solution), "best_scores": list(solution.scores),
            "max_score": solution.max_score, "unique": solution.unique}


def puzzle_json(generated: Generated) -> dict[str, Any]:
    """The command's answer to ``new`` and ``daily``."""
    solution = generated.solution
    return {"difficulty": generated.puzzle.difficulty.value,
            "rounds": [[tile.notation for tile in r] for r in generated.puzzle.rounds],
            "best": _chain(solution), "best_scores": list(solution.scores),
            "max_score": solution.max_score}


def page_json(generated: Generated, kind: str) -> dict[str, Any]:
    """What the page plays from: the puzzle, its best chain's names, and every Triplitt the
    dealt tiles can make, scored (keyed by the tiles' indices in the deal, ascending, joined
    by commas), so the page looks scores up instead of computing them."""
    puzzle = generated.puzzle
    tiles = puzzle.tiles
    table = {}
    for combo in combinations(range(len(tiles)), 3):
        t = triplitt(tiles[i] for i in combo)
        table[",".join(map(str, combo))] = {"name": t.name, "score": t.score,
                                            "rating": t.rating.value}
    return {**puzzle_json(generated), "kind": kind, "seed": generated.seed,
            "best_names": [t.name for t in generated.solution.chain],
            "tiles": [_tile_json(tile) for tile in tiles], "triplitts": table}


def _tile_json(tile: Tile) -> dict[str, Any]:
    return {"code": tile.notation, "color": tile.color, "shape": tile.shape,
            "letter": tile.letter}


def puzzle_from_json(data: Any) -> Puzzle:
    """The puzzle in ``{"rounds": [[tile, ...], [...], [...]]}``; the difficulty follows from
    the counts."""
    if not isinstance(data, dict) or "rounds" not in data:
        raise TileError('expected a JSON object with "rounds": three lists of tiles')
    rounds = data["rounds"]
    if (not isinstance(rounds, list) or len(rounds) != 3
            or not all(isinstance(r, list) for r in rounds)):
        raise TileError('"rounds" must be three lists of tiles')
    if not all(isinstance(t, str) for r in rounds for t in r):
        raise TileError('every tile in "rounds" must be a string like "R1A"')
    tiles = parse_tiles([t for r in rounds for t in r])
    out: list[tuple[Tile, ...]] = []
    start = 0
    for r in rounds:
        out.append(tiles[start:start + len(r)])
        start += len(r)
    return puzzle_of(tuple(out))
