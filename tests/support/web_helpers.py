"""Small helpers for the web tests: run the polling loop on the fake clock, take steps."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from scorekeeper.clock import FakeClock

PIN = "2468"
"""The referee PIN the test fixtures set."""


def logged_in(client: TestClient) -> TestClient:
    """``client``, logged in as the referee with :data:`PIN`."""
    response = client.post("/api/referee/login", json={"pin": PIN})
    assert response.status_code == 200, response.text
    return client


def run_for(client: TestClient, clock: FakeClock, seconds: float = 0.5, step: float = 0.02) -> None:
    """Advance the fake clock ``seconds``, one polling step every ``step`` (on the app's loop)."""
    table = client.app.state.table  # type: ignore[attr-defined]
    for _ in range(round(seconds / step)):
        clock.advance(step)
        client.portal.call(table.tick)  # type: ignore[union-attr]


def state(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/state")
    assert response.status_code == 200
    return response.json()  # type: ignore[no-any-return]


def bigs_sensed(client: TestClient, clock: FakeClock) -> None:
    """Both big skitts placed on the simulated board, each sensed (and settled) in turn."""
    for player in ("black", "white"):
        client.post("/api/board/big", json={"player": player, "on": True})
        run_for(client, clock, 0.5)


def two_skitts_sensed_at_once(client: TestClient, clock: FakeClock) -> dict[str, Any]:
    """On the simulated board: both big skitts placed, then two skitts land on the second
    player's red at once, more than one shot can add (R2), so the rules refuse the shot and it
    goes to the referee. The state after."""
    bigs_sensed(client, clock)
    for _ in range(2):
        client.post("/api/board/place", json={"field": "white.red"})
    run_for(client, clock, 0.5)
    return state(client)


def step(client: TestClient, body: dict[str, Any], seq: int | None = None) -> Any:
    """POST one scenario step against the current (or given) ``seq``."""
    if seq is None:
        seq = state(client)["seq"]
    return client.post("/api/match/steps", json={"seq": seq, "step": body})


def place_bigs(client: TestClient) -> None:
    """Both players place their big skitts (black starts in the default match)."""
    for by in ("black", "white"):
        response = step(client, {"shot": {"by": by, "big": "placed"}})
        assert response.status_code == 200, response.text
