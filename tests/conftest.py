"""Shared fixtures: a fake clock, and the web app on the simulated board behind a test client.

Every fixture that swaps something in restores it, so tests stay independent: the client's
dependency overrides are cleared and the table (store and source) is closed in teardown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
from web_helpers import PIN

from scorekeeper.clock import FakeClock


@pytest.fixture
def fake_clock() -> FakeClock:
    """A clock at t=1000 s that moves only when a test advances it."""
    return FakeClock(1000.0)


@pytest.fixture
def make_client(tmp_path: Path, fake_clock: FakeClock) -> Iterator[Callable[..., TestClient]]:
    """Build clients on ``tmp_path/skitter.db`` (call again after closing one to "restart")."""
    from web.api.app import create_app
    from web.api.broadcaster import Broadcaster
    from web.api.deps import Auth
    from web.config.pin import PinStore
    from web.table.wiring import open_table

    pins = PinStore(tmp_path / "data")
    pins.set(PIN)
    opened: list[tuple[TestClient, object]] = []

    def build(*, source: str = "sim") -> TestClient:
        broadcaster = Broadcaster()
        table = open_table(tmp_path / "skitter.db", source, clock=fake_clock, wall=fake_clock,
                           publish=broadcaster.publish)
        app = create_app(table, Auth.create(pins, fake_clock), broadcaster, poll_interval=None)
        client = TestClient(app)
        client.__enter__()
        opened.append((client, table))
        return client

    yield build
    for client, table in opened:
        client.app.dependency_overrides.clear()  # type: ignore[attr-defined]
        client.__exit__(None, None, None)
        table.close()  # type: ignore[attr-defined]


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """The app on the simulated board; nobody logged in."""
    return make_client()


@pytest.fixture
def referee(client: TestClient) -> TestClient:
    """The same client, logged in as the referee."""
    response = client.post("/api/referee/login", json={"pin": PIN})
    assert response.status_code == 200, response.text
    return client


@pytest.fixture
def mock_factory() -> Iterator[MockFactory]:
    """gpiozero's mock pins as the default factory; the previous factory comes back after."""
    save_factory = Device.pin_factory
    Device.pin_factory = MockFactory()
    try:
        yield Device.pin_factory
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = save_factory


# -- The browser tests' Chromium (one per module) and a live server on the simulated board --


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from browser_support import CHROMIUM, CHROMIUM_ARGS, require_chromium

    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[object]:
    from browser_support import live_server

    with live_server(tmp_path) as s:
        yield s


class _Sender:
    """The hub's MQTT side, for apps tested without a broker: every command is 'sent'."""

    connected = True

    def problems(self) -> list[str]:
        return []

    def send_command(self, board: str, kind: str, **_: object) -> str:
        return f"{board}-{kind}"


@pytest.fixture
def hub_client(tmp_path: Path) -> Iterator[TestClient]:
    """The tournament hub's app on ``tmp_path/hub.db`` with the referee PIN :data:`PIN`."""
    from web.config.pin import PinStore
    from web.tournament.hub.app import Hub, create_hub_app
    from web.tournament.hub.store import HubStore
    from web.tournament.hub.tournament import Tournament

    clock = FakeClock(1_700_000_000.0)
    pins = PinStore(tmp_path / "hub-pin")
    pins.set(PIN)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    try:
        with TestClient(create_hub_app(Hub(tournament, _Sender(), pins, clock))) as c:
            yield c
    finally:
        tournament.store.close()
