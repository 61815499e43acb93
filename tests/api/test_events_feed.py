"""The public read-only feed: ``/api/events`` sends, as Server-Sent Events, the very texts the
WebSocket sends, from a real uvicorn server while a shot is made on the (virtual) board."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from browser_support import live_server, serving
from ports import listening_socket
from threaded_server import start_in_thread
from waiting import wait_until
from websockets.sync.client import connect

pytestmark = pytest.mark.timeout(60)


def sse_events(lines: Iterator[str]) -> Iterator[tuple[str, str]]:
    """(event name, data) of each event in a ``text/event-stream`` read line by line."""
    name, data = "message", []
    for line in lines:
        if line == "":
            if data:
                yield name, "\n".join(data)
            name, data = "message", []
        elif line.startswith(":"):
            continue
        else:
            field, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if field == "event":
                name = value
            elif field == "data":
                data.append(value)


def test_the_feed_sends_the_websocket_states_while_a_shot_is_made(tmp_path: Path) -> None:
    with live_server(tmp_path) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        assert http.post("/api/referee/login", json={"pin": server.pin}).status_code == 200
        # The board comes to rest first (its first settled reading is a state of its own), so
        # the feed's first state is the state as it stays until the shot.
        wait_until(lambda: http.get("/api/state").json()["tracker"]["mode"] == "ready",
                   "the simulated board to come to rest", timeout=20, every=0.05)
        ws_texts: list[str] = []
        with connect(server.url.replace("http", "ws") + "/ws", open_timeout=5) as ws, \
                http.stream("GET", "/api/events") as feed:
            assert feed.status_code == 200
            assert feed.headers["content-type"].startswith("text/event-stream")
            assert feed.headers["cache-control"] == "no-cache"
            events = sse_events(feed.iter_lines())
            name, first = next(events)
            assert name == "state"
            start = json.loads(first)
            assert start["seq"] == http.get("/api/state").json()["seq"]
            assert start["state"]["turn"] == "black"

            # The first player places the big skitt on the virtual board: the sensors see it,
            # the board settles, the shot is scored and published.
            assert http.post("/api/board/big", json={"player": "black", "on": True}).is_success
            texts: list[str] = []
            for name, data in events:
                assert name == "state"
                texts.append(data)
                if json.loads(data)["log_length"] > start["log_length"]:
                    break
            scored = json.loads(texts[-1])
            assert scored["last_step"]["source"] == "sensor"
            assert scored["state"]["turn"] == "white"
            seqs = [json.loads(t)["seq"] for t in texts]
            assert seqs == sorted(seqs) and seqs[0] > start["seq"]

            # One path: the WebSocket got the very same texts, in the same order.
            while len(ws_texts) < 1 + len(texts):
                ws_texts.append(str(ws.recv(timeout=5)))
            assert ws_texts[0] == first
            assert ws_texts[1:] == texts


def test_a_reader_that_goes_away_is_forgotten(tmp_path: Path) -> None:
    with board_app(tmp_path) as (app, broadcaster), serving(lambda url: app) as url, \
            httpx.Client(base_url=url, timeout=10) as http:
        with http.stream("GET", "/api/events") as feed:
            events = sse_events(feed.iter_lines())  # kept: a dropped reader closes the stream
            next(events)
            assert broadcaster.client_count == 1
        wait_until(lambda: broadcaster.client_count == 0, "the reader to be forgotten",
                   timeout=5)


def test_a_stop_is_not_held_up_by_an_open_feed(tmp_path: Path) -> None:
    """``skitter serve``'s uvicorn settings cut a feed still open at a stop, so a stop takes
    about ``GRACEFUL_SHUTDOWN`` seconds, not forever."""
    from web_common import serving as board_serving

    with board_app(tmp_path) as (app, _):
        sock = listening_socket()
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
        server, thread = start_in_thread(
            board_serving.server_config(app, "127.0.0.1", 0), sock)
        reading = threading.Event()

        def read() -> None:
            try:
                with httpx.stream("GET", url + "/api/events", timeout=30) as feed:
                    for line in feed.iter_lines():
                        if line.startswith("data:"):
                            reading.set()
            except httpx.HTTPError:
                pass

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        assert reading.wait(10)
        started = time.monotonic()
        server.should_exit = True
        thread.join(15)
        assert not thread.is_alive()
        assert time.monotonic() - started < board_serving.GRACEFUL_SHUTDOWN + 5
        reader.join(5)
        sock.close()


@contextmanager
def board_app(tmp: Path) -> Iterator[tuple[Any, Any]]:
    """The board's app on the simulated board (no polling) and its broadcaster."""
    from firmware_bridge.clocks import MonotonicClock, WallClock
    from web.api.app import create_app
    from web.api.deps import Auth
    from web.table.wiring import open_table
    from web_common.broadcaster import Broadcaster
    from web_common.pin import PinStore

    clock = MonotonicClock()
    broadcaster = Broadcaster()
    table = open_table(tmp / "skitter.db", "sim", clock=clock, wall=WallClock(),
                       publish=broadcaster.publish)
    try:
        yield create_app(table, Auth.create(PinStore(tmp / "pin"), clock), broadcaster,
                         poll_interval=None), broadcaster
    finally:
        table.close()


def test_the_feed_is_documented_in_the_openapi(client: Any) -> None:
    spec = client.get("/openapi.json").json()
    answer = spec["paths"]["/api/events"]["get"]["responses"]["200"]
    content = answer["content"]["text/event-stream"]
    assert content["schema"]["$ref"].endswith("/Snapshot")
    assert "event named `state`" in answer["description"]


def test_a_quiet_feed_says_it_is_still_there(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    from web.api.routers import stream

    monkeypatch.setattr(stream, "KEEPALIVE", 0.2)
    with board_app(tmp_path) as (app, _), serving(lambda url: app) as url, \
            httpx.Client(base_url=url, timeout=10) as http, \
            http.stream("GET", "/api/events") as feed:
        lines = feed.iter_lines()
        assert next(lines) == "retry: 2000"
        seen = [next(lines) for _ in range(6)]
        assert ": still here" in seen, seen


def test_the_feed_speaks_the_language_asked_for(tmp_path: Path) -> None:
    """Issue 29: ``?lang=de`` (or Accept-Language) words the feed's states in German, as
    ``/ws?lang=de`` does; without one they stay as published."""
    with live_server(tmp_path) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        for query, headers, turn in (
                ("?lang=de", {}, "Erster Spieler: den großen Skitt in die Mitte schießen"),
                ("", {"Accept-Language": "de-DE"},
                 "Erster Spieler: den großen Skitt in die Mitte schießen"),
                ("", {}, "First player: shoot your big skitt to the centre")):
            with http.stream("GET", "/api/events" + query, headers=headers) as feed:
                _, first = next(sse_events(feed.iter_lines()))
                assert json.loads(first)["words"]["turn"] == turn, query
