"""Time Skibbitt's puzzle generator per difficulty, in-process.

    python bench/skibbitt_generate.py [--puzzles 200] [--naive 20]

Prints median, p95 and puzzles per second for each difficulty, generating seeds 0..N-1 with
``skibbitt.generator.generate``. Beside it, the same seeds' deals solved the plain way (every
chain listed and each Triplitt scored on the spot, no shared table and no memo of round 3's
best): what the solver's pruning saves. Target: an Expert puzzle in under 20 ms median.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from itertools import combinations

from machine import print_header

from skibbitt.generator import MAX_ATTEMPTS, _deal, generate
from skibbitt.puzzle import Difficulty, Puzzle
from skibbitt.scoring import Rating, triplitt

TARGET_MS = 20.0
"""Median milliseconds an Expert puzzle may take."""


def naive_valid(puzzle: Puzzle) -> bool:
    """The generator's rule checked by listing every chain (no table, no memo)."""
    r1, r2, r3 = puzzle.rounds
    best: list[tuple[int, tuple]] = []
    top = -1
    for a in combinations(r1, 3):
        for b in combinations(a + r2, 3):
            for c in combinations(b + r3, 3):
                chain = (triplitt(a), triplitt(b), triplitt(c))
                total = sum(t.score for t in chain)
                if total > top:
                    top, best = total, [chain]
                elif total == top:
                    best.append(chain)
    if len(best) != 1:
        return False
    (chain,) = best
    s = [t.score for t in chain]
    return (all(t.rating is not Rating.RIBBITT for t in chain) and s[0] < s[1] < s[2]
            and chain[2].rating is Rating.SKIBBITT)


def naive_generate(difficulty: Difficulty, seed: int) -> Puzzle:
    rng = random.Random(f"skibbitt/{difficulty.value}/{seed}")
    for _ in range(MAX_ATTEMPTS):
        puzzle = _deal(difficulty, rng)
        if naive_valid(puzzle):
            return puzzle
    raise RuntimeError("no valid puzzle")


def figures(times: list[float]) -> str:
    ms = sorted(t * 1000 for t in times)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return (f"median {statistics.median(ms):7.2f} ms  p95 {p95:7.2f} ms  "
            f"{len(ms) / sum(times):8.1f} puzzles/s")


def timed(make, difficulty: Difficulty, count: int) -> list[float]:  # type: ignore[no-untyped-def]
    times = []
    for seed in range(count):
        start = time.perf_counter()
        make(difficulty, seed)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--puzzles", type=int, default=200)
    ap.add_argument("--naive", type=int, default=20, help="seeds for the plain solver")
    args = ap.parse_args()
    print_header(f"Skibbitt generator: seeds 0..{args.puzzles - 1} per difficulty")
    expert_median = 0.0
    for difficulty in Difficulty:
        times = timed(generate, difficulty, args.puzzles)
        if difficulty is Difficulty.EXPERT:
            expert_median = statistics.median(times) * 1000
        print(f"{difficulty.value:9s} generator      {figures(times)}")
        # The plain way takes seconds an Expert puzzle: fewer seeds there.
        plain = args.naive if difficulty is not Difficulty.EXPERT else max(1, args.naive // 4)
        if plain:
            print(f"{'':9s} plain, {plain:3d} seeds "
                  f"{figures(timed(naive_generate, difficulty, plain))}")
    verdict = "meets" if expert_median < TARGET_MS else "MISSES"
    print(f"Expert median {expert_median:.2f} ms {verdict} the {TARGET_MS:.0f} ms target")


if __name__ == "__main__":
    main()
