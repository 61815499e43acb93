"""Benchmark 3: rebuild a match log from SQLite, and resume ``skitter serve`` on one.

Run: ``.venv/bin/python bench/log_replay.py [--quick] [--events N] [--rounds N] [--profile]
[--resume-steps N]``

A seeded random game (:mod:`matchgen`: shots, big-skitt shots, misses, undos, corrections)
is written to a match log with :class:`~scorekeeper.store.MatchStore` (one import
transaction), then read back four ways, best of ``--rounds``:

- *rows*: the SQL query alone (``SELECT body ... ORDER BY seq``);
- *decode*: :meth:`MatchStore.iter_events`: rows, ``json.loads``, :class:`StoredEvent`;
- *rebuild*: :meth:`MatchStore.load_header`, :meth:`MatchStore.iter_bodies` and
  :meth:`Match.replay_json`: what a restart does (each distinct body parsed once);
- *rebuild, decoded*: :meth:`MatchStore.load` then :meth:`Match.replay` of every decoded
  body: the path before ``replay_json``, for comparison.

The replay throughput is information, not a target: every step, live or replayed, takes the
one rules path (``check_shot`` and the variant's resolution). The ratio to *decode* says how
the rebuild compares with merely decoding the same rows on the machine at hand. The rebuilt
match must equal the one played step by step. ``--profile`` prints where the rebuild's time
goes (cProfile).

Then the target: ``skitter serve`` resumes a ``--resume-steps`` (2,000) step match in under
0.2 s, from process start to the first published state (``GET /api/state`` answered, asked
every 2 ms), minus the bare import time (a child that only imports what ``serve`` imports).
The PIN is stored beforehand, as at a real restart (no PIN hashing at start). The same start
on a log with no steps is shown beside it: the difference is what the 2,000 steps cost.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from machine import print_header
from matchgen import RULES, SETUP, random_steps
from serve_proc import PIN, ROOT, ServeProcess

from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.store import MatchStore
from web_common.pin import PinStore

RESUME_TARGET = 0.2
"""Seconds from process start to the first published state, minus the bare import time."""
SERVE_IMPORTS = (
    "import time\n"
    "from skitter_cli.main import build_parser\n"
    "build_parser()\n"
    "import uvicorn, web.api.app, web_common.broadcaster, web.api.deps, web.table.wiring\n"
    "import web.table.controls\n"
    "print(time.time())\n")
"""A child that imports what ``skitter serve`` imports and prints when it is done."""


def write_log(store: MatchStore, steps: list[dict[str, Any]]) -> int:
    """Store ``steps`` as one match through the store's JSON-lines import (one transaction)."""
    header = {"match": {"format": 1, "id": 1, "created_at": 0.0, "rules": RULES.to_json(),
                        "setup": SETUP.to_json(), "names": {}, "meta": {}}}
    lines = [json.dumps(header)]
    lines += [json.dumps({"seq": i, "at": float(i), "source": "manual", "event": step})
              for i, step in enumerate(steps, 1)]
    return store.import_jsonl(lines)


def rebuild(store: MatchStore, match_id: int) -> Match:
    """What a restart does: read the header and the bodies as text, fold them over the rules."""
    head = store.load_header(match_id)
    return Match.replay_json(Rules.from_json(head.rules), Setup.from_json(head.setup),
                             store.iter_bodies(match_id), head.names)


def rebuild_decoded(store: MatchStore, match_id: int) -> Match:
    """The restart before :meth:`Match.replay_json`: every body decoded, then replayed."""
    stored = store.load(match_id)
    return Match.replay(Rules.from_json(dict(stored.rules)), Setup.from_json(dict(stored.setup)),
                        [e.body for e in stored.events], stored.names)


def match_memory(action: Callable[[], Match]) -> float:
    """MB the rebuilt match holds once built (tracemalloc: Python objects only)."""
    tracemalloc.start()
    try:
        match = action()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del match
    return held / 1e6


def best_of(rounds: int, action: Callable[[], Any]) -> tuple[float, Any]:
    """The shortest wall time of ``rounds`` runs of ``action``, and its last result."""
    best, result = float("inf"), None
    for _ in range(rounds):
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


