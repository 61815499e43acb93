"""The hub shows the registered players' ratings: the same openskill figures as a board's
/stats for the same games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from hub.app import Hub, create_hub_app
from hub.model import GameResult
from hub.store import HubStore, StoredGame
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from scorekeeper.ratings import Result, rate
from web_common.pin import PinStore


class FakeSender:
    """Stands in for the MQTT link (the ratings send nothing)."""

    connected = True

    def problems(self) -> list[str]:
        return []

    def send_command(self, board: str, kind: str, **kw: Any) -> str:
        raise AssertionError("the ratings send no command")


def test_registered_players_are_rated_from_the_hubs_games(tmp_path: Path) -> None:
    clock = FakeClock(1_700_000_000.0)
    store = HubStore(tmp_path / "hub.db")
    try:
        tournament = Tournament(store, clock)
        for name in ("Ann", "Bo", "Cy"):
            tournament.add_player(name)
        games = [GameResult("Ann", "Bo", "Ann", 2, 0, 4, 1),
                 GameResult("bo", "Ann", "bo", 2, 1, 5, 3)]
        for i, g in enumerate(games, 1):
            store.save_game(StoredGame("b1", i, 10, g, 1000.0 + i, None, None))
        pins = PinStore(tmp_path / "pin")
        with TestClient(create_hub_app(Hub(tournament, FakeSender(), pins, clock))) as client:
            rows = client.get("/api/ratings").json()
            page = client.get("/").text
            script = client.get("/static/hub.js").text
    finally:
        store.close()
    expected, _ = rate([Result("Ann", "Bo", "Ann"), Result("bo", "Ann", "bo")])
    assert rows == [
        {"player": "Bo", "rating": round(expected["bo"].ordinal, 2), "games": 2},
        {"player": "Ann", "rating": round(expected["ann"].ordinal, 2), "games": 2},
        {"player": "Cy", "rating": None, "games": 0},
    ]
    # the page's table, filled by the ratings module its one script imports
    assert '<table id="ratings">' in page and '<script type="module" src="/static/hub.js">' in page
    assert 'import { followRatings } from "./hub-ratings.js";' in script
