"""A hub app on a tournament in a temporary folder, for the tests of its HTTP side and its
pages (served on a loopback port for the browser)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from browser_support import serving
from fastapi.testclient import TestClient
from web_helpers import PIN

from hub.app import Hub, create_hub_app
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from web_common.pin import PinStore


class QuietSender:
    """A broker link that is up and takes every command (no board answers)."""

    connected = True

    def problems(self) -> list[str]:
        return []

    def send_command(self, board: str, kind: str, **_: object) -> str:
        return "c1"


@contextmanager
def tournament_of(tmp_path: Path, names: Iterable[str]) -> Iterator[Tournament]:
    """A tournament with ``names`` registered, its store closed afterwards."""
    store = HubStore(tmp_path / "hub.db")
    tournament = Tournament(store, FakeClock(1_700_000_000.0))
    for name in names:
        tournament.add_player(name)
    try:
        yield tournament
    finally:
        store.close()


@contextmanager
def hub_app_client(t: Tournament, tmp_path: Path, *, log_in: bool) -> Iterator[TestClient]:
    """A client of the hub app on ``t`` (logged in as the hub referee when ``log_in``)."""
    pins = PinStore(tmp_path / "pin")
    pins.set(PIN)
    with TestClient(create_hub_app(Hub(t, QuietSender(), pins, FakeClock(0.0)))) as client:
        if log_in:
            assert client.post("/api/referee/login", json={"pin": PIN}).status_code == 200
        yield client


@contextmanager
def served_hub(t: Tournament, tmp_path: Path, pin: str, *,
               sender: Any = None) -> Iterator[tuple[str, Hub]]:
    """The hub app on ``t`` served on a loopback port, its referee PIN ``pin`` and its clock
    the tournament's: the address (no trailing slash) and the :class:`Hub`. ``sender``: the
    broker link (a :class:`QuietSender` unless given)."""
    pins = PinStore(tmp_path / "pin")
    pins.set(pin)
    hub = Hub(t, QuietSender() if sender is None else sender, pins, t.clock)
    with serving(lambda url: create_hub_app(hub)) as url:
        yield url, hub
