"""A wall clock set back (or forward) changes no wait: the hub's and the board's wrong-PIN
waits and sessions run on the monotonic clock; the wall clock only dates records."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from hub.app import create_hub_app
from hub.store import HubStore
from scorekeeper.clock import FakeClock
from skitter_cli.hub import build
from tournament_wire.wire import settings_from_url
from web_common.pin import PinStore

PIN = "4242"


class JumpingWall:
    """A wall clock a person can set back."""

    def __init__(self, start: float) -> None:
        self.t = start

    def now(self) -> float:
        return self.t


def login(client: TestClient, pin: str) -> int:
    return client.post("/api/referee/login", json={"pin": pin}).status_code


def hub_client(tmp_path: Path, **clocks: object) -> tuple[TestClient, HubStore]:
    pins = PinStore(tmp_path / "pin")
    pins.set(PIN)
    store = HubStore(tmp_path / "hub.db")
    _, hub = build(settings_from_url("mqtt://127.0.0.1:1"), store, pins, **clocks)  # type: ignore[arg-type]
    return TestClient(create_hub_app(hub)), store


def test_the_hub_referee_is_not_locked_out_when_the_wall_clock_is_set_back(
    tmp_path: Path,
) -> None:
    wall, mono = JumpingWall(1_700_000_000.0), FakeClock(50.0)
    client, store = hub_client(tmp_path, wall=wall, monotonic=mono)
    try:
        with client:
            assert login(client, "0000") == 401
            wall.t -= 3600.0  # the venue's clock is set back one hour
            mono.advance(1.5)  # and the wait of one wrong PIN (1 s) is over
            assert login(client, PIN) == 200
            wall.t += 3600.0  # an hour on: still signed in (sessions end by wall time,
            assert client.get("/api/referee/session").json() == {"referee": True}
            wall.t += 48 * 3600.0  # which a reboot keeps: two days on, the session is over)
            assert client.get("/api/referee/session").json() == {"referee": False}
    finally:
        store.close()


def test_the_real_hub_wiring_uses_the_monotonic_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client, store = hub_client(tmp_path)  # the clocks `skitter hub` runs on
    real_time, real_monotonic = time.time, time.monotonic
    try:
        with client:
            assert login(client, "0000") == 401
            monkeypatch.setattr(time, "time", lambda: real_time() - 3600.0)
            monkeypatch.setattr(time, "monotonic", lambda: real_monotonic() + 1.5)
            answer = client.post("/api/referee/login", json={"pin": PIN})
            assert answer.status_code == 200, (answer.status_code, answer.headers)
    finally:
        store.close()
