"""The hub's ``/healthz`` and page name a thread of the hub that stopped or fell behind, and a
file that refuses writes: 503, never a quiet 200 while nothing is stored."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from waiting import wait_until

from hub.app import Hub, create_hub_app
from hub.link import BACKLOG, BEHIND, HubLink
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from tournament_wire.wire import settings_from_url
from web_common.pin import PinStore

STOPPED = ("the hub has stopped storing what the boards send (its storing thread ended): "
           "restart it")

class Message:
    def __init__(self, topic: str, payload: bytes) -> None:
        self.topic, self.payload, self.mid, self.qos = topic, payload, 1, 1


def arrives(link: HubLink, topic: str, payload: bytes) -> None:
    """A message reaches the hub as paho hands it over: to the client's callback."""
    link.client.on_message(link.client, None, Message(topic, payload))  # type: ignore[arg-type]


@pytest.fixture
def hub_on_clock(tmp_path: Path) -> Iterator[tuple[HubLink, TestClient, FakeClock]]:
    mono = FakeClock(100.0)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), FakeClock(1_700_000_000.0))
    link = HubLink(settings_from_url("mqtt://127.0.0.1:1"), tournament, monotonic=mono.now)
    link.connected = True  # as if the broker were there: only the hub's own health counts
    hub = Hub(tournament, link, PinStore(tmp_path / "pin"), mono)
    try:
        with TestClient(create_hub_app(hub)) as client:
            yield link, client, mono
    finally:
        link.stop()
        tournament.store.close()


def wait_for(condition: object, what: str) -> None:
    wait_until(condition, what, timeout=5)  # type: ignore[arg-type]


def health(client: TestClient) -> tuple[int, list[str]]:
    answer = client.get("/healthz")
    return answer.status_code, answer.json()["problems"]


def test_a_stopped_storing_thread_is_named_by_healthz_and_the_page(
    hub_on_clock: tuple[HubLink, TestClient, FakeClock],
) -> None:
    link, client, _ = hub_on_clock
    link.bursts.run = lambda: None  # type: ignore[method-assign]  # the thread ends at once
    link.start()
    link.threads["storing"].join(2)
    assert health(client) == (503, [STOPPED])
    assert client.get("/api/hub").json()["problems"] == [STOPPED]


def test_a_storing_thread_that_falls_behind_is_named(
    hub_on_clock: tuple[HubLink, TestClient, FakeClock],
) -> None:
    link, client, mono = hub_on_clock
    stuck, release = threading.Event(), threading.Event()

    def hangs(burst: object) -> bool:
        stuck.set()
        release.wait(10)
        return True

    link.bursts.take_burst = hangs  # type: ignore[method-assign, assignment]
    link.start()
    try:
        assert health(client)[0] == 200
        arrives(link, "skitter/b1/status", b'{"online": true}')
        assert stuck.wait(5)
        mono.advance(BEHIND + 1)
        code, problems = health(client)
        assert code == 503 and problems[0].startswith(
            "the hub is 6 s behind in storing what the boards send")
    finally:
        release.set()
    wait_for(lambda: health(client)[0] == 200, "the thread to catch up")


def test_a_file_that_refuses_writes_is_named_and_clears_when_it_takes_them(
    hub_on_clock: tuple[HubLink, TestClient, FakeClock], monkeypatch: pytest.MonkeyPatch,
) -> None:
    link, client, _ = hub_on_clock
    real_batch = link.store.batch
    full = {"on": True}

    @contextmanager
    def batch() -> Iterator[None]:
        if full["on"]:
            raise sqlite3.OperationalError("database or disk is full")
        with real_batch():
            yield

    monkeypatch.setattr(link.store, "batch", batch)
    monkeypatch.setattr("hub.bursts.STORE_AGAIN", 0.05)
    link.start()
    arrives(link, "skitter/b1/status", b'{"online": true}')
    wait_for(lambda: health(client)[0] == 503, "the disk error")
    assert health(client)[1] == ["the hub's file cannot be written: database or disk is full"]
    full["on"] = False
    wait_for(lambda: health(client)[0] == 200, "the burst stored")
    assert link.store.boards()[0]["online"] is True


def test_a_backlog_of_messages_waiting_to_be_stored_is_named(
    hub_on_clock: tuple[HubLink, TestClient, FakeClock],
) -> None:
    link, client, _ = hub_on_clock  # not started: nothing takes the messages
    for _ in range(BACKLOG + 1):
        arrives(link, "skitter/b1/status", b"{}")
    code, problems = health(client)
    assert code == 503
    assert problems == [f"the hub is behind: {BACKLOG + 1} messages from the boards wait to be "
                        "stored"]
