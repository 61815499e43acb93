"""The server side of benchmark 2: ``skitter serve``'s app on real uvicorn, plus two probes.

Run by ``bench/latency.py`` as a child process (``--data-dir DIR --port N --pin PIN
--echo-port M``). The app is wired exactly as ``skitter serve`` wires it (simulated board,
monotonic clock, the 20 ms polling loop); two bench-only additions stand beside it:

- ``GET /bench/last-event``: the clock time of the simulated board's last cell change and
  the debounce and settle windows, so the client knows when the board came to rest
  (``time.monotonic`` is one clock for every process on the machine);
- a bare ``websockets`` echo server on ``--echo-port``: the baseline round trip.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import uvicorn
from websockets.asyncio.server import ServerConnection, serve

from firmware_bridge.sources import MonotonicClock
from web.app import create_app
from web.deps import Auth
from web.pin import PinStore
from web.wiring import open_table


class WallClock:
    def now(self) -> float:
        return time.time()


async def echo(connection: ServerConnection) -> None:
    async for message in connection:
        await connection.send(message)


async def main(args: argparse.Namespace) -> None:
    data = Path(args.data_dir)
    pins = PinStore(data)
    pins.set(args.pin)
    clock = MonotonicClock()
    table = open_table(data / "skitter.db", "sim", clock=clock, wall=WallClock())
    app = create_app(table, Auth.create(pins, clock))
    sensing = table.sensing
    assert sensing is not None and sensing.simulator is not None

    @app.get("/bench/last-event", include_in_schema=False)
    async def last_event() -> dict[str, Any]:
        events = sensing.simulator.events  # type: ignore[union-attr]
        return {"at": events[-1].at if events else None,
                "debounce": sensing.pipeline.debounce_s, "settle": sensing.pipeline.settle_s}

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=args.port,
                                           log_level="warning", lifespan="on"))
    async with serve(echo, "127.0.0.1", args.echo_port):
        try:
            await server.serve()
        finally:
            table.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--pin", required=True)
    parser.add_argument("--echo-port", type=int, required=True)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops on Ctrl-C by itself
        asyncio.run(main(parser.parse_args()))
