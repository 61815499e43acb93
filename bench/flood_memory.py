"""Benchmark: memory of the board and the hub under a connection flood and big WebSocket frames.

Run: ``.venv/bin/python bench/flood_memory.py [--beside DIR] [--connections N] [--big-mib N]``

``skitter serve`` (simulated board) and ``skitter hub`` (with a Mosquitto broker) run as
child processes. Their resident memory (psutil) is read idle, after ``--connections`` idle
connections from one address (the board's live feed ``/api/events``, the hub's WebSocket
``/ws``) have been held open for two seconds, and after 20 WebSocket messages of the cap
(64 KiB) and 20 of ``--big-mib`` MiB (uvicorn's default cap, 16 MiB) were sent (a socket the
server closes for a too big message is opened again for the next). ``--beside DIR`` measures
the code in ``DIR`` (an earlier commit's checkout) first, with this environment.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("PYTEST_XDIST_WORKER", "gw6")  # ports from a block test runs seldom use
import machine  # noqa: E402,F401  # puts tests/support on the path
import psutil  # noqa: E402
from flood_client import close_all, flood  # noqa: E402
from hub_rig import Hub  # noqa: E402
from machine import print_header  # noqa: E402
from mqtt_broker import Broker  # noqa: E402
from serve_proc import ServeProcess, code_in  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CAP = 64 * 1024


def rss_mb(pid: int) -> float:
    return psutil.Process(pid).memory_info().rss / 2**20


def frames(port: int, size: int, count: int = 20) -> int:
    """Send ``count`` messages of ``size`` bytes to ``/ws``; how many the server closed on."""
    closed = 0
    payload = b"x" * size
    ws = None
    for _ in range(count):
        try:
            if ws is None:
                ws = connect(f"ws://127.0.0.1:{port}/ws", open_timeout=10, max_size=None)
            ws.send(payload)
            time.sleep(0.05)
        except (ConnectionClosed, OSError):
            closed += 1
            if ws is not None:
                ws.close()
            ws = None
    if ws is not None:
        with contextlib.suppress(ConnectionClosed, OSError):
            ws.ping().wait(10)  # the server has read them all
        ws.close()
    return closed


def measure(pid: int, port: int, path: str, websocket: bool,
            args: argparse.Namespace) -> dict[str, float]:
    figures = {"idle": rss_mb(pid)}
    held = flood(port, path, args.connections, websocket=websocket)
    time.sleep(2.0)
    figures["flood"] = rss_mb(pid)
    close_all(held)
    time.sleep(1.0)
    figures["closed_cap"] = frames(port, CAP)
    figures["cap"] = rss_mb(pid)
    figures["closed_big"] = frames(port, args.big_mib * 2**20)
    time.sleep(1.0)
    figures["big"] = rss_mb(pid)
    return figures


def board(src: Path, args: argparse.Namespace) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp, \
            ServeProcess(Path(tmp), command=code_in(src)) as server:
        time.sleep(2.0)
        return measure(server.proc.pid, server.port, "/api/events", False, args)


def hub(src: Path, args: argparse.Namespace) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        broker = Broker(folder / "broker")
        broker.start()
        try:
            the_hub = Hub(src, folder, broker.url)
            try:
                time.sleep(2.0)
                return measure(the_hub.proc.pid, the_hub.port, "/ws", True, args)
            finally:
                the_hub.stop()
        finally:
            broker.stop()


def report(name: str, f: dict[str, float], args: argparse.Namespace) -> None:
    print(f"  {name}: idle {f['idle']:6.1f} MB | {args.connections} idle connections "
          f"{f['flood']:6.1f} MB | 20 x 64 KiB {f['cap']:6.1f} MB "
          f"(closed on {f['closed_cap']:.0f}) | 20 x {args.big_mib} MiB {f['big']:6.1f} MB "
          f"(closed on {f['closed_big']:.0f})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--beside", type=Path, metavar="DIR",
                        help="also measure the code in DIR (an earlier commit's checkout)")
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--big-mib", type=int, default=16)
    args = parser.parse_args(argv)
    print_header("Benchmark: board and hub memory under a connection flood and big frames")
    sources = ([("code in " + str(args.beside), args.beside.resolve())] if args.beside else [])
    sources.append(("this code", ROOT))
    for label, src in sources:
        print(f"== {label}")
        report("board", board(src, args), args)
        report("hub  ", hub(src, args), args)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
