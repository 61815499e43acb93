"""Fault figures of the web side: PIN guessing at once, oversized bodies, slow connections.

Prints three figures for ``bench/README.md``'s fault section:

1. PIN checks under a concurrent attack: 100 simultaneous wrong PINs from one address, and
   bursts of 40 every 5 s from new addresses for a minute (in-process ASGI, the real scrypt
   PIN store, the app's clock advanced by hand so the minute takes a second or two);
2. peak RSS of ``skitter serve`` while three clients each send a 100 MB login body at once
   (with a ``Content-Length``) and three more stream one without it;
3. connections held: 250 clients each sending one header byte per second to a server whose
   descriptor limit is 256, sampled every second (how many it holds, whether it still
   answers), and how long after the last byte the last of them is closed;
4. a disk stall: while a step's commit is held (injected into the store's connection, in
   process), how long ``/healthz``, ``/api/state``, a tap on the virtual board (sensing)
   and the log's downloads take to answer, and the step's answer once the disk answers.

Usage: python bench/web_faults.py [--skip-serve]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import socket
import sqlite3
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import httpx
import psutil
from machine import print_header
from serve_proc import ServeProcess

from scorekeeper.clock import FakeClock
from scorekeeper.store import open_sqlite
from web.api.app import create_app
from web.table.wiring import open_table
from web_common.auth import Auth
from web_common.broadcaster import Broadcaster
from web_common.pin import PinStore

PIN = "731904"
BODY = 100 * 1024 * 1024


class Counting:
    def __init__(self, inner: PinStore) -> None:
        self.inner, self.checks = inner, 0

    def verify(self, pin: object) -> bool:
        self.checks += 1
        return self.inner.verify(pin)


async def pin_attack(folder: Path) -> tuple[int, int]:
    """(checks for 100 at once from one address, checks in a minute of spread bursts)."""
    results = []
    for scenario in ("one address", "bursts"):
        clock = FakeClock(5000.0)
        store = PinStore(folder / scenario)
        store.set(PIN)
        pins = Counting(store)
        broadcaster = Broadcaster()
        table = open_table(folder / f"{scenario}.db", "sim", clock=clock, wall=clock,
                           publish=broadcaster.publish)
        auth = Auth.create(pins, clock)  # type: ignore[arg-type]
        app = create_app(table, auth, broadcaster, poll_interval=None)

        async def guess(address: str, n: int, app: object = app) -> None:
            transport = httpx.ASGITransport(app=app, client=(address, 1))  # type: ignore[arg-type]
            async with httpx.AsyncClient(transport=transport, base_url="http://skitter.local") as c:
                await c.post("/api/referee/login", json={"pin": f"{n:06d}"})

        if scenario == "one address":
            await asyncio.gather(*(guess("10.0.0.66", n) for n in range(100)))
        else:
            for burst in range(12):
                await asyncio.gather(*(guess(f"127.0.{burst}.{n}", n) for n in range(40)))
                clock.advance(5.0)
        results.append(pins.checks)
        table.close()
    return results[0], results[1]


class _StallingDisk:
    """Opens the store's connection (its ``connect``); once ``stalled``, every INSERT INTO
    events on it waits until ``released``."""

    def __init__(self) -> None:
        self.stalled = False
        self.reached, self.released = threading.Event(), threading.Event()

    def connect(self, path: str | Path, schema: str) -> sqlite3.Connection:
        return _Stalling(open_sqlite(path, schema), self)  # type: ignore[return-value]


class _Stalling:
    """A connection on a :class:`_StallingDisk`."""

    def __init__(self, db: sqlite3.Connection, disk: _StallingDisk) -> None:
        self.db, self.disk = db, disk

    def execute(self, sql: str, *args: object) -> object:
        if self.disk.stalled and sql.lstrip().upper().startswith("INSERT INTO EVENTS"):
            self.disk.reached.set()
            self.disk.released.wait(60)
        return self.db.execute(sql, *args)  # type: ignore[arg-type]

    def __getattr__(self, name: str) -> object:
        return getattr(self.db, name)


async def disk_stall(folder: Path, hold: float = 3.0) -> None:
    """Figure 4: readers' latency while a step waits on a stalled commit for ``hold`` s."""
    clock = FakeClock(5000.0)
    pins = PinStore(folder / "pin")
    pins.set(PIN)
    broadcaster = Broadcaster()
    stalled = _StallingDisk()
    table = open_table(folder / "stall.db", "sim", clock=clock, wall=clock,
                       publish=broadcaster.publish, connect=stalled.connect)
    app = create_app(table, Auth.create(pins, clock), broadcaster, poll_interval=None)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://skitter.local") as c:
        await c.post("/api/referee/login", json={"pin": PIN})
        seq = (await c.get("/api/state")).json()["seq"]
        stalled.stalled = True
        started = time.perf_counter()
        posting = asyncio.create_task(c.post("/api/match/steps", json={
            "seq": seq, "step": {"shot": {"by": "black", "big": "placed"}}}))
        while not stalled.reached.is_set():
            await asyncio.sleep(0.001)
        health, reads, taps, downloads = [], [], [], []
        while time.perf_counter() - started < hold:
            t = time.perf_counter()
            code = (await c.get("/healthz")).status_code
            health.append((time.perf_counter() - t, code))
            t = time.perf_counter()
            await c.get("/api/state")
            reads.append(time.perf_counter() - t)
            # sensing (a tap on the virtual board) and the log's downloads, off the writer
            t = time.perf_counter()
            verb = "remove" if len(taps) % 2 else "place"
            tap = await c.post(f"/api/board/{verb}", json={"field": "white.yellow"})
            taps.append((time.perf_counter() - t, tap.status_code))
            t = time.perf_counter()
            codes = [(await c.get(p)).status_code for p in (
                "/api/match/log.jsonl", "/api/match/log.csv", "/api/matches")]
            downloads.append((time.perf_counter() - t, max(codes)))
        stalled.released.set()
        answer = await posting
        took = time.perf_counter() - started
    table.close()
    print(f"4. disk stall of {hold:g} s: /healthz answered {len(health)} times in "
          f"{min(h for h, _ in health):.3f}-{max(h for h, _ in health):.3f} s "
          f"(status {sorted({c for _, c in health})}); /api/state {len(reads)} times, "
          f"at most {max(reads) * 1000:.1f} ms; the step answered {answer.status_code} "
          f"after {took:.2f} s")
    print(f"   sensing during it: {len(taps)} taps on the virtual board answered in at most "
          f"{max(t for t, _ in taps) * 1000:.1f} ms (status {sorted({c for _, c in taps})}); "
          f"the three downloads (.jsonl, .csv, matches) {len(downloads)} times, at most "
          f"{max(t for t, _ in downloads) * 1000:.1f} ms (status "
          f"{sorted({c for _, c in downloads})})")


