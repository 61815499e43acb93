"""The JSON API: reading is open, changes need the referee, stale or invalid changes log nothing."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from web_helpers import PIN, place_bigs, state, step


def log_length(client: TestClient) -> int:
    return state(client)["log_length"]


def test_state_is_open_to_every_reader(client: TestClient) -> None:
    body = state(client)
    assert body["seq"] >= 1
    assert body["state"]["turn"] == "black"
    assert body["names"] == {"black": "First player", "white": "Second player"}
    assert body["given_names"] == {"black": "", "white": ""}
    assert {"tracker", "link", "sensors", "alerts", "log"} <= set(body)


def test_change_without_referee_session_gets_401(client: TestClient) -> None:
    response = step(client, {"shot": {"by": "black", "big": "placed"}})
    assert response.status_code == 401
    assert log_length(client) == 0


def test_virtual_board_tap_without_session_gets_401(client: TestClient) -> None:
    assert client.post("/api/board/place", json={"field": "white.red"}).status_code == 401


def test_a_full_field_keeps_taking_skitts_its_sensors_cannot_count(referee: TestClient) -> None:
    """Issue 24: the virtual board accepts a skitt beyond a field's capacity, as a real
    field does; its cells stay at the capacity."""
    for _ in range(15):
        assert referee.post("/api/board/place", json={"field": "white.red"}).status_code == 200
    virtual = referee.get("/api/board").json()["virtual"]
    assert virtual["counts"]["white.red"] == 15
    assert virtual["sensed"]["white.red"] == 14
    assert virtual["over"] == {"white.red": 1}


def test_a_refused_tap_is_explained_in_the_players_words(referee: TestClient) -> None:
    response = referee.post("/api/board/remove", json={"field": "white.red"})
    assert response.status_code == 422
    assert response.json()["message"] == "Not possible: no skitt on Second player's red to remove"
    assert referee.get("/api/board").json()["virtual"]["counts"]["white.red"] == 0


def test_session_cookie_is_httponly_and_samesite_strict(client: TestClient) -> None:
    response = client.post("/api/referee/login", json={"pin": PIN})
    cookie = response.headers["set-cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=strict" in cookie


def test_referee_step_is_logged_as_manual(referee: TestClient) -> None:
    response = step(referee, {"shot": {"by": "black", "big": "placed"}})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["state"]["turn"] == "white"
    assert body["log"][-1]["source"] == "manual"
    assert body["log"][-1]["effects"][0]["reason"] == "R11"


def test_logout_ends_the_session(referee: TestClient) -> None:
    referee.post("/api/referee/logout")
    assert referee.get("/api/referee/session").json() == {"referee": False}
    assert step(referee, {"undo": True}).status_code == 401


def test_stale_seq_gets_409_with_the_current_state(referee: TestClient) -> None:
    old = state(referee)["seq"]
    assert step(referee, {"shot": {"by": "black", "big": "placed"}}, seq=old).status_code == 200
    # a second tablet still looking at the old state
    response = step(referee, {"shot": {"by": "white", "big": "placed"}}, seq=old)
    assert response.status_code == 409
    assert response.json()["state"]["state"]["turn"] == "white"
    assert log_length(referee) == 1


def test_seq_from_the_future_is_stale_too(referee: TestClient) -> None:
    future = state(referee)["seq"] + 100
    assert step(referee, {"undo": True}, seq=future).status_code == 409


def test_sensor_noise_does_not_make_a_tablet_stale(referee: TestClient, fake_clock) -> None:
    from web_helpers import run_for

    seq = state(referee)["seq"]
    referee.post("/api/board/place", json={"field": "minus"})  # the tracker's view changes
    run_for(referee, fake_clock, 0.1)
    assert state(referee)["seq"] > seq
    response = step(referee, {"correct": {"score": {"black": 1}, "reason": "test"}}, seq=seq)
    assert response.status_code == 200, response.text


def test_rule_refusal_gets_422_with_the_engines_message(referee: TestClient) -> None:
    response = step(referee, {"shot": {"by": "white", "big": "placed"}})
    assert response.status_code == 422
    assert "out of turn" in response.json()["detail"]
    assert response.json()["field"] == "shot.by"
    assert log_length(referee) == 0


def test_unknown_field_gets_422_naming_it(referee: TestClient) -> None:
    place_bigs(referee)
    response = step(referee, {"shot": {"by": "black", "delta": {"white.purple": 1}}})
    assert response.status_code == 422
    assert response.json()["field"] == "shot.delta"
    assert "white.purple" in response.json()["detail"]
    assert log_length(referee) == 2


def test_malformed_body_gets_422_naming_the_field(referee: TestClient) -> None:
    response = referee.post("/api/match/new", json={"seq": state(referee)["seq"],
                                                    "points_to_win_round": 0})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "points_to_win_round"]


def test_missing_seq_gets_422(referee: TestClient) -> None:
    response = referee.post("/api/match/undo", json={})
    assert response.status_code == 422
    assert response.json()["detail"][0]["loc"] == ["body", "seq"]


@pytest.mark.parametrize(("refused", "key"), [
    ({"shot": {"by": "black", "delta": {"white.red": "one"}}}, "shot.delta.white.red"),
    ({"shot": {"by": "black", "blockade": {"from": "white.red"}}}, "shot.blockade.to"),
    ({"correct": {"score": {"grey": 1}, "reason": "seen"}}, "correct.score"),
    ({"correct": {"score": {"black": 99}, "reason": "seen"}}, "correct.score.black"),
    ({"decide": {"by": "black", "red": ["sideways"]}}, "decide.red[0]"),
    ({"shot": {"by": "white", "delta": {}}}, "shot.by"),
    ({"shot": {"by": "black", "big": "white.purple"}}, "shot.big"),
    ({"correct": {"score": {"black": 2}}}, "correct.reason"),
    ({"undo": True}, "undo"),
])
def test_a_refused_step_names_the_engines_key(
    referee: TestClient, refused: dict[str, object], key: str
) -> None:
    response = step(referee, refused)
    assert response.status_code == 422, response.text
    assert response.json()["field"] == key
    assert log_length(referee) == 0


def test_correction_without_a_reason_is_refused(referee: TestClient) -> None:
    response = step(referee, {"correct": {"score": {"black": 2}, "reason": "  "}})
    assert response.status_code == 422
    assert response.json()["field"] == "correct.reason"
    assert log_length(referee) == 0


def test_correction_with_reason_is_logged_with_it(referee: TestClient) -> None:
    response = step(referee, {"correct": {"score": {"black": 2}, "reason": "missed a point"}})
    assert response.status_code == 200
    entry = response.json()["log"][-1]
    assert entry["reason"] == "missed a point"
    assert response.json()["state"]["score"]["black"] == 2


def test_undo_takes_back_the_last_step_and_marks_it(referee: TestClient) -> None:
    step(referee, {"shot": {"by": "black", "big": "placed"}})
    response = referee.post("/api/match/undo", json={"seq": state(referee)["seq"]})
    assert response.status_code == 200
    body = response.json()
    assert body["state"]["turn"] == "black"
    assert [e["undone"] for e in body["log"]] == [True, False]


def test_undo_with_nothing_to_undo_is_422(referee: TestClient) -> None:
    response = referee.post("/api/match/undo", json={"seq": state(referee)["seq"]})
    assert response.status_code == 422
    assert "nothing to undo" in response.json()["detail"]


def test_hit_on_red_point_can_be_pushed_back(referee: TestClient) -> None:
    place_bigs(referee)
    step(referee, {"correct": {"board": {"white.red": 2}, "reason": "set up"}})
    shot = step(referee, {"shot": {"by": "black", "delta": {"white.red": 1}}}).json()
    assert shot["state"]["score"]["black"] == 1
    assert [p["player"] for p in shot["state"]["pending"]["red"]] == ["black"]
    response = step(referee, {"decide": {"by": "black", "red": ["back"]}})
    assert response.status_code == 200, response.text
    assert response.json()["state"]["score"] == {"black": 0, "white": -1}


def test_amending_the_last_shot_records_undo_and_the_amended_shot(referee: TestClient) -> None:
    place_bigs(referee)
    step(referee, {"correct": {"score": {"black": 2}, "reason": "set up"}})
    step(referee, {"shot": {"by": "black", "delta": {}}})
    response = referee.post("/api/match/amend", json={"seq": state(referee)["seq"],
                                                      "off_board": 1})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["state"]["score"]["black"] == 1  # R6: one penalty point
    assert [e["kind"] for e in body["log"][-2:]] == ["undo", "shot"]
    assert body["last_step"]["step"]["shot"]["off_board"] == 1
    assert body["last_step"]["source"] == "manual"


def test_amend_refused_by_the_rules_logs_nothing(referee: TestClient) -> None:
    place_bigs(referee)
    step(referee, {"shot": {"by": "black", "delta": {}}})
    before = log_length(referee)
    response = referee.post("/api/match/amend", json={"seq": state(referee)["seq"],
                                                      "chain": ["black.red", "white.red"]})
    assert response.status_code == 422
    assert response.json()["field"] == "shot.chain" and "(R15)" in response.json()["message"]
    assert log_length(referee) == before


def test_amend_without_a_shot_is_422(referee: TestClient) -> None:
    response = referee.post("/api/match/amend", json={"seq": state(referee)["seq"],
                                                      "off_board": 1})
    assert response.status_code == 422
    assert "no shot to amend" in response.json()["detail"]


def test_turn_ended_with_no_change(referee: TestClient) -> None:
    place_bigs(referee)
    response = referee.post("/api/match/no-change", json={"seq": state(referee)["seq"]})
    assert response.status_code == 200
    assert response.json()["state"]["turn"] == "white"
    assert response.json()["log"][-1]["step"] == {"shot": {"by": "black", "delta": {}}}


def test_new_match_with_shootoff_and_handicaps(referee: TestClient) -> None:
    response = referee.post("/api/match/new", json={
        "seq": state(referee)["seq"], "names": {"black": "Ann", "white": "Bo"},
        "points_to_win_round": 4, "rounds_to_win_game": 3, "first": "shootoff",
        "handicaps": {"white": {"line": "beginner", "hand": "non-dominant"}},
    })
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["names"] == {"black": "Ann", "white": "Bo"}
    assert body["handicaps"]["white"] == {"line": "beginner", "finger": "usual",
                                          "hand": "non-dominant"}
    assert body["state"]["phase"] == "shootoff"
    assert any(a["kind"] == "shootoff" for a in body["alerts"])
    shootoff = step(referee, {"shootoff": {"black": 5, "white": 3}}).json()
    assert shootoff["state"]["turn"] == "black"
    assert len(referee.get("/api/matches").json()) == 2


def test_pause_sensing_is_shown_to_everyone(referee: TestClient) -> None:
    body = referee.post("/api/referee/pause", json={"paused": True}).json()
    assert body["sensing"]["paused"] is True
    assert body["tracker"]["mode"] == "paused"
    body = referee.post("/api/referee/pause", json={"paused": False}).json()
    assert body["sensing"]["paused"] is False


def test_muting_an_unknown_cell_is_422(referee: TestClient) -> None:
    response = referee.post("/api/referee/mute", json={"cell": 7})  # GPA7: unconnected
    assert response.status_code == 422
    assert response.json()["field"] == "cell"


def test_muting_a_cell_lists_it(referee: TestClient) -> None:
    body = referee.post("/api/referee/mute", json={"cell": 16}).json()
    assert body["sensors"]["muted"] == [16]


def test_full_log_has_score_after_each_step(referee: TestClient) -> None:
    place_bigs(referee)
    step(referee, {"correct": {"score": {"white": 3}, "reason": "r"}})
    entries = referee.get("/api/match/log").json()["entries"]
    assert [e["score"]["white"] for e in entries] == [0, 0, 3]


def test_openapi_page_lists_the_api(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/api/state", "/api/match/steps", "/api/referee/login", "/healthz"} <= set(paths)


def test_a_stale_correction_is_refused_and_told_what_the_other_tablet_did(
    referee: TestClient,
) -> None:
    """Issue 13, item 8: two tablets never undo each other."""
    from web_helpers import place_bigs, state, step

    place_bigs(referee)
    seen = state(referee)["seq"]  # both tablets show this state
    first = step(referee, {"correct": {"score": {"white": 1}, "reason": "tablet one"}}, seen)
    assert first.status_code == 200
    second = step(referee, {"correct": {"score": {"black": 2}, "reason": "tablet two"}}, seen)
    assert second.status_code == 409
    body = second.json()
    assert body["meanwhile"] == ["Second player's score was set to 1"]
    assert body["state"]["state"]["score"] == {"black": 0, "white": 1}
    again = step(referee, {"correct": {"score": {"black": 2}, "reason": "tablet two"}},
                 body["state"]["seq"])
    assert again.status_code == 200
    assert state(referee)["state"]["score"] == {"black": 2, "white": 1}  # both kept


def test_a_match_without_names_calls_the_players_by_their_seats(referee: TestClient) -> None:
    """Pages speak to players, never of colours: names left blank stay blank in the match and
    the pages, the log and its table say "First player" / "Second player"."""
    from stats_matches import new_match

    new_match(referee, "", "")
    body = state(referee)
    assert body["names"] == {"black": "First player", "white": "Second player"}
    assert body["given_names"] == {"black": "", "white": ""}
    assert body["words"]["turn"] == "First player: shoot your big skitt to the centre"
    assert referee.get("/api/match/log").json()["names"] == body["names"]
    header = referee.get("/api/match/log.csv").text.splitlines()[0]
    assert "score First player,score Second player" in header
    new_match(referee, " Ann ", "")
    assert state(referee)["names"] == {"black": "Ann", "white": "Second player"}
