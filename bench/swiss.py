"""Time Swiss pairing of a big field, round after round (loopback-free, no I/O).

    python bench/swiss.py [--players 256] [--rounds 8] [--seed 1]

Each round pairs with ``hub.pairings.swiss`` from simulated results (the
better-seeded player wins 70 % of games) and prints the seconds the pairing took.
Target: under 0.3 s a round at 256 players.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from machine import print_header

from hub.pairings import swiss

TARGET_S = 0.3
"""Seconds one round's pairing may take at 256 players."""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    print_header(f"Swiss pairing: {args.players} players, {args.rounds} rounds")
    rng = random.Random(args.seed)
    players = [f"P{i:03d}" for i in range(args.players)]
    seed = {p: i for i, p in enumerate(players)}
    won: Counter[str] = Counter()
    played: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    blacks: Counter[str] = Counter()
    worst = 0.0
    for number in range(1, args.rounds + 1):
        ranked = sorted(players, key=lambda p: (-won[p], seed[p]))
        start = time.perf_counter()
        pairs = swiss(ranked, dict(won), played, had_bye, blacks)
        took = time.perf_counter() - start
        worst = max(worst, took)
        rematches = sum(frozenset(p) in played for p in pairs if p[1] is not None)
        print(f"round {number}: {len(pairs)} pairs in {took:.3f} s, rematches {rematches}")
        for black, white in pairs:
            if white is None:
                had_bye.add(black)
                won[black] += 1
                continue
            played.add(frozenset((black, white)))
            blacks[black] += 1
            better, worse = sorted((black, white), key=seed.__getitem__)
            won[better if rng.random() < 0.7 else worse] += 1
    print(f"players {args.players}: slowest round {worst:.3f} s")
    verdict = "met" if worst < TARGET_S else "NOT met"
    print(f"Result: slowest Swiss round at {args.players} players {worst:.3f} s "
          f"(target < {TARGET_S} s at 256): {verdict}")


if __name__ == "__main__":
    main()
