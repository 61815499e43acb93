"""Two people, one match, through the API (issue 22, items 2, 5 and 7).

A step that changes nothing is not logged; a replaced match stays stored and can be taken up
again; pausing sensing carries the ``seq`` the person saw like any change.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient
from web_helpers import PIN, place_bigs, state, step


def log_length(client: TestClient) -> int:
    return len(client.get("/api/match/log").json()["entries"])


def test_pausing_sensing_carries_the_seq_the_person_saw(referee: TestClient) -> None:
    seen = state(referee)["seq"]
    r = referee.post("/api/referee/pause", json={"seq": seen, "paused": True})
    assert r.status_code == 200, r.text
    assert r.json()["sensing"]["paused"] is True
    r = referee.post("/api/referee/pause", json={"seq": r.json()["seq"], "paused": False})
    assert r.status_code == 200, r.text
    assert r.json()["sensing"]["paused"] is False


def test_a_sensing_act_from_a_state_this_server_never_had_is_stale(referee: TestClient) -> None:
    """A page left open over a restart holds a seq of another run: 409, nothing paused."""
    future = state(referee)["seq"] + 1000
    r = referee.post("/api/referee/pause", json={"seq": future, "paused": True})
    assert r.status_code == 409, r.text
    assert state(referee)["sensing"]["paused"] is False
    r = referee.post("/api/board/lay-out", json={"seq": future})
    assert r.status_code == 409, r.text
    assert referee.post("/api/board/lay-out", json={"seq": state(referee)["seq"]}).is_success


def test_laying_the_board_out_on_an_old_state_is_refused_saying_what_changed(
        referee: TestClient) -> None:
    place_bigs(referee)
    looked = state(referee)
    r = step(referee, {"shot": {"by": "black", "delta": {}}}, seq=looked["seq"])
    assert r.status_code == 200, r.text
    stale = referee.post("/api/board/lay-out",
                         json={"seq": looked["seq"], "boot": looked["boot"]})
    assert stale.status_code == 409
    assert stale.json()["meanwhile"], stale.json()
    assert referee.post("/api/board/lay-out", json={}).status_code == 422
    now = state(referee)
    assert referee.post("/api/board/lay-out",
                        json={"seq": now["seq"], "boot": now["boot"]}).status_code == 200


def test_an_amendment_identical_to_the_shot_is_refused_and_not_logged(referee: TestClient) -> None:
    place_bigs(referee)
    assert step(referee, {"shot": {"by": "black", "delta": {"white.red": 1}}}).is_success
    r = referee.post("/api/match/amend", json={"seq": state(referee)["seq"], "off_board": 1})
    assert r.status_code == 200, r.text
    before = log_length(referee)
    again = referee.post("/api/match/amend", json={"seq": state(referee)["seq"], "off_board": 1})
    assert again.status_code == 422, again.text
    assert "nothing to amend" in again.json()["message"]
    assert log_length(referee) == before


def test_a_correction_that_sets_what_already_is_is_refused_and_not_logged(
    referee: TestClient,
) -> None:
    place_bigs(referee)
    before = log_length(referee)
    r = step(referee, {"correct": {"score": {"black": 0}, "turn": "black", "reason": "check"}})
    assert r.status_code == 422, r.text
    assert r.json()["message"].startswith("Not possible: nothing to change")
    assert log_length(referee) == before
    # a real change still goes through
    assert step(referee, {"correct": {"score": {"black": 1}, "reason": "miscounted"}}).is_success
    assert log_length(referee) == before + 1


def test_a_hit_on_red_choice_already_made_is_not_logged_again(referee: TestClient) -> None:
    place_bigs(referee)
    assert step(referee, {"correct": {"board": {"white.red": 2}, "reason": "set"}}).is_success
    assert step(referee, {"shot": {"by": "black", "delta": {"white.red": 1}}}).is_success
    pending = state(referee)["state"]["pending"]["red"]
    assert pending, "a hit on red leaves a choice open"
    choices = pending[0]["choices"]
    before = log_length(referee)
    r = step(referee, {"decide": {"by": pending[0]["player"], "red": choices}})
    assert r.status_code == 422, r.text
    assert log_length(referee) == before


def test_a_replaced_match_stays_stored_and_can_be_taken_up_again(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client()
    assert client.post("/api/referee/login", json={"pin": PIN}).is_success
    r = client.post("/api/match/new", json={"seq": state(client)["seq"], "first": "black",
                                            "names": {"black": "Anna", "white": "Ben"}})
    assert r.status_code == 200, r.text
    anna_ben = r.json()["match_id"]
    place_bigs(client)
    assert step(client, {"correct": {"score": {"black": 3}, "reason": "set"}}).is_success
    seen = state(client)["seq"]
    r = client.post("/api/match/new", json={"seq": seen, "names": {"black": "Cy", "white": "Di"}})
    assert r.status_code == 200, r.text
    replacing = r.json()["match_id"]
    stored = {m["id"]: m for m in client.get("/api/matches").json()}
    assert stored[anna_ben]["names"] == {"black": "Anna", "white": "Ben"}
    # a page that still showed Anna v Ben is told the match was replaced
    stale = client.post("/api/match/undo", json={"seq": seen})
    assert stale.status_code == 409
    assert "Cy v Di" in " ".join(stale.json()["meanwhile"])

    r = client.post("/api/match/resume", json={"seq": state(client)["seq"], "match_id": anna_ben})
    assert r.status_code == 200, r.text
    now = r.json()
    assert now["match_id"] == anna_ben
    assert now["state"]["score"]["black"] == 3
    assert now["names"]["black"] == "Anna"
    again = client.post("/api/match/resume",
                        json={"seq": state(client)["seq"], "match_id": anna_ben})
    assert again.status_code == 422  # already in play
    missing = client.post("/api/match/resume", json={"seq": state(client)["seq"], "match_id": 99})
    assert missing.status_code == 422
    assert "99" in missing.json()["message"]

    # a restart comes back to the match taken up, not to the newest created
    client.__exit__(None, None, None)
    client.app.state.table.close()  # type: ignore[attr-defined]
    restarted = make_client()
    assert state(restarted)["match_id"] == anna_ben
    assert state(restarted)["state"]["score"]["black"] == 3
    # and a match started after it is the one in play again
    assert restarted.post("/api/referee/login", json={"pin": PIN}).is_success
    r = restarted.post("/api/match/new", json={"seq": state(restarted)["seq"]})
    assert r.status_code == 200
    assert r.json()["match_id"] not in (anna_ben, replacing)


def test_an_undo_armed_on_a_step_another_undo_took_back_is_refused_in_words(
    make_client: Callable[..., TestClient],
) -> None:
    """Two referees (two sessions) arm Undo on Ben's shot: the second is stale, told what the
    first took back, and Anna's shot before it stands."""
    one, two = make_client(), None
    assert one.post("/api/referee/login", json={"pin": PIN}).is_success
    r = one.post("/api/match/new", json={"seq": state(one)["seq"], "first": "black",
                                         "names": {"black": "Anna", "white": "Ben"}})
    assert r.is_success
    place_bigs(one)
    assert step(one, {"shot": {"by": "black", "delta": {"white.red": 1}}}).is_success
    assert step(one, {"shot": {"by": "white", "delta": {}}}).is_success
    two = TestClient(one.app)
    assert two.post("/api/referee/login", json={"pin": PIN}).is_success
    armed = state(one)["seq"]  # both look at Ben's shot
    assert one.post("/api/match/undo", json={"seq": armed}).is_success
    late = two.post("/api/match/undo", json={"seq": armed})
    assert late.status_code == 409
    assert late.json()["meanwhile"] == ["someone took back Ben's shot"]
    entries = one.get("/api/match/log").json()["entries"]
    standing = [e for e in entries if not e["undone"] and e["kind"] == "shot"]
    assert standing[-1]["step"]["shot"]["by"] == "black"
    # an amendment meanwhile is named as one
    seen = state(one)["seq"]
    assert one.post("/api/match/amend", json={"seq": seen, "invalid": True}).is_success
    late = two.post("/api/match/amend", json={"seq": seen, "off_board": 1})
    assert late.status_code == 409
    assert late.json()["meanwhile"] == ["someone amended Anna's shot"]


