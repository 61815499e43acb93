"""The hub bench's players (``bench/hub_scale.py``): ``skitter hub`` as a child process, the
referee's calls to it, and the boards playing their games in processes of their own."""

from __future__ import annotations

import heapq
import json
import os
import random
import subprocess
import sys
import time
import urllib.error
import urllib.request
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import machine  # noqa: F401  # puts tests/support on the path (the boards and the broker)
from mqtt_broker import free_port
from mqtt_sim import SimBoard
from mqtt_tournament_support import PLANS

from tournament_wire.wire import settings_from_url

PIN = "1357"
BOARDS_PER_PROCESS = 32


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
            [sys.executable, "-m", "skitter_cli.main", "hub", "--mqtt", url, "--db",
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
