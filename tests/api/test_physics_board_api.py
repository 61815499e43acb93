"""The physics board served: a flick from the virtual board rolls in and is scored once still."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from physics_flicks import landing_flick
from serve_proc import ServeProcess
from waiting import wait_until
from web_helpers import logged_in, run_for, state

from firmware_bridge.profile import load_profile
from scorekeeper.clock import FakeClock

PROFILE = load_profile()


@pytest.fixture
def physics(make_client: Callable[..., TestClient]) -> TestClient:
    return logged_in(make_client(source="physics"))


def bigs_placed(client: TestClient, clock: FakeClock) -> None:
    run_for(client, clock, 0.5)
    for player in ("black", "white"):
        assert client.post("/api/board/big", json={"player": player, "on": True}).is_success
        run_for(client, clock, 0.5)
    assert state(client)["log_length"] == 2


def test_a_flick_rolls_over_the_cells_and_is_scored_once_the_board_is_still(
        physics: TestClient, fake_clock: FakeClock) -> None:
    bigs_placed(physics, fake_clock)
    speed, angle, field = landing_flick(PROFILE, "black")
    answer = physics.post("/api/board/flick",
                          json={"player": "black", "speed": speed, "angle": angle})
    assert answer.status_code == 200, answer.text
    assert answer.json()["virtual"]["flick"]["rolling"] is True
    seen = []
    while state(physics)["virtual"]["flick"]["rolling"]:
        run_for(physics, fake_clock, 0.02)
        seen.append(state(physics)["virtual"]["counts"])
    assert any(c[field] == 0 for c in seen) and seen[-1][field] == 1  # it rolled in
    assert state(physics)["log_length"] == 2  # not scored while it moved
    run_for(physics, fake_clock, 0.5)
    body = state(physics)
    assert body["log_length"] == 3
    assert body["log"][-1]["source"] == "sensor"
    assert body["log"][-1]["step"] == {"shot": {"by": "black", "delta": {field: 1}}}
    assert body["state"]["turn"] == "white"


def test_a_second_flick_while_a_skitt_rolls_is_refused_in_words(
        physics: TestClient, fake_clock: FakeClock) -> None:
    bigs_placed(physics, fake_clock)
    body = {"player": "black", "speed": 900.0, "angle": 0.0}
    assert physics.post("/api/board/flick", json=body).status_code == 200
    again = physics.post("/api/board/flick", json=body)
    assert again.status_code == 422, again.text
    assert "still rolling" in again.json()["message"]


def test_a_flick_on_the_plain_simulated_board_says_it_needs_the_physics_board(
        referee: TestClient) -> None:
    answer = referee.post("/api/board/flick", json={"player": "black", "speed": 500.0})
    assert answer.status_code == 422, answer.text
    assert "--board physics" in answer.json()["message"]
    assert referee.get("/api/state").json()["virtual"]["flick"] is None


@pytest.mark.parametrize("body", [
    {"player": "black", "speed": 5000.0}, {"player": "black", "speed": 500.0, "angle": 90.0},
    {"player": "green", "speed": 500.0}, {"player": "black", "speed": "fast"},
])
def test_a_flick_out_of_range_is_refused_before_it_reaches_the_board(
        physics: TestClient, body: dict) -> None:
    answer = physics.post("/api/board/flick", json=body)
    assert answer.status_code == 422, answer.text
    assert state(physics)["virtual"]["flick"]["rolling"] is False


def test_skitter_serve_board_physics_scores_a_flicked_shot(tmp_path: Path) -> None:
    with ServeProcess(tmp_path, "--board", "physics") as served:
        served.login()
        # the board is read once at rest before anything lands (a skitt placed before the
        # first reading is a change made before sensing began: the referee's to decide)
        wait_until(lambda: served.get("/api/state")["tracker"]["mode"] == "ready",
                   "the board read at rest")
        served.post("/api/board/big", {"player": "black", "on": True})
        wait_until(lambda: served.get("/api/state")["log_length"] == 1, "black's big skitt")
        served.post("/api/board/big", {"player": "white", "on": True})
        wait_until(lambda: served.get("/api/state")["log_length"] == 2, "white's big skitt")
        speed, angle, field = landing_flick(PROFILE, "black")
        served.post("/api/board/flick", {"player": "black", "speed": speed, "angle": angle})
        body = wait_until(lambda: (s := served.get("/api/state"))["log_length"] == 3 and s,
                          "the flicked shot", timeout=10)
        assert body["log"][-1]["step"] == {"shot": {"by": "black", "delta": {field: 1}}}
        assert body["state"]["turn"] == "white"
        out = served.stop()
    assert "sensors: physics (simulated board" in out