def test_a_change_made_on_a_state_of_an_earlier_run_is_stale(referee: TestClient) -> None:
    """Sessions outlive a restart and the states' numbers start again: the ``boot`` a page
    saw tells an old state apart from a new one with the same number."""
    place_bigs(referee)
    now = state(referee)
    before = log_length(referee)
    r = referee.post("/api/match/undo", json={"seq": now["seq"], "boot": "0ldb00t"})
    assert r.status_code == 409
    assert r.json()["meanwhile"] == ["the scorekeeper restarted"]
    r = referee.post("/api/referee/pause", json={"seq": now["seq"], "boot": "0ldb00t",
                                                 "paused": True})
    assert r.status_code == 409
    assert log_length(referee) == before
    r = referee.post("/api/match/undo", json={"seq": now["seq"], "boot": now["boot"]})
    assert r.status_code == 200, r.text


def test_a_log_of_version_2_gains_the_record_of_matches_taken_up_again(tmp_path) -> None:
    import sqlite3

    from scorekeeper.store import SCHEMA_VERSION, MatchStore

    path = tmp_path / "v2.db"
    with MatchStore(path) as store:
        first = store.create_match({}, {"first": "black"}, {"black": "Anna"}, at=1.0)
        second = store.create_match({}, {"first": "black"}, {"black": "Cy"}, at=2.0)
    db = sqlite3.connect(path)
    db.execute("DROP TABLE resumes")
    db.execute("PRAGMA user_version = 2")
    db.commit()
    db.close()
    with MatchStore(path) as store:
        assert store.latest_match_id() == second
        store.resume_match(first, at=3.0)
        assert store.latest_match_id() == first
        third = store.create_match({}, {"first": "black"}, {}, at=4.0)
        assert store.latest_match_id() == third
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
    db.close()
