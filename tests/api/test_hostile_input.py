"""What a hostile or broken client sends: too much, the wrong shape, another site's page.

Every answer is 413, 422 or 403 naming what was wrong (never the input itself), nothing
reaches the match log, and the board and the hub behave alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient
from web_helpers import PIN, logged_in, state, step

from scorekeeper.names import MAX_REASON
from web_common.guards import MAX_BODY

JSON = {"Content-Type": "application/json"}






def log_length(client: TestClient) -> int:
    return len(client.get("/api/match/log").json()["entries"])


# -- size ---------------------------------------------------------------------------------


@pytest.mark.parametrize("app", ["board", "hub"])
def test_a_huge_login_body_gets_413_and_is_not_echoed(
    app: str, client: TestClient, hub_client: TestClient
) -> None:
    c = client if app == "board" else hub_client
    body = b'{"pin": "' + b"9" * 2_000_000 + b'"}'
    response = c.post("/api/referee/login", content=body, headers=JSON)
    assert response.status_code == 413
    assert len(response.content) < 500 and b"999" not in response.content
    assert str(MAX_BODY) in response.json()["detail"][0]["msg"]


def test_a_body_streamed_without_a_length_is_cut_off_at_the_cap(referee: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"seq": 0, "step": {"undo": true}, "x": "'
        for _ in range(100):
            yield b"a" * 1024
        yield b'"}'

    response = referee.post("/api/match/steps", content=chunks(), headers=JSON)
    assert response.status_code == 413


def test_the_hub_answers_413_to_an_oversized_change_and_registers_nobody(
    hub_client: TestClient,
) -> None:
    assert hub_client.post("/api/referee/login", json={"pin": PIN}).status_code == 200
    body = b'{"name": "' + b"A" * (MAX_BODY * 4) + b'"}'

    def chunks() -> Iterator[bytes]:
        yield body[:MAX_BODY]
        yield body[MAX_BODY:]

    sized = hub_client.post("/api/players", content=body, headers=JSON)
    streamed = hub_client.post("/api/players", content=chunks(), headers=JSON)
    for response in (sized, streamed):
        assert response.status_code == 413
        assert len(response.content) < 500 and b"AAA" not in response.content
        assert str(MAX_BODY) in response.json()["detail"][0]["msg"]
    assert hub_client.get("/api/hub").json()["standings"] == []


def test_a_refused_field_is_named_without_repeating_the_input(client: TestClient) -> None:
    response = client.post("/api/referee/login", json={"pin": "7" * 5000})
    assert response.status_code == 422
    assert b"7777" not in response.content
    assert response.json()["field"] == "pin"
    assert response.json()["detail"][0]["loc"] == ["body", "pin"]


def test_a_hub_refusal_does_not_repeat_the_input(hub_client: TestClient) -> None:
    response = hub_client.post("/api/referee/login", json={"pin": ["secret-looking-input"]})
    assert response.status_code == 422 and b"secret-looking" not in response.content


# -- shape --------------------------------------------------------------------------------


def test_a_lone_surrogate_in_a_name_is_422_not_500(referee: TestClient) -> None:
    body = b'{"seq": 0, "names": {"black": "Ann\\ud800", "white": "Bo"}}'
    response = referee.post("/api/match/new", content=body, headers=JSON)
    assert response.status_code == 422
    assert "surrogate" in response.json()["detail"][0]["msg"]
    assert "names.black" in response.json()["detail"][0]["msg"]


def test_invalid_utf8_is_422_with_a_reason(referee: TestClient) -> None:
    response = referee.post("/api/match/undo", content=b'{"seq": 0, "x": "\xff\xfe"}',
                            headers=JSON)
    assert response.status_code == 422
    assert "UTF-8" in response.json()["detail"][0]["msg"]


def test_deep_nesting_is_422_with_a_reason_and_never_reaches_the_rules(
    referee: TestClient,
) -> None:
    deep = '[' * 3000 + ']' * 3000
    body = f'{{"seq": {state(referee)["seq"]}, "step": {deep}}}'.encode()
    response = referee.post("/api/match/steps", content=body, headers=JSON)
    assert response.status_code == 422
    assert "deeper" in response.json()["detail"][0]["msg"]
    modest = '{"a":' * 40 + "1" + "}" * 40
    response = referee.post("/api/match/steps", headers=JSON,
                            content=f'{{"seq": 0, "step": {modest}}}'.encode())
    assert response.status_code == 422 and "deeper" in response.json()["detail"][0]["msg"]
    assert log_length(referee) == 0


@pytest.mark.parametrize(("path", "body", "field"), [
    ("/api/referee/pause", {"paused": "yes"}, "paused"),
    ("/api/referee/pause", {"paused": 1}, "paused"),
    ("/api/match/undo", {"seq": True}, "seq"),
    ("/api/match/undo", {"seq": "0"}, "seq"),
    ("/api/match/new", {"seq": 0, "points_to_win_round": 5.0}, "points_to_win_round"),
])
def test_values_of_the_wrong_type_are_refused_not_coerced(
    referee: TestClient, path: str, body: dict[str, object], field: str
) -> None:
    response = referee.post(path, json=body)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == field


@pytest.mark.parametrize("name", [
    "   ", "Ann\x00", "Ann\x1b[31m", "Ann\u202eknaB", "\u2066Bo", "Ann\nBo",
])
def test_names_with_control_or_direction_characters_or_only_spaces_are_refused(
    referee: TestClient, name: str
) -> None:
    response = referee.post("/api/match/new", json={
        "seq": state(referee)["seq"], "names": {"black": name, "white": "Bo"}})
    assert response.status_code == 422, response.text
    assert response.json()["field"] == "names.black"
    assert state(referee)["names"]["black"] != name


def test_a_name_with_accents_and_emoji_is_kept(referee: TestClient) -> None:
    response = referee.post("/api/match/new", json={
        "seq": state(referee)["seq"], "names": {"black": "Zoë 🎯", "white": "Bo"}})
    assert response.status_code == 200
    assert response.json()["names"]["black"] == "Zoë 🎯"


def test_a_correction_reason_is_limited(referee: TestClient) -> None:
    long = {"correct": {"score": {"black": 1}, "reason": "x" * (MAX_REASON + 1)}}
    response = step(referee, long)
    assert response.status_code == 422 and response.json()["field"] == "correct.reason"
    assert str(MAX_REASON) in response.json()["detail"]
    ok = {"correct": {"score": {"black": 1}, "reason": "x" * MAX_REASON}}
    assert step(referee, ok).status_code == 200


# -- origin -------------------------------------------------------------------------------


def test_a_change_from_another_port_of_the_same_host_is_refused(referee: TestClient) -> None:
    response = referee.post("/api/match/undo", json={"seq": state(referee)["seq"]},
                            headers={"Origin": "http://testserver:9999"})
    assert response.status_code == 403
    assert "another site or port" in response.json()["detail"]
    response = referee.post("/api/referee/pause", json={"paused": True},
                            headers={"Sec-Fetch-Site": "same-site"})
    assert response.status_code == 403
    assert state(referee)["sensing"]["paused"] is False


def test_a_change_from_the_servers_own_page_or_a_program_passes(referee: TestClient) -> None:
    own = referee.post("/api/referee/pause", json={"paused": True},
                       headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"})
    assert own.status_code == 200
    program = referee.post("/api/referee/pause", json={"paused": False})
    assert program.status_code == 200
    assert referee.get("/api/state", headers={"Origin": "http://elsewhere"}).status_code == 200


def test_a_configured_origin_may_change_the_match(make_client: Callable[..., TestClient]) -> None:
    client = logged_in(make_client(allowed_origins=("http://venue-kiosk:8080/",)))
    kiosk = client.post("/api/referee/pause", json={"paused": True},
                        headers={"Origin": "http://venue-kiosk:8080"})
    assert kiosk.status_code == 200, kiosk.text
    assert state(client)["sensing"]["paused"] is True
    other = client.post("/api/referee/pause", json={"paused": False},
                        headers={"Origin": "http://evil:8080"})
    assert other.status_code == 403
    assert "another site or port" in other.json()["detail"]
    assert state(client)["sensing"]["paused"] is True


def test_the_hub_refuses_another_sites_page_too(hub_client: TestClient) -> None:
    response = hub_client.post("/api/referee/login", json={"pin": PIN},
                               headers={"Origin": "http://127.0.0.1:1"})
    assert response.status_code == 403


def test_the_hub_refuses_odd_player_names_and_long_reasons(hub_client: TestClient) -> None:
    assert hub_client.post("/api/referee/login", json={"pin": PIN}).status_code == 200
    for name in ("  ", "Ann\u202e", "A\x07"):
        response = hub_client.post("/api/players", json={"name": name})
        assert response.status_code == 422 and response.json()["field"] == "name"
    response = hub_client.post("/api/boards/b1/command", json={
        "kind": "correct", "correct": {"score": {"black": 1}, "reason": "x" * 501}})
    assert response.status_code == 422 and "500" in response.json()["detail"][0]["msg"]


def test_broken_json_is_422_naming_the_body_and_where_it_broke(referee: TestClient) -> None:
    response = referee.post("/api/match/undo", content=b'{"seq": 0,', headers=JSON)
    assert response.status_code == 422
    assert response.json()["field"] == "body"
    assert response.json()["detail"][0]["msg"].startswith("JSON decode error: ")
