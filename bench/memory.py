"""Benchmark 4: resident memory of ``skitter serve``, idle and after a 1,000-shot match.

Run: ``.venv/bin/python bench/memory.py [--quick] [--shots N] [--viewers N] [--beside DIR]``

``--beside DIR`` runs the same measurement first on the code in ``DIR`` (a checkout of an
earlier commit, e.g. ``git worktree add /tmp/base <commit>``) with this environment, and
prints both.

``skitter serve`` runs as a child process on the simulated board, as a newcomer starts it.
Its resident set (psutil) and high-water mark (Linux ``VmHWM``) are read once it is idle,
then after a seeded random match of ``--shots`` shots (with the undos, corrections and
shoot-offs such a match brings) entered through the API as the referee, while ``--viewers``
scoreboards follow the live WebSocket stream. Target: peak under 80 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

import websockets
from machine import print_header
from matchgen import random_steps
from serve_proc import ServeProcess, code_in

from scorekeeper.options import Rules, Setup

TARGET_MB = 80.0
LONG_MATCH = {"points_to_win_round": 50, "rounds_to_win_game": 10, "first": "black",
              "names": {"black": "Ann", "white": "Bo"}}
"""A match long enough for 1,000 shots (the API's new-match form)."""


async def viewer(url: str, last: dict[int, int], index: int, stop: asyncio.Event) -> None:
    async with websockets.connect(url, max_size=2**24) as ws:
        while not stop.is_set():
            try:
                message = await asyncio.wait_for(ws.recv(), 0.2)
            except TimeoutError:
                continue
            last[index] = json.loads(message)["seq"]


async def play(server: ServeProcess, shots: int, viewers: int) -> tuple[int, float, set[int]]:
    stop = asyncio.Event()
    last: dict[int, int] = {}
    tasks = [asyncio.create_task(viewer(server.ws_url, last, i, stop)) for i in range(viewers)]
    await asyncio.sleep(0.5)
    rules = Rules(points_to_win_round=50, rounds_to_win_game=10)
    steps = list(random_steps(shots, seed=4, rules=rules, setup=Setup(first="black"),
                              shots_only=True))
    started = time.perf_counter()
    for step in steps:
        await asyncio.to_thread(server.step, step)
    elapsed = time.perf_counter() - started
    final = server.get("/api/state")["seq"]
    # The viewers catch up in their own time (a loaded machine may take seconds); a bench
    # bug is a viewer that never gets the last state, not a slow one.
    deadline = time.monotonic() + 15.0

    def caught_up() -> bool:
        return len(last) == viewers and set(last.values()) == {final}

    while viewers and not caught_up() and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    stop.set()
    await asyncio.gather(*tasks)
    if viewers and not caught_up():
        raise SystemExit(f"bench bug: viewers ended on {sorted(set(last.values()))}, "
                         f"the server on {final}")
    return len(steps), elapsed, set(last.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="200 shots")
    parser.add_argument("--shots", type=int, help="shots in the match (default 1,000)")
    parser.add_argument("--viewers", type=int, default=3, help="WebSocket viewers (default 3)")
    parser.add_argument("--idle", type=float, default=2.0, help="seconds idle before measuring")
    parser.add_argument("--beside", type=Path, metavar="DIR",
                        help="also measure the code in DIR (an earlier commit's checkout)")
    args = parser.parse_args(argv)
    shots = args.shots or (200 if args.quick else 1000)

    print_header("Benchmark 4: memory of skitter serve")
    runs = []
    if args.beside is not None:
        runs.append((f"code in {args.beside}", measure(args, shots, code_in(args.beside))))
    runs.append(("this code", measure(args, shots, None)))
    for label, figures in runs:
        print(f"== {label}")
        report(figures, shots, args.viewers)
    peak = runs[-1][1]["peak"]
    if len(runs) == 2:
        print(f"Beside: peak {runs[0][1]['peak']:.1f} MB before, {peak:.1f} MB now")
    verdict = "met" if peak < TARGET_MB else "NOT met"
    print(f"Result: peak resident memory {peak:.1f} MB (target < {TARGET_MB:.0f} MB): {verdict}")
    return 0


def measure(args: argparse.Namespace, shots: int, command: list[str] | None) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp, \
            ServeProcess(Path(tmp), command=command) as server:
        time.sleep(args.idle)
        idle, idle_peak = server.rss_mb(), server.peak_rss_mb()
        server.login()
        time.sleep(0.5)
        login, login_peak = server.rss_mb(), server.peak_rss_mb()
        server.post("/api/match/new", {"seq": server.get("/api/state")["seq"], **LONG_MATCH})
        steps, elapsed, _ = asyncio.run(play(server, shots, args.viewers))
        state = server.get("/api/state")
        after, peak = server.rss_mb(), server.peak_rss_mb()
        log_size = sum(f.stat().st_size for f in Path(tmp).glob("skitter.db*"))
    return {"idle": idle, "idle_peak": idle_peak, "login": login, "login_peak": login_peak,
            "after": after, "peak": peak, "steps": steps, "elapsed": elapsed,
            "log_length": state["log_length"], "round": state["state"]["round"],
            "log_size": log_size}


def report(f: dict[str, float], shots: int, viewers: int) -> None:
    print(f"server: skitter serve --source sim (child process), {viewers} live viewers")
    print(f"match:  {shots} shots in {f['steps']:.0f} steps through the API in "
          f"{f['elapsed']:.1f} s ({f['steps'] / f['elapsed']:.0f} steps/s); log "
          f"{f['log_length']:.0f} entries, round {f['round']:.0f}, file "
          f"{f['log_size'] / 1e6:.1f} MB")
    print()
    print(f"  idle:                 RSS {f['idle']:6.1f} MB   peak {f['idle_peak']:6.1f} MB")
    print(f"  after referee login:  RSS {f['login']:6.1f} MB   peak {f['login_peak']:6.1f} MB")
    print(f"  after the match:      RSS {f['after']:6.1f} MB   peak {f['peak']:6.1f} MB")
    print(f"  the match itself:     {f['after'] - f['login']:+.1f} MB for {shots} shots")
    print()
    print("  (a PIN check runs scrypt with n=2**12, r=8: a 4 MiB work area while it runs;")
    print("   the first one also happens at start, when a PIN is set or generated)")
    print()


if __name__ == "__main__":
    raise SystemExit(main())