def where_time_goes(action: Callable[[], Any], top: int = 12) -> str:
    profiler = cProfile.Profile()
    profiler.runcall(action)
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if "ncalls" in line)
    return "\n".join(line.replace(str(Path.cwd()) + "/", "") for line in lines[start:] if line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="20,000 events, 2 rounds")
    parser.add_argument("--events", type=int, help="events in the log (default 100,000)")
    parser.add_argument("--rounds", type=int, help="runs of each measurement (best counts)")
    parser.add_argument("--profile", action="store_true", help="profile the rebuild")
    parser.add_argument("--resume-steps", type=int,
                        help="steps in the match skitter serve resumes (default 2,000)")
    args = parser.parse_args(argv)
    count = args.events or (20_000 if args.quick else 100_000)
    rounds = args.rounds or (2 if args.quick else 5)

    print_header("Benchmark 3: match log replay from SQLite")
    started = time.perf_counter()
    steps = list(random_steps(count))
    generated = time.perf_counter() - started
    kinds: dict[str, int] = {}
    for step in steps:
        kinds[next(iter(step))] = kinds.get(next(iter(step)), 0) + 1
    mix = ", ".join(f"{n} {k}" for k, n in sorted(kinds.items(), key=lambda kv: -kv[1]))
    print(f"log: {count} events ({mix}); generated and checked in {generated:.1f} s")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        store = MatchStore(path)
        match_id = write_log(store, steps)
        size = sum(f.stat().st_size for f in Path(tmp).iterdir())
        print(f"file: {size / 1e6:.1f} MB SQLite (WAL included), best of {rounds} runs")
        print()

        sql = "SELECT body FROM events WHERE match_id = ? ORDER BY seq"
        t_rows, rows = best_of(rounds, lambda: store._db.execute(sql, (match_id,)).fetchall())
        t_decode, decoded = best_of(rounds, lambda: list(store.iter_events(match_id)))
        t_rebuild, match = best_of(rounds, lambda: rebuild(store, match_id))
        t_old, old = best_of(rounds, lambda: rebuild_decoded(store, match_id))
        expected = Match(RULES, SETUP)
        for step in steps:
            expected.apply(step)
        if (match.state != expected.state or match.events != expected.events
                or old.state != expected.state or len(rows) != count or len(decoded) != count):
            raise SystemExit("bench bug: the rebuilt match differs from the one played")
        del match, old, expected
        memory = match_memory(lambda: rebuild(store, match_id))

        def row(label: str, seconds: float, note: str = "") -> None:
            print(f"  {label:<40} {seconds * 1000:8.1f} ms  {count / seconds:>11,.0f} events/s"
                  f"  {note}")

        row("rows only (SQL query)", t_rows)
        row("decode (iter_events: rows + JSON)", t_decode)
        row("rebuild (bodies as text + replay_json)", t_rebuild,
            f"ratio to decode {t_rebuild / t_decode:.2f}")
        row("rebuild, decoded (load + Match.replay)", t_old,
            f"ratio to decode {t_old / t_decode:.2f}")
        print(f"  {'the rebuilt match in memory':<40} {memory:8.1f} MB  "
              f"({memory * 1e6 / count:.0f} bytes/event, tracemalloc)")
        print()
        rate = count / t_rebuild
        print(f"Replay (information): {rate:,.0f} events/s rebuilt, "
              f"{t_rebuild / t_decode:.2f}x the time of only decoding the same rows")
        if args.profile:
            print()
            print("Where the rebuild's time goes (cProfile, by own time):")
            print(where_time_goes(lambda: rebuild(store, match_id)))
        store.close()
    print()
    return resume(args.resume_steps or (500 if args.quick else 2000), rounds)


def time_imports() -> float:
    """Seconds from starting a child Python to the end of its importing what ``skitter
    serve`` imports before it serves (the command line's modules, then those ``serve``
    imports itself); stamped by the child, so its exit is not counted."""
    start = time.time()
    done = subprocess.run([sys.executable, "-c", SERVE_IMPORTS], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    return float(done) - start


def time_start(data_dir: Path) -> tuple[float, dict[str, Any]]:
    """Seconds from starting ``skitter serve`` on ``data_dir`` to its first published state."""
    server = ServeProcess(data_dir, pin=None)
    try:
        state = server.wait_ready(interval=0.002)
        return time.perf_counter() - server.started, state
    finally:
        server.stop()


def resume(count: int, rounds: int) -> int:
    """``skitter serve`` resuming a ``count``-step match, against the bare import time."""
    print(f"Resume: skitter serve on a {count}-step match log, best of {rounds} starts")
    steps = list(random_steps(count))
    expected = Match(RULES, SETUP)
    for step in steps:
        expected.apply(step)
    with tempfile.TemporaryDirectory() as tmp:
        empty, full = Path(tmp) / "empty", Path(tmp) / "full"
        for data_dir in (empty, full):
            data_dir.mkdir()
            PinStore(data_dir).set(PIN)  # stored, as at a restart: no hashing at start
        store = MatchStore(full / "skitter.db")
        write_log(store, steps)
        store.close()
        t_import = min(time_imports() for _ in range(rounds))
        t_empty = min(time_start(empty)[0] for _ in range(rounds))
        starts = [time_start(full) for _ in range(rounds)]
        t_full, state = min(starts, key=lambda s: s[0])
    if state["log_length"] != count or state["state"]["score"] != dict(expected.state.score):
        raise SystemExit("bench bug: the resumed match differs from the one played")
    resumed = t_full - t_import
    print(f"  {'bare import (what serve imports)':<40} {t_import * 1000:8.1f} ms")
    print(f"  {'start to first state, empty log':<40} {t_empty * 1000:8.1f} ms")
    print(f"  {f'start to first state, {count} steps':<40} {t_full * 1000:8.1f} ms  "
          f"({(t_full - t_empty) * 1000:.1f} ms more than the empty log)")
    print()
    verdict = "met" if resumed < RESUME_TARGET else "NOT met"
    print(f"Result: resume of a {count}-step match {resumed:.3f} s beyond the bare import "
          f"(target < {RESUME_TARGET} s): {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
