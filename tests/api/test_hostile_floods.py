"""One address cannot lock the referee out; big WebSocket messages and huge headers are
refused; a live stream whose reader stopped reading is cut.

The board's app and the hub's run on loopback with the serving configuration of ``skitter
serve`` and ``skitter hub`` (``web_common.serving.server_config``). A flood comes from
127.0.0.1; the referee and the TV come from 127.0.0.2 and 127.0.0.3 (loopback is a whole
/8 on Linux), so they are other addresses as they are at a venue. Every flood is bounded in
count and closed by the test.
"""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import anyio.lowlevel
import pytest
import uvicorn
from fastapi import FastAPI
from fastapi.responses import StreamingResponse
from flood_client import close_all, flood, refused_with
from hub_app_support import QuietSender, tournament_of
from ports import free_port
from waiting import wait_until
from web_helpers import PIN
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from web_common import serving
from web_common.limits import DEFAULT_LIMITS

FLOOD = 1000
"""Idle connections one address opens (the attack run's number)."""
REFEREE = "127.0.0.2"
TV = "127.0.0.3"


@contextmanager
def served(app: Any, **limits: Any) -> Iterator[int]:
    """``app`` served with the servers' own configuration on a free loopback port."""
    port = free_port()
    config = serving.server_config(app, "127.0.0.1", port, **limits)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn-flood", daemon=True)
    thread.start()
    wait_until(lambda: server.started or not thread.is_alive(), "the server starting",
               timeout=15)
    assert server.started, "the server stopped before it served"
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=15)


@contextmanager
def board_app(tmp_path: Path) -> Iterator[Any]:
    from firmware_bridge.clocks import MonotonicClock, WallClock
    from web.api.app import create_app
    from web.api.deps import Auth
    from web.table.wiring import open_table
    from web_common.broadcaster import Broadcaster
    from web_common.pin import PinStore

    clock = MonotonicClock()
    pins = PinStore(tmp_path / "data")
    pins.set(PIN)
    broadcaster = Broadcaster()
    table = open_table(tmp_path / "skitter.db", "sim", clock=clock, wall=WallClock(),
                       settle_ms=120, debounce_ms=10, publish=broadcaster.publish)
    try:
        yield create_app(table, Auth.create(pins, clock), broadcaster)
    finally:
        table.close()


@contextmanager
def hub_app(tmp_path: Path) -> Iterator[Any]:
    from hub.app import Hub, create_hub_app
    from web_common.pin import PinStore

    with tournament_of(tmp_path, ["Ada", "Bo"]) as t:
        pins = PinStore(tmp_path / "pin")
        pins.set(PIN)
        yield create_hub_app(Hub(t, QuietSender(), pins, t.clock))


def request(port: int, method: str, path: str, *, source: str, body: str | None = None,
            cookie: str | None = None) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10,
                                      source_address=(source, 0))
    headers = {"Content-Type": "application/json"} if body else {}
    if cookie:
        headers["Cookie"] = cookie
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def log_in(port: int, source: str) -> str:
    answer = request(port, "POST", "/api/referee/login", source=source,
                     body=f'{{"pin": "{PIN}"}}')
    assert answer.status == 200, answer.status
    cookie = answer.getheader("set-cookie") or ""
    return cookie.split(";", 1)[0]


@pytest.mark.timeout(120)
def test_a_thousand_idle_streams_from_one_address_leave_the_board_serving(
    tmp_path: Path,
) -> None:
    with board_app(tmp_path) as app, served(app) as port:
        cookie = log_in(port, REFEREE)
        held = flood(port, "/api/events", FLOOD)
        try:
            # the referee signs in again and loads pages; the TV loads its page
            assert request(port, "GET", "/referee", source=REFEREE).status == 200
            assert log_in(port, REFEREE)
            assert request(port, "GET", "/api/referee/session", source=REFEREE,
                           cookie=cookie).status == 200
            assert request(port, "GET", "/overlay", source=TV).status == 200
            refused = refused_with(held, 429)
            assert refused >= FLOOD - serving.DEFAULT_LIMITS.per_address - 5, refused
        finally:
            close_all(held)


