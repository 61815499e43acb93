"""The tournament hub at 128 boards with 200 pages open (issue 17).

Run: ``.venv/bin/python bench/hub_scale.py [--quick] [--boards 128] [--pages 200]
[--seconds 60] [--hub-src DIR]``

A real Mosquitto (``tests/support/mqtt_broker.py``, with the shipped config's queue limits)
and ``skitter hub`` as a child process. The boards are ``tests/support/mqtt_sim.py``'s: each a
real match, match log and ``BoardLink``, so they publish exactly what ``skitter serve``
publishes. The referee registers two players a board and pairs round one onto the boards;
each board then plays its game one step every 3-6 s (uniformly at random), and a rematch of
the same two players when it ends. The pages are ``bench/ws_screen.py``'s lean WebSocket
clients (not browsers): each stamps every frame when its last byte is read.

Figures, over the measuring window after a warm-up: the hub process's CPU (user + system,
from ``/proc``) as a share of one core; and for every step made in the window, at every
page, the time from the board's step (stamped just before the board stores and publishes
it) to the first frame showing that board at that step or later (first frame = the first
version holding it, found from one page's copy of the frames). ``/healthz`` is timed twice a
second meanwhile. Targets (issue 17): hub CPU under 30 % of a core, p99 under 100 ms.

The players (hub process, referee, boards) are in ``bench/hub_rig.py``, what is measured of
the pages, ``/healthz`` and CPU in ``bench/hub_frames.py``.

``--hub-src DIR`` runs the hub from another checkout (``git archive <commit> | tar -x``), to
measure code from before a change; frames without a ``version`` (whole snapshots with a
``seq``) are read as full states.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import statistics
import tempfile
import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from hub_frames import (
    Page,
    close_pages,
    cpu_seconds,
    health_times,
    latencies,
    open_pages,
    percentile,
)
from hub_rig import BOARDS_PER_PROCESS, PIN, Hub, Referee, board_worker
from machine import ROOT, print_header
from mqtt_broker import Broker

TARGET_CPU = 30.0
TARGET_P99_MS = 100.0
QUEUE_LINES = ("max_queued_messages 1000000", "max_queued_bytes 268435456")
"""The hub's queue at the broker, as ``hardware/mosquitto/skitter.conf`` sets it."""


def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="skitter-hub-bench-") as tmp:
        folder = Path(tmp)
        broker = Broker(folder / "broker", extra=QUEUE_LINES)
        broker.start()
        hub = None
        workers: list[tuple[multiprocessing.process.BaseProcess, Connection]] = []
        try:
            hub = Hub(args.hub_src, folder, broker.url)
            spawn = multiprocessing.get_context("spawn")
            for first in range(0, args.boards, BOARDS_PER_PROCESS):
                mine, theirs = spawn.Pipe()
                count = min(BOARDS_PER_PROCESS, args.boards - first)
                proc = spawn.Process(target=board_worker,
                                     args=(first, count, folder, broker.url, theirs))
                proc.start()
                workers.append((proc, mine))
            for _, conn in workers:
                if not conn.poll(60) or conn.recv() != "ready":
                    raise RuntimeError("bench bug: a boards' process did not start")
            referee = Referee(hub.port)
            referee.call("POST", "/api/referee/login", {"pin": PIN})
            for i in range(2 * args.boards):
                referee.call("POST", "/api/players", {"name": f"Player {i + 1:03d}"})
            deadline = time.monotonic() + 60
            while (online := sum(b["online"] for b in referee.call("GET", "/api/hub")["boards"])
                   ) < args.boards:
                if time.monotonic() > deadline:
                    raise RuntimeError(f"bench bug: {online} of {args.boards} boards online")
                time.sleep(0.5)
            referee.call("POST", "/api/rounds",
                         {"seq": referee.call("GET", "/api/hub")["field_seq"]})
            pairings = referee.call("GET", "/api/hub")["rounds"][0]["pairings"]
            by_board = {p["board"]: {"black": p["black"], "white": p["white"]} for p in pairings}
            names = [by_board[f"table-{i + 1:03d}"] for i in range(args.boards)]

            loop = asyncio.new_event_loop()
            pages_thread = threading.Thread(target=loop.run_forever, daemon=True)
            pages_thread.start()
            pages = asyncio.run_coroutine_threadsafe(
                open_pages(hub.port, args.pages), loop).result(120)

            start = time.monotonic() + 0.5
            t0 = start + args.warmup
            for first, (_, conn) in zip(range(0, args.boards, BOARDS_PER_PROCESS), workers,
                                        strict=True):
                conn.send((names[first:first + BOARDS_PER_PROCESS], start, t0 + args.seconds))
            time.sleep(max(0.0, t0 - time.monotonic()))
            health: list[float] = []
            stop = threading.Event()
            pinger = threading.Thread(target=health_times, args=(hub.port, stop, health))
            pinger.start()
            pids = [hub.proc.pid, broker_pid(broker), os.getpid(), *(p.pid for p, _ in workers)]
            began = [cpu_seconds(pid) for pid in pids]
            started = time.monotonic()
            time.sleep(max(0.0, t0 + args.seconds - time.monotonic()))
            wall = time.monotonic() - started
            used = [(cpu_seconds(pid) - b) / wall * 100 for pid, b in zip(pids, began, strict=True)]
            cpu, broker_cpu, own_cpu = used[0], used[1], sum(used[2:])
            steps: list[tuple[str, int, int, float]] = []
            games = 0
            for _, conn in workers:
                done, finished = conn.recv()
                steps += done
                games += finished
            stop.set()
            pinger.join()
            time.sleep(2.0)  # the last steps reach the pages
            frames_seen = asyncio.run_coroutine_threadsafe(close_pages(pages), loop).result(30)
            loop.call_soon_threadsafe(loop.stop)
            pages_thread.join(10)
            measured = [s for s in steps if t0 <= s[3]]
            ms, missing = latencies(measured, pages, pages[0].frames)
            report(args, games, measured, wall, cpu, broker_cpu, own_cpu, ms, missing, health,
                   pages[0], frames_seen)
        finally:
            for proc, conn in workers:
                with contextlib.suppress(OSError):
                    conn.send("close")
                proc.join(30)
                if proc.is_alive():
                    proc.kill()
            if hub is not None:
                hub.stop()
            broker.stop()


