"""Benchmark: reading players' history for ``/stats``, and rendering the caller's speech.

Run: ``.venv/bin/python bench/stats_read.py [--matches N] [--steps N] [--players N]``

Writes ``--matches`` seeded random matches (:mod:`matchgen`) of ``--steps`` steps each into
a match log, between players drawn from a pool of ``--players`` names, then times:

- *cold*: the first :meth:`History.overview` (every match replayed, statistics and openskill
  ratings made): what the first ``/stats`` after a start costs;
- *warm*: the next one (replays cached by match id and event count): every later ``/stats``;
- *speech*: one sentence rendered by espeak-ng (when installed), then the same from the cache.

Target: a warm read under 50 ms for 500 matches; the cold read is paid once per start.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from machine import print_header
from matchgen import SETUP, random_steps

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.options import Rules  # noqa: E402
from scorekeeper.store import MatchStore  # noqa: E402
from web.caller.speech import Speech  # noqa: E402
from web.stats.history import History  # noqa: E402

WARM_TARGET_MS = 50.0
SHORT = Rules(points_to_win_round=2, rounds_to_win_game=2)
"""Short games, so that most generated matches finish and count."""


def match_steps(steps: int, seed: int) -> list[dict[str, object]]:
    """Up to ``steps`` steps of a seeded game; fewer when the game ends first."""
    out: list[dict[str, object]] = []
    try:
        for step in random_steps(steps, seed=seed, rules=SHORT, setup=SETUP):
            out.append(step)
    except RuntimeError:  # the game is over: the generator finds no legal step
        pass
    return out


def write(path: Path, matches: int, steps: int, players: int) -> None:
    rng = random.Random(16)
    pool = [f"Player {i + 1}" for i in range(players)]
    with MatchStore(path) as store:
        for m in range(matches):
            black, white = rng.sample(pool, 2)
            header = {"match": {"format": 1, "id": m + 1, "created_at": float(m),
                                "rules": SHORT.to_json(), "setup": SETUP.to_json(),
                                "names": {"black": black, "white": white}, "meta": {}}}
            lines = [json.dumps(header)] + [
                json.dumps({"seq": i, "at": float(i), "source": "manual", "event": s})
                for i, s in enumerate(match_steps(steps, m), 1)]
            store.import_jsonl(lines)


def timed(fn: object) -> tuple[float, object]:
    start = time.perf_counter()
    result = fn()  # type: ignore[operator]
    return time.perf_counter() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--players", type=int, default=24)
    args = parser.parse_args()
    print_header("Players' history and the caller's speech")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "skitter.db"
        write(db, args.matches, args.steps, args.players)
        history = History(db)
        cold, view = timed(history.overview)
        warm, _ = timed(history.overview)
        counted = sum(1 for r in view.records if r.counted)  # type: ignore[attr-defined]
        print(f"matches stored: {args.matches} of {args.steps} steps; finished and "
              f"counted: {counted}; players rated: {len(view.ratings)}")  # type: ignore[attr-defined]
        print(f"cold read (replay all): {cold * 1000:.1f} ms "
              f"({args.matches / cold:.0f} matches/s)")
        print(f"warm read (cached):     {warm * 1000:.1f} ms")
        if shutil.which("espeak-ng"):
            speech = Speech(Path(tmp) / "speech")
            render = lambda: asyncio.run(speech.render("Ann scores, three to one", "en"))  # noqa: E731
            first, _ = timed(render)
            again, _ = timed(render)
            print(f"speech: rendered in {first * 1000:.1f} ms, from the cache in "
                  f"{again * 1000:.2f} ms")
        else:
            print("speech: espeak-ng is not installed, not measured")
    verdict = "met" if warm * 1000 <= WARM_TARGET_MS else "missed"
    print(f"Result: warm read {warm * 1000:.1f} ms, target {WARM_TARGET_MS:.0f} ms: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
