"""The tap-to-TV path: which of the project's files and functions a shot passes through.

Run: ``.venv/bin/python bench/tap_path.py`` (in each checkout to compare, e.g. a worktree of
the code before a change, with ``PYTHONPATH`` set to it). ``--correction``: the correction
path instead, a referee's correction of the board sent as the referee page sends it
(``POST /api/match/steps`` with its ``seq``) until the snapshot holding it, stored, reaches
the broadcaster.

The app runs as ``skitter serve`` runs it (its own polling loop, real clock, the virtual
board, short settle window). A skitt is put on the virtual board through the API, as the
virtual board page does; every call into a function of the project (``scorekeeper``,
``firmware_bridge``, ``web``) on any thread is recorded from the tap until the snapshot
holding the shot reaches the broadcaster (what the TV is sent). Printed: the files and
functions on that path and the threads of the server it ran on (the polling loop's steps
between the tap and the shot are on the path too, as they are for a real shot).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from machine import ROOT, print_header

PACKAGES = tuple(sorted(p.parent.name for p in ROOT.glob("*/__init__.py")
                        if p.parent.name not in {"tests", "bench"}))
"""The project's packages, as this checkout has them."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--correction", action="store_true",
                        help="measure the correction path instead of a shot's")
    args = parser.parse_args(argv)
    from fastapi.testclient import TestClient

    from firmware_bridge.clocks import MonotonicClock, WallClock
    from web.api.app import create_app
    from web.api.deps import Auth
    from web.table.wiring import open_table
    from web_common.broadcaster import Broadcaster
    from web_common.pin import PinStore

    print_header("The correction path (files, functions, thread hand-offs)" if args.correction
                 else "The tap-to-TV path (files, functions, thread hand-offs)")
    roots = [str(Path(__import__(p).__file__).resolve().parent) for p in PACKAGES]
    calls: list[tuple[str, str, str]] = []
    recording = threading.Event()

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event != "call" or not recording.is_set():
            return
        path = frame.f_code.co_filename
        if any(path.startswith(r) for r in roots):
            calls.append((threading.current_thread().name, path, frame.f_code.co_qualname))

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        clock = MonotonicClock()
        broadcaster = Broadcaster()
        table = open_table(tmp / "skitter.db", "sim", clock=clock, wall=WallClock(),
                           settle_ms=60, debounce_ms=10, publish=broadcaster.publish)
        pins = PinStore(tmp / "data")
        pins.set("2468")
        app = create_app(table, Auth.create(pins, clock), broadcaster, poll_interval=0.02)
        try:
            with TestClient(app) as c:
                assert c.post("/api/referee/login", json={"pin": "2468"}).is_success
                deadline = time.monotonic() + 10
                while c.get("/api/state").json()["tracker"]["mode"] != "ready":
                    assert time.monotonic() < deadline, "the board did not come to rest"
                    time.sleep(0.01)
                # every thread already running (the event loop, the table's executors) too
                c.portal.call(sys.setprofile, profile)  # type: ignore[union-attr]
                for pool in _pools(table):
                    pool.submit(sys.setprofile, profile).result()
                threading.setprofile(profile)
                sys.setprofile(profile)
                recording.set()
                if args.correction:
                    seq = c.get("/api/state").json()["seq"]
                    answer = c.post("/api/match/steps", json={"seq": seq, "step": {"correct": {
                        "board": {"white.red": 1}, "reason": "a skitt the sensors missed"}}})
                    assert answer.is_success, answer.text
                else:
                    c.post("/api/board/big", json={"player": "black", "on": True})
                while (broadcaster.latest or {}).get("log_length") != 1:
                    assert time.monotonic() < deadline + 10, "the shot was not published"
                    time.sleep(0.001)
                recording.clear()
                c.portal.call(sys.setprofile, None)  # type: ignore[union-attr]
                for pool in _pools(table):
                    pool.submit(sys.setprofile, None).result()
                sys.setprofile(None)
                threading.setprofile(None)  # type: ignore[arg-type]
        finally:
            table.close()
    files = {path for _, path, _ in calls}
    functions = {(path, name) for _, path, name in calls}
    threads = sorted({_kind(t) for t, _, _ in calls} - {"MainThread"})  # not the client's
    print(f"files      {len(files)}")
    print(f"functions  {len(functions)}")
    print(f"threads    {len(threads)}: {', '.join(threads)}")
    for path in sorted(files):  # named from the checkout measured (PYTHONPATH may name another)
        root = next(Path(r) for r in roots if path.startswith(r))
        print(f"  {Path(path).relative_to(root.parent)}")
    return 0


def _pools(table: Any) -> list[Any]:
    """The table's thread pools, whatever this checkout calls them."""
    found = []
    for owner in (table, getattr(table, "watch", None), getattr(table, "feed", None)):
        for name in ("writer", "thread", "owner", "sensing_thread"):
            pool = getattr(owner, name, None)
            if pool is not None and hasattr(pool, "submit") and pool not in found:
                found.append(pool)
    return found


def _kind(thread: str) -> str:
    """A thread's role: its name without a pool's number or a portal's id."""
    return "event loop" if thread.startswith("asyncio-portal") else thread.rstrip("0123456789_")


if __name__ == "__main__":
    sys.exit(main())
