"""The hub goes on answering while a big Swiss round is paired (the pairing is off the loop).

Pairing 256 players runs in a worker thread; were it on the event loop, ``/healthz`` and
``/api/hub`` would wait for it. The pairing is held by injection until the test has had its
answers, so this does not depend on how fast the machine pairs.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from stall_rig import WAIT_S, answered, in_thread

from hub import tournament as tournament_module
from hub.app import Hub, create_hub_app
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from web_common.pin import PinStore

PIN = "4321"
PLAYERS = 256
HELD = "no answer while the round was being paired"


class Sender:
    connected = True

    def problems(self) -> list[str]:
        return []

    def send_command(self, *a: object, **kw: object) -> str:
        return "cmd"


@pytest.fixture
def hub_referee(tmp_path: Path) -> Iterator[TestClient]:
    clock = FakeClock(1_700_000_000.0)
    pins = PinStore(tmp_path / "pin")
    pins.set(PIN)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    for i in range(PLAYERS):
        tournament.add_player(f"Player {i:03d}")
    try:
        with TestClient(create_hub_app(Hub(tournament, Sender(), pins, clock))) as hub_client:
            assert hub_client.post("/api/referee/login", json={"pin": PIN}).status_code == 200
            yield hub_client
    finally:
        tournament.store.close()


def test_health_and_the_tournament_answer_while_a_big_swiss_round_is_paired(
    hub_referee: TestClient, monkeypatch: pytest.MonkeyPatch,
) -> None:
    pairing, release = threading.Event(), threading.Event()
    real_swiss = tournament_module.swiss

    def held_swiss(*args: Any) -> Any:
        pairing.set()
        release.wait(60)
        return real_swiss(*args)

    monkeypatch.setattr(tournament_module, "swiss", held_swiss)
    assert hub_referee.get("/api/hub").json()["system"] == "swiss"
    seen = hub_referee.get("/api/hub").json()["field_seq"]
    try:
        poster, posted = in_thread(lambda: hub_referee.post("/api/rounds", json={"seq": seen}))
        assert pairing.wait(WAIT_S), "the pairing did not start"
        health = answered(lambda: hub_referee.get("/healthz"), HELD)
        shown = answered(lambda: hub_referee.get("/api/hub"), HELD)
        assert health.status_code == 200
        assert shown.status_code == 200 and shown.json()["rounds"] == []
    finally:
        release.set()
    poster.join(WAIT_S * 6)
    assert not poster.is_alive()
    assert posted["result"].json() == {"round": 1, "pairings": PLAYERS // 2}
