"""The server side of benchmark 2: ``skitter serve``'s app on real uvicorn, plus two probes.

Run by ``bench/latency.py`` as a child process (``--data-dir DIR --port N --pin PIN
--echo-port M [--deflate off]``). The app is wired exactly as ``skitter serve`` wires it
(simulated board, monotonic clock, the polling loop, uvicorn's defaults but
``ws_per_message_deflate=web_common.broadcaster.PER_MESSAGE_DEFLATE``); bench-only additions
stand beside it:

- ``GET /bench/last-event``: the clock time of the simulated board's last cell change and
  the debounce and settle windows, so the client knows when the board came to rest
  (``time.monotonic`` is one clock for every process on the machine), and when the state
  with the current log length was handed to the broadcaster (``published``), which splits
  the figure into the server's own work and the fan-out to the screens;
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

from firmware_bridge.clocks import MonotonicClock, WallClock
from web.api.app import create_app
from web.api.deps import Auth
from web.table.wiring import open_table
from web_common.broadcaster import PER_MESSAGE_DEFLATE, Broadcaster
from web_common.pin import PinStore


async def echo(connection: ServerConnection) -> None:
    async for message in connection:
        await connection.send(message)


async def main(args: argparse.Namespace) -> None:
    data = Path(args.data_dir)
    pins = PinStore(data)
    pins.set(args.pin)
    clock = MonotonicClock()
    broadcaster = Broadcaster()
    published: dict[tuple[int, int], float] = {}

    def timed_publish(snapshot: Any) -> None:
        """Note when the first state with each log length was handed to the broadcaster."""
        published.setdefault((snapshot["match_id"], snapshot["log_length"]), time.monotonic())
        broadcaster.publish(snapshot)

    table = open_table(data / "skitter.db", "sim", clock=clock, wall=WallClock(),
                       publish=timed_publish)
    app = create_app(table, Auth.create(pins, clock), broadcaster)
    sensing = table.sensing
    assert sensing is not None and sensing.simulator is not None

    @app.get("/bench/last-event", include_in_schema=False)
    async def last_event() -> dict[str, Any]:
        events = sensing.simulator.events  # type: ignore[union-attr]
        return {"at": events[-1].at if events else None,
                "published": published.get((table.match_id, len(table.log))),
                "debounce": sensing.pipeline.debounce_s, "settle": sensing.pipeline.settle_s}

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=args.port,
                                           log_level="warning", lifespan="on",
                                           ws_per_message_deflate=args.deflate == "on"))
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
    parser.add_argument("--deflate", choices=("on", "off"),
                        default="on" if PER_MESSAGE_DEFLATE else "off",
                        help="permessage-deflate (default: broadcaster.PER_MESSAGE_DEFLATE)")
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn stops on Ctrl-C by itself
        asyncio.run(main(parser.parse_args()))
