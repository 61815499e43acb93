"""The tournament referee at the hub corrects a board; the board's answer shows on the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mqtt_broker import Broker, broker_fixture
from mqtt_sim import FAST_RECONNECT, SimBoard, wait_until

from hub.app import Hub, create_hub_app
from hub.link import HubLink
from hub.store import HubStore
from hub.tournament import Tournament
from hub.wake import Wake
from scorekeeper.clock import FakeClock
from tournament_wire.wire import settings_from_url
from web_common.pin import PinStore

pytestmark = pytest.mark.mqtt


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from broker_fixture(tmp_path)


@pytest.fixture
def hub_and_board(tmp_path: Path, broker: Broker) -> Iterator[tuple[TestClient, SimBoard]]:
    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    pins = PinStore(tmp_path / "pin")
    pins.set("2468")
    wake = Wake()
    link = HubLink(settings_from_url(broker.url), tournament, on_change=wake,
                   reconnect_delay=FAST_RECONNECT)
    hub = Hub(tournament, link, pins, clock, wake)
    board = SimBoard("table-3", tmp_path, settings_from_url(broker.url))
    try:
        link.start()
        board.link.start()
        with TestClient(create_hub_app(hub)) as client:
            assert client.post("/api/referee/login", json={"pin": "2468"}).status_code == 200
            yield client, board
    finally:
        board.close()
        link.stop()
        tournament.store.close()


def board_view(client: TestClient, board: str) -> dict[str, Any]:
    """The hub's card for ``board``; empty until the board's first message has arrived."""
    boards = client.get("/api/hub").json()["boards"]
    return next((b for b in boards if b["board"] == board), {})


def test_a_correction_from_the_hub_is_applied_by_the_board_and_its_answer_shown(
    hub_and_board: tuple[TestClient, SimBoard],
) -> None:
    client, board = hub_and_board
    match_id = board.new_match({"black": "Ann", "white": "Bob"}, [("black", 2)] * 3)
    for _ in range(2):
        board.play_next()
    wait_until(lambda: board_view(client, "table-3").get("seq") == 2, what="the board's state")
    response = client.post("/api/boards/table-3/command", json={
        "kind": "correct", "match_id": match_id, "seq": 2,
        "correct": {"score": {"black": 3, "white": 1}, "reason": "missed point"},
    })
    assert response.status_code == 202
    wait_until(lambda: (board_view(client, "table-3").get("last_command") or {}).get("result"),
               what="the board's answer")
    view = board_view(client, "table-3")
    assert view["last_command"]["result"]["ok"] is True
    assert board.match is not None and dict(board.match.state.score) == {"black": 3, "white": 1}
    wait_until(lambda: board_view(client, "table-3").get("score") == {"black": 3, "white": 1},
               what="the corrected score on the page")


def refused_correction(client: TestClient, board: SimBoard) -> tuple[int, dict[str, Any]]:
    """A correction beyond R19's limits sent from the hub: the match and the board's answer."""
    match_id = board.new_match({"black": "Ann", "white": "Bob"}, [("black", 2)] * 3)
    board.play_next()
    wait_until(lambda: board_view(client, "table-3").get("seq") == 1, what="the board's state")
    client.post("/api/boards/table-3/command", json={
        "kind": "correct", "match_id": match_id,
        "correct": {"score": {"black": 5}, "reason": "too much"},
    })
    wait_until(lambda: (board_view(client, "table-3").get("last_command") or {}).get("result"),
               what="the board's answer")
    return match_id, board_view(client, "table-3")["last_command"]["result"]


def test_a_correction_the_board_refuses_shows_the_boards_reason(
    hub_and_board: tuple[TestClient, SimBoard],
) -> None:
    client, board = hub_and_board
    match_id, result = refused_correction(client, board)
    assert result["ok"] is False and "R19" in result["message"]
    assert board.store.event_count(match_id) == 1  # nothing was recorded


def test_a_refusal_the_board_sends_as_data_is_worded_in_german_on_the_hub(
    hub_and_board: tuple[TestClient, SimBoard],
) -> None:
    client, board = hub_and_board
    refused_correction(client, board)
    boards = client.get("/api/hub", headers={"Accept-Language": "de"}).json()["boards"]
    result = next(b for b in boards if b["board"] == "table-3")["last_command"]["result"]
    assert result["ok"] is False and "R19" in result["message"]  # the English as sent
    assert result["message_in"]["de"] == ("Nicht möglich: der Stand 5 von Ann liegt außerhalb "
                                          "von -1..4 (ein Stand von 5 beendet die Runde) (R19)")
