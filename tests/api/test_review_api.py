"""The review API: a sensed shot's review and file, a manual step's plain "no timeline",
unknown steps, the scoreboard mirror behind the referee's session, and a review file that
plays back as ``--source replay:FILE`` after a restart of the table."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient
from web_helpers import place_bigs, run_for, state

from firmware_bridge.replay import read_log
from scorekeeper.clock import FakeClock


def seen(client: TestClient) -> dict[str, int]:
    """The state the referee sees now, as a change to the mirror carries it."""
    return {"seen": state(client)["seq"]}


def sensed_shot(client: TestClient, clock: FakeClock) -> int:
    """Both big skitts, then black's skitt lands on white.yellow, all on the virtual board;
    returns the last step's seq."""
    run_for(client, clock, 1.0)  # the board's first reading: the tracker is ready
    for player in ("black", "white"):
        r = client.post("/api/board/big", json={"player": player, "on": True})
        assert r.status_code == 200, r.text
        run_for(client, clock, 1.0)
    n = state(client)["log_length"]
    assert client.post("/api/board/place", json={"field": "white.yellow"}).status_code == 200
    run_for(client, clock, 1.0)
    now = state(client)
    last = now["last_step"]
    assert now["log_length"] == n + 1 and last["source"] == "sensor", now["tracker"]
    return int(last["seq"])


def test_a_sensed_shot_reviews_in_player_words_and_downloads(
    referee: TestClient, fake_clock: FakeClock, tmp_path: Path
) -> None:
    post = referee.post("/api/match/new", json={
        "seq": state(referee)["seq"], "first": "black", "names": {"black": "Ann", "white": "Bo"}})
    assert post.status_code == 200
    seq = sensed_shot(referee, fake_clock)
    review = referee.get(f"/api/match/log/{seq}/review").json()
    assert review["recorded"] == "Ann: +1 skitt on Bo's yellow"
    assert review["can_amend"] and review["note"] == ""
    assert review["frames"][-1]["counts"]["white.yellow"] == 1
    assert review["frames"][-1]["place"] == "Bo's yellow"
    got = referee.get(f"/api/match/log/{seq}/review-file")
    assert "attachment" in got.headers["content-disposition"]
    path = tmp_path / "shot.review.json"
    path.write_bytes(got.content)
    log = read_log(path)
    assert [(e.cell, e.active) for e in log.events] == [
        (c, bool(a)) for _ms, c, a in json.loads(got.content)["timeline"]["changes"]]


def test_a_manual_step_says_it_has_no_timeline(referee: TestClient) -> None:
    place_bigs(referee)
    seq = state(referee)["last_step"]["seq"]
    review = referee.get(f"/api/match/log/{seq}/review").json()
    assert review["frames"] == [] and "no sensor timeline" in review["note"]
    assert review["file"]["timeline"] is None


def test_showing_a_review_on_an_old_state_is_refused_saying_what_changed(
        referee: TestClient) -> None:
    place_bigs(referee)
    looked = state(referee)
    # Meanwhile a shot is scored at the tablet: the match the referee looked at is gone.
    r = referee.post("/api/match/steps", json={"seq": looked["seq"],
                                               "step": {"shot": {"by": "black", "delta": {}}}})
    assert r.status_code == 200, r.text
    stale = referee.post("/api/referee/review-show",
                         json={"seq": 1, "seen": looked["seq"], "boot": looked["boot"]})
    assert stale.status_code == 409
    assert stale.json()["meanwhile"] and stale.json()["state"]["review_shown"] is None
    assert referee.post("/api/referee/review-show", json={"seq": 1}).status_code == 422
    now = referee.post("/api/referee/review-show", json={"seq": 1, **seen(referee)})
    assert now.status_code == 200 and now.json()["review_shown"]["seq"] == 1
    ended_late = referee.post("/api/referee/review-show",
                              json={"seq": None, "seen": looked["seq"]})
    assert ended_late.status_code == 409
    assert state(referee)["review_shown"]["seq"] == 1


def test_an_unknown_step_is_a_404_naming_it(client: TestClient) -> None:
    r = client.get("/api/match/log/999/review")
    assert r.status_code == 404 and "step 999" in r.json()["detail"]


def test_the_scoreboard_mirror_needs_the_referee_and_a_real_step(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client()
    assert client.post("/api/referee/review-show", json={"seq": 1, "seen": 0}).status_code == 401
    assert client.post("/api/referee/login", json={"pin": "2468"}).status_code == 200
    r = client.post("/api/referee/review-show", json={"seq": 42, **seen(client)})
    assert r.status_code == 422 and "step 42" in r.json()["detail"]
    place_bigs(client)
    r = client.post("/api/referee/review-show",
                    json={"seq": 1, "ms": 20, "playing": True, **seen(client)})
    assert r.status_code == 200 and r.json()["review_shown"]["seq"] == 1
    r = client.post("/api/referee/review-show", json={"seq": None, **seen(client)})
    assert r.status_code == 200 and r.json()["review_shown"] is None
    too_slow = client.post("/api/referee/review-show",
                           json={"seq": 1, "speed": 0, **seen(client)})
    assert too_slow.status_code == 422 and too_slow.json()["field"] == "speed"
