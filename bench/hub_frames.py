"""What the hub bench measures (``bench/hub_scale.py``): the pages' frames, the time from a
board's step to each page showing it, ``/healthz`` answer times and a process's CPU time."""

from __future__ import annotations

import asyncio
import bisect
import json
import os
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import machine  # noqa: F401  # puts tests/support on the path (the pages' client)
from ws_screen import Screen


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


async def close_pages(pages: list[Page]) -> int:
    for page in pages:
        page.close()
    return sum(p.messages for p in pages)
