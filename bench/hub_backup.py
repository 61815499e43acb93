"""How long a backup of the hub's file takes, and how long the hub's writes wait meanwhile.

    python bench/hub_backup.py [--boards 128] [--games 40]

A hub file is filled with ``--boards`` x ``--games`` finished games (the four-step games of
the hub's tests, each step with its state), then copied twice while a writer stores one
small change after another, as the hub does while boards play:

- *through the hub's connection*: SQLite's backup API on the store's own connection, under
  its lock (the first way ``hub.backup`` was written);
- *through a reader of its own*: the backup API on a separate read-only connection, as
  :func:`hub.backup.copy_database` does now (WAL: readers never block the
  writer).

Printed: the file's size, each copy's time and the longest wait of a write during it.
"""

from __future__ import annotations

import argparse
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from machine import print_header  # first: it puts tests/support on the path

# isort: split
from hub_support import game_steps, real_events

from hub.backup import copy_database
from hub.store import HubStore


def fill(store: HubStore, boards: int, games: int) -> int:
    count = 0
    with store.batch():
        for b in range(boards):
            for m in range(1, games + 1):
                for ev in real_events(f"board-{b:03d}", m, ("Annabel", "Bartholomew"),
                                      game_steps(m % 2 == 0)):
                    store.add_event(ev, received_at=0.0)
                    count += 1
    return count


def through_the_hubs_connection(store: HubStore, target: Path) -> None:
    with store._lock:  # noqa: SLF001 - the way measured against
        copy = sqlite3.connect(str(target))
        try:
            store._db.backup(copy)  # noqa: SLF001
        finally:
            copy.close()


def timed(store: HubStore, copy: Callable[[], None]) -> tuple[float, float, int]:
    """(seconds the copy took, the longest wait of one write meanwhile, writes made)."""
    stop = threading.Event()
    waits: list[float] = []

    def writer() -> None:
        n = 0
        while not stop.is_set():
            start = time.perf_counter()
            store.set_meta("bench", str(n))
            waits.append(time.perf_counter() - start)
            n += 1

    thread = threading.Thread(target=writer)
    thread.start()
    time.sleep(0.05)  # the writer is under way before the copy starts
    before = len(waits)
    start = time.perf_counter()
    copy()
    took = time.perf_counter() - start
    stop.set()
    thread.join()
    during = waits[before:] or [0.0]
    return took, max(during), len(during)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=128)
    parser.add_argument("--games", type=int, default=40)
    args = parser.parse_args()
    print_header("the hub's backup: copy time and the hub's writes meanwhile")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        store = HubStore(folder / "hub.db")
        try:
            steps = fill(store, args.boards, args.games)
            size = sum(p.stat().st_size for p in folder.glob("hub.db*"))
            print(f"hub file: {args.boards} boards x {args.games} games, {steps} steps, "
                  f"{size / 1e6:.1f} MB")
            old = timed(store, lambda: through_the_hubs_connection(store, folder / "old.db"))
            new = timed(store, lambda: copy_database(store.path, folder / "new.db"))
        finally:
            store.close()
            copied = sqlite3.connect(folder / "new.db")
            try:
                whole = copied.execute("SELECT COUNT(*) FROM events").fetchone()[0] == steps
            finally:
                copied.close()
        if not whole:
            print("bench bug: the copy lacks steps")
            return 1
        for label, (took, wait, writes) in (("through the hub's connection", old),
                                            ("through a reader of its own", new)):
            print(f"{label:30s} copy {took * 1000:8.1f} ms   longest write wait "
                  f"{wait * 1000:8.1f} ms   writes during the copy {writes}")
    print(f"Result: a backup of {size / 1e6:.1f} MB takes {new[0] * 1000:.0f} ms; the hub's "
          f"writes wait at most {new[1] * 1000:.1f} ms meanwhile (through its own connection: "
          f"{old[1] * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