@pytest.mark.timeout(120)
def test_a_thousand_idle_websockets_from_one_address_leave_the_hub_serving(
    tmp_path: Path,
) -> None:
    with hub_app(tmp_path) as app, served(app) as port:
        held = flood(port, "/ws", FLOOD, websocket=True)
        try:
            assert request(port, "GET", "/", source=REFEREE).status == 200
            cookie = log_in(port, REFEREE)
            assert request(port, "GET", "/api/hub", source=REFEREE, cookie=cookie).status == 200
            assert request(port, "GET", "/overlay", source=TV).status == 200
            assert refused_with(held, 429) >= FLOOD - serving.DEFAULT_LIMITS.per_address - 5
        finally:
            close_all(held)


@pytest.mark.timeout(60)
def test_the_last_connections_are_kept_for_the_referee_and_the_tv(tmp_path: Path) -> None:
    limits = serving.Limits(per_address=100, connections=40, reserved=10)
    with board_app(tmp_path) as app, served(app, limits=limits) as port:
        cookie = log_in(port, REFEREE)
        held = flood(port, "/api/events", 35)  # 35 of 40 taken: only the reserve is left
        try:
            anyone = request(port, "GET", "/", source="127.0.0.4")
            assert anyone.status == 503
            assert "try again" in anyone.read().decode() or anyone.getheader("retry-after")
            assert request(port, "GET", "/api/referee/session", source=REFEREE,
                           cookie=cookie).status == 200
            assert request(port, "GET", "/overlay", source=TV).status == 200
        finally:
            close_all(held)


@pytest.mark.timeout(60)
def test_a_stream_whose_reader_stopped_reading_is_cut() -> None:
    ended = threading.Event()
    app = FastAPI()

    @app.get("/stream")
    async def stream() -> StreamingResponse:
        async def chunks() -> Any:
            try:
                while True:
                    yield b"x" * 65536
                    await anyio.lowlevel.checkpoint()  # let the loop run between chunks
            finally:
                ended.set()

        return StreamingResponse(chunks(), media_type="text/event-stream")

    limits = serving.Limits(stall_seconds=1.0)
    with served(app, limits=limits) as port:
        (reader,) = flood(port, "/stream", 1)
        try:
            assert ended.wait(15), "the stream that nobody reads is still being fed"
        finally:
            reader.close()


@pytest.mark.timeout(60)
@pytest.mark.parametrize("which", ["board", "hub"])
def test_websocket_messages_over_the_cap_close_the_socket(which: str, tmp_path: Path) -> None:
    make = board_app if which == "board" else hub_app
    with make(tmp_path) as app, served(app) as port:
        # One message just over the cap: the server reads all of it before it closes (a
        # flood left unread in its socket would make the close a reset, and the client could
        # lose the close frame that says why).
        big = b"x" * (DEFAULT_LIMITS.websocket_bytes + 1024)
        with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5, max_size=None) as ws:
            ws.send(big)
            with pytest.raises(ConnectionClosed) as closed:
                while True:  # whatever the server sent before it closes, then the close
                    ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        # a page's message well under the cap goes through
        with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=5) as ws:
            ws.send("x" * 4000)
            ws.recv(timeout=5)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("which", ["board", "hub"])
def test_request_headers_over_16_kib_are_refused(which: str, tmp_path: Path) -> None:
    make = board_app if which == "board" else hub_app
    with make(tmp_path) as app, served(app) as port:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/healthz", headers={"X-Big": "y" * 60_000})
        assert conn.getresponse().status == 431
        conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", "/healthz", headers={"X-Fair": "y" * 8000})
        assert conn.getresponse().status in (200, 503)  # the hub's health names its broker
        conn.close()
