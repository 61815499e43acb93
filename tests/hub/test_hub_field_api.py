"""The field's API: late entries, drops, swaps and the knockout, as the hub referee uses
them; each needs the referee, a reason and the version the referee saw."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hub_support import play_round
from test_hub_app import PIN, FakeSender, pins  # noqa: F401  (the module's PIN fixture)

from hub.app import Hub, create_hub_app
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from web_common.pin import PinStore


@pytest.fixture
def hub(tmp_path: Path, pins: PinStore) -> Iterator[Hub]:  # noqa: F811
    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    try:
        yield Hub(tournament, FakeSender(), pins, clock)
    finally:
        tournament.store.close()


@pytest.fixture
def referee(hub: Hub) -> Iterator[TestClient]:
    with TestClient(create_hub_app(hub)) as c:
        assert c.post("/api/referee/login", json={"pin": PIN}).status_code == 200
        yield c


def field_seq(c: TestClient) -> int:
    return int(c.get("/api/hub").json()["field_seq"])


def six_players_paired(c: TestClient, hub: Hub) -> None:
    assert c.post("/api/system", json={"system": "swiss", "seq": field_seq(c)}).status_code == 200
    for name in ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay"):
        assert c.post("/api/players", json={"name": name}).status_code == 200
    assert c.post("/api/swiss-rounds",
                  json={"count": 2, "seq": field_seq(c)}).status_code == 200
    assert c.post("/api/rounds", json={"seq": field_seq(c)}).status_code == 200
    play_round(hub.tournament)


def test_changes_need_the_referee(hub: Hub) -> None:
    with TestClient(create_hub_app(hub)) as c:
        r = c.post("/api/late-entries", json={"name": "Gus", "credit": "bye",
                                               "reason": "late", "seq": 0})
        assert r.status_code == 401


def test_a_late_entry_and_a_drop_show_in_the_standings_and_the_log(
        referee: TestClient, hub: Hub) -> None:
    six_players_paired(referee, hub)
    r = referee.post("/api/late-entries", json={"name": "gus", "credit": "bye",
                                                "reason": "train late", "seq": field_seq(referee)})
    assert r.status_code == 200, r.text
    assert r.json()["done"] == "gus entered late, with a bye in round 1"
    r = referee.post("/api/players/Fay/drop", json={"reason": "ill", "seq": field_seq(referee)})
    assert r.status_code == 200, r.text
    state = referee.get("/api/hub").json()
    assert state["dropped"] == ["Fay"]
    line = next(s for s in state["standings"] if s["player"] == "Fay")
    assert line["dropped"] is True and "buchholz" in line
    assert [c["reason"] for c in state["field_changes"][-2:]] == ["train late", "ill"]


def test_a_stale_change_gets_409_with_what_changed(referee: TestClient, hub: Hub) -> None:
    six_players_paired(referee, hub)
    seen = field_seq(referee)
    assert referee.post("/api/players/Fay/drop",
                        json={"reason": "ill", "seq": seen}).status_code == 200
    r = referee.post("/api/players/Eve/drop", json={"reason": "ill", "seq": seen})
    assert r.status_code == 409
    assert "Fay dropped out after round 1" in r.json()["detail"]


def test_a_refused_swap_says_why_in_words(referee: TestClient, hub: Hub) -> None:
    six_players_paired(referee, hub)
    r = referee.post("/api/rounds/1/swap", json={"first": "Ann", "second": "Zed",
                                                 "reason": "x", "seq": field_seq(referee)})
    assert r.status_code == 422
    assert "Zed is not paired in this round" in r.json()["detail"]


def test_a_swap_before_the_round_starts(referee: TestClient, hub: Hub) -> None:
    six_players_paired(referee, hub)
    assert referee.post("/api/rounds", json={"seq": field_seq(referee)}).status_code == 200
    round2 = hub.tournament.store.pairings(2)
    a, b = round2[0].white, round2[1].white
    r = referee.post("/api/rounds/2/swap", json={"first": a, "second": b, "reason": "asked",
                                                 "accept_rematch": True,
                                                 "seq": field_seq(referee)})
    assert r.status_code == 200, r.text
    assert hub.tournament.store.pairings(2)[0].white == b


def test_the_knockout_starts_from_the_api_and_the_bracket_reads_back(
        referee: TestClient, hub: Hub) -> None:
    six_players_paired(referee, hub)
    r = referee.post("/api/knockout", json={"size": 4, "seq": field_seq(referee)})
    assert r.status_code == 422
    assert "the Swiss rounds are not over (1 of 2 played)" in r.json()["detail"]
    assert referee.post("/api/rounds", json={"seq": field_seq(referee)}).status_code == 200
    play_round(hub.tournament)
    r = referee.post("/api/knockout", json={"size": 4, "third_place": True,
                                            "seq": field_seq(referee)})
    assert r.status_code == 200, r.text
    bracket = referee.get("/api/bracket").json()
    assert [s["name"] for s in bracket["stages"]] == ["Semi-finals", "Final"]
    assert referee.get("/bracket").status_code == 200
    assert referee.post("/api/knockout", json={"size": 3, "seq": 0}).status_code == 422
