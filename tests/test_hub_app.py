"""The hub's page and API: open to read, the tournament referee's PIN to change anything."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hub_support import play_game

from scorekeeper.clock import FakeClock
from web.config.pin import PinStore
from web.tournament.hub.app import STATIC, Hub, create_hub_app
from web.tournament.hub.store import HubStore
from web.tournament.hub.tournament import Tournament

PIN = "4321"


class FakeSender:
    """Stands in for the MQTT link: records what would be published."""

    def __init__(self) -> None:
        self.connected = True
        self.sent: list[dict[str, Any]] = []
        self.broken: list[str] = []

    def problems(self) -> list[str]:
        return list(self.broken)

    def send_command(self, board: str, kind: str, **kw: Any) -> str:
        self.sent.append({"board": board, "kind": kind, **kw})
        return f"cmd-{len(self.sent)}"


@pytest.fixture(scope="module")
def pins(tmp_path_factory: pytest.TempPathFactory) -> PinStore:
    store = PinStore(tmp_path_factory.mktemp("pin"))
    store.set(PIN)
    return store


@pytest.fixture
def hub(tmp_path: Path, pins: PinStore) -> Iterator[Hub]:
    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    try:
        yield Hub(tournament, FakeSender(), pins, clock)
    finally:
        tournament.store.close()


@pytest.fixture
def client(hub: Hub) -> Iterator[TestClient]:
    with TestClient(create_hub_app(hub)) as c:
        yield c


@pytest.fixture
def referee(client: TestClient) -> TestClient:
    assert client.post("/api/referee/login", json={"pin": PIN}).status_code == 200
    return client


def board_online(hub: Hub, board: str, match_id: int = 1, seq: int = 3) -> None:
    store = hub.tournament.store
    store.set_board_status(board, True, at=1.0)
    store.set_board_state(board, {"match_id": match_id, "seq": seq, "names": {},
                                  "state": {"phase": "playing"}}, at=1.0)


def test_the_page_and_its_files_come_from_the_hub_itself(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert '<script src="/static/hub.js">' in page.text
    for name in ("index.html", "hub.js", "hub.css"):
        text = (STATIC / name).read_text()
        assert "http://" not in text and "https://" not in text, name
    assert client.get("/static/hub.js").status_code == 200


def test_anyone_may_read_the_tournament(client: TestClient) -> None:
    body = client.get("/api/hub").json()
    assert body["standings"] == [] and body["boards"] == [] and body["broker_connected"]


def test_registering_a_player_needs_the_referee(client: TestClient) -> None:
    response = client.post("/api/players", json={"name": "Ann"})
    assert response.status_code == 401


def test_the_pin_buys_an_httponly_strict_cookie(client: TestClient) -> None:
    response = client.post("/api/referee/login", json={"pin": PIN})
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie
    assert client.get("/api/referee/session").json() == {"referee": True}


def test_a_wrong_pin_is_refused_then_slowed_down(client: TestClient) -> None:
    assert client.post("/api/referee/login", json={"pin": "0000"}).status_code == 401
    again = client.post("/api/referee/login", json={"pin": PIN})
    assert again.status_code == 429 and again.headers["retry-after"] == "1"


def test_the_referee_registers_players_and_pairs_the_first_round(referee: TestClient) -> None:
    for name in ("Ann", "Bob", "Cid"):
        assert referee.post("/api/players", json={"name": name}).status_code == 200
    assert referee.post("/api/rounds").json() == {"round": 1, "pairings": 2}
    body = referee.get("/api/hub").json()
    (first,) = body["rounds"]
    assert body["system"] == "round_robin" and body["planned_rounds"] == 3
    assert [p["bye"] for p in first["pairings"]] == [False, True]
    assert body["next_round_blocked"] == "round 1 still has games without a result"
    assert referee.post("/api/rounds").status_code == 409


def test_a_duplicate_player_is_refused_with_the_reason(referee: TestClient) -> None:
    referee.post("/api/players", json={"name": "Ann"})
    response = referee.post("/api/players", json={"name": "Ann"})
    assert response.status_code == 422
    assert "already registered" in response.json()["detail"]


def test_a_game_can_be_put_on_a_board(referee: TestClient, hub: Hub) -> None:
    for name in ("Ann", "Bob"):
        referee.post("/api/players", json={"name": name})
    referee.post("/api/rounds")
    response = referee.post("/api/rounds/1/tables/1/board", json={"board": "board-7"})
    assert response.status_code == 200
    assert hub.tournament.store.pairings(1)[0].board == "board-7"
    bad = referee.post("/api/rounds/1/tables/1/board", json={"board": "no such/board"})
    assert bad.status_code == 422


def test_a_command_goes_to_an_online_board(referee: TestClient, hub: Hub) -> None:
    board_online(hub, "board-1")
    response = referee.post("/api/boards/board-1/command",
                            json={"kind": "undo", "match_id": 1, "seq": 3})
    assert response.status_code == 202
    assert hub.sender.sent == [  # type: ignore[attr-defined]
        {"board": "board-1", "kind": "undo", "match_id": 1, "correct": None, "seq": 3}
    ]


def test_a_correction_is_checked_before_it_is_sent(referee: TestClient, hub: Hub) -> None:
    board_online(hub, "board-1")
    bad = referee.post("/api/boards/board-1/command",
                       json={"kind": "correct", "correct": {"score": {"green": 2}}})
    assert bad.status_code == 422
    empty = referee.post("/api/boards/board-1/command",
                         json={"kind": "correct", "correct": {"reason": "nothing"}})
    assert empty.status_code == 422
    assert hub.sender.sent == []  # type: ignore[attr-defined]


def test_a_deeply_nested_correction_is_a_422_naming_the_depth(referee: TestClient,
                                                              hub: Hub) -> None:
    board_online(hub, "board-1")
    deep = "[" * 1000 + "]" * 5000
    response = referee.post("/api/boards/board-1/command",
                            content='{"kind": "correct", "correct": {"reason": ' + deep + "}}",
                            headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert "16 levels" in response.text and "[[[[" not in response.text
    assert hub.sender.sent == []  # type: ignore[attr-defined]


def test_no_command_to_an_unknown_or_offline_board(referee: TestClient, hub: Hub) -> None:
    assert referee.post("/api/boards/ghost/command", json={"kind": "undo"}).status_code == 404
    board_online(hub, "board-2")
    hub.tournament.store.set_board_status("board-2", False, at=2.0)
    assert referee.post("/api/boards/board-2/command", json={"kind": "undo"}).status_code == 409


def test_a_finished_matchs_log_is_served(client: TestClient, hub: Hub) -> None:
    t = hub.tournament
    t.add_player("Ann")
    t.add_player("Bob")
    t.pair_next_round(["b1"])
    play_game(t, "b1", 1, ("Ann", "Bob"), black_wins=True)
    log = client.get("/api/matches/b1/1").json()
    assert log["complete"] and log["counted"] and log["result"]["winner"] == "Ann"
    assert log["events"][3]["effects"][0].startswith("Ann +1")  # in the players' names
    assert log["events"][0]["text"] == "Ann's shot"
    assert log["events"][0]["event"] == {"shot": {"by": "black", "delta": {}}}  # the raw step
    assert client.get("/api/matches/b1/2").status_code == 404
    # the same game reported by a board it is not paired to: shown, but not counted
    play_game(t, "b2", 1, ("Ann", "Bob"), black_wins=False)
    other = client.get("/api/matches/b2/1").json()
    assert other["result"]["winner"] == "Bob" and other["counted"] is False


def test_the_live_socket_starts_with_the_whole_tournament(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        snapshot = ws.receive_json()
    assert {"boards", "standings", "rounds", "games"} <= snapshot.keys()


def test_health_says_when_the_broker_is_unreachable(client: TestClient, hub: Hub) -> None:
    assert client.get("/healthz").status_code == 200
    hub.sender.connected = False
    response = client.get("/healthz")
    assert response.status_code == 503 and response.json()["broker"] == "not connected"
