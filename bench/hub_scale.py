"""The tournament hub at 128 boards with 200 pages open (issue 17).

Run: ``.venv/bin/python bench/hub_scale.py [--quick] [--boards 128] [--pages 200]
[--seconds 60] [--hub-src DIR]``

A real Mosquitto (``tests/mqtt_broker.py``, with the shipped config's queue limits) and
``skitter hub`` as a child process. The boards are ``tests/mqtt_sim.py``'s: each a real match,
match log and ``BoardLink``, so they publish exactly what ``skitter serve`` publishes. The
referee registers two players a board and pairs round one onto the boards; each board then
plays its game one step every 3-6 s (uniformly at random), and a rematch of the same two
players when it ends. The pages are ``bench/ws_screen.py``'s lean WebSocket clients (not
browsers): each stamps every frame when its last byte is read.

Figures, over the measuring window after a warm-up: the hub process's CPU (user + system,
from ``/proc``) as a share of one core; and for every step made in the window, at every
page, the time from the board's step (stamped just before the board stores and publishes
it) to the first frame showing that board at that step or later (first frame = the first
version holding it, found from one page's copy of the frames). ``/healthz`` is timed twice a
second meanwhile. Targets (issue 17): hub CPU under 30 % of a core, p99 under 100 ms.

``--hub-src DIR`` runs the hub from another checkout (``git archive <commit> | tar -x``), to
measure code from before a change; frames without a ``version`` (whole snapshots with a
``seq``) are read as full states.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import heapq
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from machine import ROOT, print_header
from mqtt_broker import Broker, free_port
from mqtt_sim import SimBoard
from mqtt_tournament_support import PLANS
from ws_screen import Screen

from web.tournament.wire import settings_from_url

TARGET_CPU = 30.0
TARGET_P99_MS = 100.0
PIN = "1357"
BOARDS_PER_PROCESS = 32
QUEUE_LINES = ("max_queued_messages 1000000", "max_queued_bytes 268435456")
"""The hub's queue at the broker, as ``hardware/mosquitto/skitter.conf`` sets it."""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Page(Screen):
    """A hub page: notes each frame's version and arrival; the first page keeps the frames."""

    def __init__(self, *args: Any, keep: bool = False, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.keep = keep
        self.versions: list[int] = []
        self.times: list[float] = []
        self.frames: list[bytes] = []

    def _message(self, message: bytes, now: float) -> None:
        self.messages += 1
        key = b'"version":' if b'"version":' in message[:60] else b'"seq":'
        start = message.find(key) + len(key)
        end = min(i for i in (message.find(b",", start), message.find(b"}", start)) if i > 0)
        self.versions.append(int(message[start:end]))
        self.times.append(now)
        if self.keep:
            self.frames.append(message)


class Referee:
    """The tournament referee's HTTP calls to the hub, with the session cookie."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.cookie = ""

    def call(self, method: str, path: str, body: Any = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.cookie:
            req.add_header("Cookie", self.cookie)
        with urllib.request.urlopen(req, timeout=30) as res:
            for value in res.headers.get_all("Set-Cookie") or []:
                self.cookie = value.split(";", 1)[0]
            return json.loads(res.read() or b"null")


class Hub:
    """``skitter hub`` as a child process."""

    def __init__(self, src: Path, folder: Path, url: str) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
        env["HOME"] = str(folder)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "web.cli.main", "hub", "--mqtt", url, "--db",
             str(folder / "hub.db"), "--port", str(self.port), "--pin", PIN],
            cwd=src, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1).close()
                return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("bench bug: skitter hub did not come up in 30 s")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


class Play:
    """Every board's next step at its due time, one step every 3-6 s each."""

    def __init__(self, boards: list[SimBoard], names: list[dict[str, str]], seed: int,
                 start: float) -> None:
        self.boards, self.names = boards, names
        self.rng = random.Random(seed)
        self.due = [(start + self.rng.uniform(0, 6), i) for i in range(len(boards))]
        heapq.heapify(self.due)
        self.steps: list[tuple[str, int, int, float]] = []
        """``(board, match_id, seq, stamp)`` of every step made."""
        self.games = 0

    def run(self, until: float) -> None:
        while True:
            due, i = self.due[0]
            if due >= until:
                return
            time.sleep(max(0.0, due - time.monotonic()))
            heapq.heapreplace(self.due, (due + self.rng.uniform(3, 6), i))
            board = self.boards[i]
            with board.lock:
                event = board.next_event()
                if event is None:
                    self.games += 1
                    board.new_match(self.names[i], PLANS[(i + self.games) % len(PLANS)])
                    event = board.next_event()
                assert event is not None and board.match_id is not None
                stamp = time.monotonic()
                seq = board.step(event)
            self.steps.append((board.board_id, board.match_id, seq, stamp))


def board_worker(first: int, count: int, root: Path, url: str, conn: Connection) -> None:
    """Boards ``first + 1 .. first + count`` in a process of their own (each board holds a
    few files and sockets; paho's ``select`` takes no descriptor over 1,024)."""
    settings = settings_from_url(url)
    boards = [SimBoard(f"table-{i + 1:03d}", root / "boards", settings)
              for i in range(first, first + count)]
    try:
        for board in boards:
            board.link.start()
        conn.send("ready")
        names, start, until = conn.recv()
        for i, board in enumerate(boards):
            board.new_match(names[i], PLANS[(first + i) % len(PLANS)])
        play = Play(boards, names, seed=first, start=start)
        play.run(until)
        conn.send((play.steps, play.games))
        conn.recv()  # the pages are done: the boards may go
    finally:
        for board in boards:
            board.close()


async def open_pages(port: int, count: int) -> list[Page]:
    loop = asyncio.get_running_loop()
    pages = []
    for i in range(count):
        _, page = await loop.create_connection(
            lambda i=i: Page("127.0.0.1", port, keep=i == 0), "127.0.0.1", port)
        await asyncio.wait_for(page.ready, 10)
        pages.append(page)
    return pages


def first_versions(frames: list[bytes]) -> dict[str, tuple[list[tuple[int, int]], list[int]]]:
    """Per board: the (match, seq) its card showed and the version that first showed it."""
    seen: dict[str, tuple[list[tuple[int, int]], list[int]]] = {}
    for raw in frames:
        frame = json.loads(raw)
        version = frame.get("version", frame.get("seq"))
        for card in frame.get("boards", []):
            key = (card.get("match_id") or 0, card.get("seq") or 0)
            keys, versions = seen.setdefault(card["board"], ([], []))
            if not keys or key > keys[-1]:
                keys.append(key)
                versions.append(version)
    return seen


def latencies(steps: list[tuple[str, int, int, float]], pages: list[Page],
              frames: list[bytes]) -> tuple[list[float], int]:
    """Milliseconds from each step to each page showing it; and how many never showed."""
    shown = first_versions(frames)
    out: list[float] = []
    missing = 0
    for board, match_id, seq, stamp in steps:
        keys, versions = shown.get(board, ([], []))
        at = bisect.bisect_left(keys, (match_id, seq))
        if at == len(keys):
            missing += len(pages)
            continue
        version = versions[at]
        for page in pages:
            k = bisect.bisect_left(page.versions, version)
            if k == len(page.versions):
                missing += 1
            else:
                out.append((page.times[k] - stamp) * 1000)
    return out, missing


def health_times(port: int, stop: threading.Event, out: list[float]) -> None:
    while not stop.wait(0.5):
        start = time.perf_counter()
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).close()
        except (urllib.error.URLError, OSError):
            continue
        out.append((time.perf_counter() - start) * 1000)


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
            referee.call("POST", "/api/rounds")
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
            frames_seen = asyncio.run_coroutine_threadsafe(_close(pages), loop).result(30)
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


async def _close(pages: list[Page]) -> int:
    for page in pages:
        page.close()
    return sum(p.messages for p in pages)


def broker_pid(broker: Broker) -> int:
    assert broker._proc is not None, "bench bug: the broker is not running"
    return broker._proc.pid


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
