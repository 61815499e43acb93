"""A WebSocket outlives the deadline its upgrade request had to arrive in.

The served apps run on ``TimedH11Protocol``, which cuts a connection whose request takes more
than ``Limits.request_seconds`` to arrive. An upgraded connection (every live page) sends no further
request, and used to be cut that long after it opened: pages reconnected every few seconds.
"""

from __future__ import annotations

import asyncio

import pytest
from fastapi import FastAPI, WebSocket
from threaded_server import serve_in_thread
from waiting import wait_until_async
from websockets.sync.client import connect

from web_common import serving


@pytest.mark.timeout(30)
def test_a_websocket_stays_open_past_the_request_deadline() -> None:
    limits = serving.Limits(request_seconds=0.3)
    app = FastAPI()

    @app.websocket("/ws")
    async def live(websocket: WebSocket) -> None:
        await websocket.accept()
        await websocket.send_text("hello")
        loop = asyncio.get_running_loop()
        past = loop.time() + 3 * limits.request_seconds
        await wait_until_async(lambda: loop.time() >= past, "well past the request deadline")
        await websocket.send_text("still here")
        await websocket.receive_text()

    with serve_in_thread(serving.server_config(app, "127.0.0.1", 0, limits=limits)) as url, \
            connect(url.replace("http:", "ws:") + "/ws", open_timeout=5) as ws:
        assert ws.recv(timeout=5) == "hello"
        assert ws.recv(timeout=5) == "still here"
        ws.send("bye")