def _send_big(port: int, with_length: bool) -> str:
    """Send a 100 MB login body; the answer's status line (or what stopped it)."""
    head = (f"POST /api/referee/login HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\n")
    head += (f"Content-Length: {BODY}\r\n\r\n" if with_length
             else "Transfer-Encoding: chunked\r\n\r\n")
    chunk = b'{"pin": "' + b"9" * (1024 * 1024 - 9)
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=20) as s:
        s.sendall(head.encode())
        try:
            while sent < BODY:
                data = chunk if with_length else b"%x\r\n%s\r\n" % (len(chunk), chunk)
                s.sendall(data)
                sent += len(chunk)
        except OSError:
            pass
        try:
            return s.recv(200).split(b"\r\n", 1)[0].decode() + f" after {sent >> 20} MB sent"
        except OSError as exc:
            return f"{exc.__class__.__name__} after {sent >> 20} MB sent"


def oversized(folder: Path) -> None:
    with ServeProcess(folder) as server:
        proc = psutil.Process(server.proc.pid)
        before = proc.memory_info().rss
        peak = before
        answers: list[str] = []
        threads = [threading.Thread(target=lambda w=w: answers.append(_send_big(server.port, w)))
                   for w in (True, True, True, False, False, False)]
        for t in threads:
            t.start()
        while any(t.is_alive() for t in threads):
            peak = max(peak, proc.memory_info().rss)
            time.sleep(0.01)
        after = proc.memory_info().rss
        print(f"2. oversized bodies: RSS {before / 2**20:.1f} MB before, peak "
              f"{peak / 2**20:.1f} MB, {after / 2**20:.1f} MB after; answers:")
        for a in sorted(answers):
            print(f"     {a}")


def slow_connections(folder: Path, count: int = 250, seconds: int = 12) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))  # inherited by the server only
    try:
        server = ServeProcess(folder)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    with server:
        proc = psutil.Process(server.proc.pid)
        clients = []
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=5)
            s.sendall(b"G")
            clients.append(s)
        print(f"3. {count} slow clients (one header byte a second), descriptor limit 256:")
        for second in range(seconds):
            for s in clients:
                with contextlib.suppress(OSError):
                    s.send(b"E")
            held = sum(1 for c in proc.net_connections("tcp")
                       if c.status == psutil.CONN_ESTABLISHED)
            try:
                with urllib.request.urlopen(f"{server.url}/healthz", timeout=2) as r:
                    answer = r.status
            except Exception as exc:  # noqa: BLE001 - reported, not raised
                answer = getattr(exc, "code", exc.__class__.__name__)
            print(f"     t={second:>2} s: server holds {held:>3} connections, /healthz {answer}")
            time.sleep(1.0)
        for s in clients:
            s.close()
        out = server.stop()
    print(f"     'Too many open files' in the log: {out.count('Too many open files')} times; "
          f"log {len(out.encode())} bytes")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skip-serve", action="store_true", help="only the in-process figure")
    args = parser.parse_args()
    print_header("Web faults: PIN guessing at once, oversized bodies, slow connections")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        one, minute = asyncio.run(pin_attack(folder))
        print(f"1. PIN checks: {one} for 100 simultaneous wrong PINs from one address; "
              f"{minute} in a minute of 40-guess bursts every 5 s from new addresses")
        asyncio.run(disk_stall(folder))
        if not args.skip_serve:
            oversized(folder / "big")
            slow_connections(folder / "slow")
    print(f"Result: {minute} PIN checks a minute under concurrent guessing "
          "(documented: 10, then one every 5 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
