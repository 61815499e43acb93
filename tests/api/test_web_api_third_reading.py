"""What a referee could not enter before the third reading of the rulebook, through the API:
every shooting line the engine knows, Handicap 2 as finger and hand, two big skitts knocked
loose by one shot, a correction of a big skitt; and old match logs that still load."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import PIN, place_bigs, state, step

from scorekeeper.options import FINGERS, HANDS, SHOOTING_LINES
from scorekeeper.store import MatchStore


def new_match(client: TestClient, **body: object):
    return client.post("/api/match/new", json={"seq": state(client)["seq"], **body})


@pytest.mark.parametrize("line", SHOOTING_LINES)
def test_every_shooting_line_of_the_engine_is_taken_by_the_api(referee: TestClient,
                                                               line: str) -> None:
    response = new_match(referee, handicaps={"black": {"line": line}}, first="black")
    assert response.status_code == 200, response.text
    assert response.json()["handicaps"]["black"]["line"] == line


def test_the_api_offers_exactly_the_engines_lists(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    props = schemas["Handicap"]["properties"]
    assert tuple(props["line"]["enum"]) == SHOOTING_LINES
    assert tuple(props["finger"]["enum"]) == FINGERS
    assert tuple(props["hand"]["enum"]) == HANDS
    assert props["line"]["default"] == "standard"


def test_handicap_2_records_finger_and_hand_apart(referee: TestClient) -> None:
    response = new_match(referee, first="black", handicaps={
        "black": {"finger": "different"},
        "white": {"line": "beginner", "finger": "different", "hand": "non-dominant"}})
    assert response.status_code == 200, response.text
    assert response.json()["handicaps"] == {
        "black": {"line": "standard", "finger": "different", "hand": "dominant"},
        "white": {"line": "beginner", "finger": "different", "hand": "non-dominant"}}


def test_a_handicap_outside_the_lists_is_422_naming_it(referee: TestClient) -> None:
    before = state(referee)["match_id"]
    response = new_match(referee, handicaps={"white": {"hand": "hand"}})
    assert response.status_code == 422
    assert "hand" in response.text
    assert state(referee)["match_id"] == before


def test_two_big_skitts_knocked_loose_are_amended_onto_the_last_shot(referee: TestClient) -> None:
    place_bigs(referee)
    assert step(referee, {"shot": {"by": "black", "delta": {"white.red": 1}}}).status_code == 200
    response = referee.post("/api/match/amend", json={
        "seq": state(referee)["seq"], "knocked_big": ["loose", "white.blue"]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["last_step"]["step"]["shot"]["knocked_big"] == ["loose", "white.blue"]
    assert body["state"]["big"] == {"black": "hand", "white": "center"}
    assert body["state"]["board"]["black.blue"] == 1  # white's gift skitt
    three = referee.post("/api/match/amend", json={
        "seq": state(referee)["seq"], "knocked_big": ["loose", "loose", "loose"]})
    assert three.status_code == 422 and three.json()["field"].startswith("knocked_big")


def test_a_correction_sets_a_big_skitt(referee: TestClient) -> None:
    place_bigs(referee)
    response = step(referee, {"correct": {"big": {"black": "hand"},
                                          "reason": "Ann's big skitt lies on a field"}})
    assert response.status_code == 200, response.text
    assert response.json()["state"]["big"] == {"black": "hand", "white": "center"}
    assert response.json()["state"]["must_place_big"] is True


def test_an_old_log_with_old_handicaps_still_loads(make_client: Callable[..., TestClient],
                                                   tmp_path: Path) -> None:
    """A match stored before these changes: one loose big skitt written as a string, and
    handicaps written as line + "finger"/"hand"."""
    with MatchStore(tmp_path / "skitter.db") as store:
        m = store.create_match({}, {"first": "black"}, {"black": "Ann", "white": "Bo"}, at=0.0,
                               meta={"handicaps": {"black": {"line": "semicircle",
                                                             "hand": "finger"},
                                                   "white": {"line": "beginner",
                                                             "hand": "hand"}}})
        for i, s in enumerate([{"shot": {"by": "black", "big": "placed"}},
                               {"shot": {"by": "white", "big": "placed"}},
                               {"shot": {"by": "black", "delta": {"white.red": 1},
                                         "knocked_big": "white.blue"}}]):
            store.append(m, s, at=1.0 + i)
    client = make_client()
    body = state(client)
    assert body["state"]["big"] == {"black": "hand", "white": "center"}
    assert body["state"]["board"]["black.blue"] == 1
    assert body["last_step"]["step"]["shot"]["knocked_big"] == "white.blue"
    assert body["handicaps"] == {
        "black": {"line": "semicircle", "finger": "usual", "hand": "dominant"},
        "white": {"line": "beginner", "finger": "usual", "hand": "non-dominant"}}
    assert client.post("/api/referee/login", json={"pin": PIN}).status_code == 200
    assert step(client, {"shot": {"by": "white", "delta": {}}}).status_code == 200


def test_the_tablets_new_match_form_offers_exactly_the_engines_lists() -> None:
    """The tablet's choices are written in its page; they must be the engine's lists."""
    import re

    page = (Path(__file__).parents[2] / "web" / "static" / "tablet.html").read_text()
    for player in ("black", "white"):
        for name, allowed in (("line", SHOOTING_LINES), ("finger", FINGERS), ("hand", HANDS)):
            select = re.search(rf'<select name="{player}_{name}">(.*?)</select>', page, re.S)
            assert select, f"{player}_{name}"
            assert tuple(re.findall(r'value="([^"]+)"', select.group(1))) == allowed