def broker_pid(broker: Broker) -> int:
    assert broker.pid is not None, "bench bug: the broker is not running"
    return broker.pid


def report(args: argparse.Namespace, games: int, steps: list[Any], wall: float, cpu: float,
           broker_cpu: float, own_cpu: float, ms: list[float], missing: int,
           health: list[float], first: Page, frames_seen: int) -> None:
    sizes = [len(f) for f in first.frames]
    print(f"boards: {args.boards}, pages: {args.pages}, warm-up {args.warmup:.0f} s, "
          f"measured {wall:.1f} s, hub from "
          f"{'this checkout' if args.hub_src == ROOT else args.hub_src.name}")
    print(f"steps in the window: {len(steps)} ({len(steps) / wall:.1f}/s), games finished "
          f"so far: {games}")
    print(f"frames per page: {len(first.frames) / max(1, wall + args.warmup):.1f}/s over the "
          f"run, {statistics.mean(sizes) / 1000:.1f} kB on average, largest "
          f"{max(sizes) / 1000:.1f} kB; {frames_seen} frames received by all pages")
    print(f"CPU, share of one core: hub {cpu:.1f} %, broker {broker_cpu:.1f} %, "
          f"boards and pages (this process and its children) {own_cpu:.1f} %")
    if health:
        print(f"/healthz: p50 {percentile(health, 50):.1f} ms, p99 "
              f"{percentile(health, 99):.1f} ms ({len(health)} calls)")
    if not ms:
        print("bench bug: no latency sample")
        return
    p50, p99 = percentile(ms, 50), percentile(ms, 99)
    print(f"board step -> page: p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {max(ms):.1f} ms "
          f"({len(ms)} samples, {missing} not shown by the end)")
    print()
    ok = "met" if cpu < TARGET_CPU and p99 < TARGET_P99_MS else "NOT met"
    print(f"Result: hub CPU {cpu:.1f} % of a core (target < {TARGET_CPU:.0f} %), "
          f"p99 {p99:.1f} ms (target < {TARGET_P99_MS:.0f} ms): {ok}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boards", type=int, default=128)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--hub-src", type=Path, default=ROOT)
    parser.add_argument("--quick", action="store_true", help="8 boards, 20 pages, 10 s")
    args = parser.parse_args()
    if args.quick:
        args.boards, args.pages, args.seconds, args.warmup = 8, 20, 10.0, 3.0
    print_header("The tournament hub at scale")
    run(args)


if __name__ == "__main__":
    main()
