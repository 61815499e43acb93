"""Issue 22, item 9: a review says when the rules ruled the shot invalid, and its frames
carry the bridges a chain lay on, so the review board (and its TV mirror) can draw them."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import run_for, state, step

from scorekeeper.clock import FakeClock


def _ready(client: TestClient, clock: FakeClock) -> None:
    r = client.post("/api/match/new", json={
        "seq": state(client)["seq"], "first": "black", "names": {"black": "Ann", "white": "Bo"}})
    assert r.status_code == 200, r.text
    run_for(client, clock, 1.0)
    for player in ("black", "white"):
        assert client.post("/api/board/big", json={"player": player, "on": True}).status_code == 200
        run_for(client, clock, 1.0)


def test_the_review_of_a_shot_ruled_invalid_says_so(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    _ready(referee, fake_clock)
    step(referee, {"correct": {"board": {"black.red": 2}, "reason": "set-up"}})
    assert referee.post("/api/board/lay-out", json={"seq": state(referee)["seq"]}).is_success
    run_for(referee, fake_clock, 1.0)
    assert state(referee)["tracker"]["mode"] == "ready"
    # Ann takes a skitt off her own red: the rules void the shot (R8)
    referee.post("/api/board/remove", json={"field": "black.red"})
    run_for(referee, fake_clock, 1.0)
    last = state(referee)["last_step"]
    assert last["source"] == "sensor"
    assert any(e["kind"] == "invalid" for e in last["effects"])
    review = referee.get(f"/api/match/log/{last['seq']}/review").json()
    assert "ruled invalid" in review["ruling"]
    assert "Ann's red" in review["ruling"] and "black" not in review["ruling"]


def test_the_review_frames_carry_the_bridges_of_a_chain(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    _ready(referee, fake_clock)
    referee.post("/api/board/bridge", json={"fields": ["white.red", "white.yellow"], "on": True})
    run_for(referee, fake_clock, 1.0)
    last = state(referee)["last_step"]
    assert last["step"]["shot"].get("chain") == ["white.red", "white.yellow"], \
        state(referee)["tracker"]
    review = referee.get(f"/api/match/log/{last['seq']}/review").json()
    assert ["white.red", "white.yellow"] in review["bridges"]
    assert review["frames"][0]["bridges"] == []
    assert any(f["bridges"] == [["white.red", "white.yellow"]] for f in review["frames"])
