"""Issue 22, items 3 and 4: a restore never blocks the match, and no shot falls into silence.

Whatever the counts, the referee can always go on in one step: have the board put back,
tell the match the board is as it expects (the sensors cannot show it), or take the board
as the sensors see it. A board change during a restore that is not the restore goes to the
referee as the shot it looks like, never into silence.
"""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import bigs_sensed, run_for, state, step

from scorekeeper.clock import FakeClock


def _bigs_placed(referee: TestClient, clock: FakeClock) -> None:
    run_for(referee, clock, 0.5)
    bigs_sensed(referee, clock)
    assert state(referee)["tracker"]["mode"] == "ready"


def _overfull(referee: TestClient, clock: FakeClock) -> dict:
    """A correction sets Second player's blue to 5 while the board holds none: a restore."""
    _bigs_placed(referee, clock)
    response = step(referee, {"correct": {"board": {"white.blue": 5}, "reason": "seen"}})
    assert response.status_code == 200, response.text
    run_for(referee, clock, 0.5)
    return state(referee)


def _four_on_the_overfull_field(referee: TestClient, clock: FakeClock) -> dict:
    """:func:`_overfull`, then four skitts sensed on Second player's blue (one short)."""
    _overfull(referee, clock)
    for _ in range(4):
        referee.post("/api/board/place", json={"field": "white.blue"})
    run_for(referee, clock, 0.5)
    return state(referee)


def test_a_board_beyond_its_sensors_count_can_be_laid_out_and_play_goes_on(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    """The virtual board holds skitts beyond what a field's cells count (as a real board
    does), so laying out the board the match expects always succeeds; the field then reads
    at its capacity, which agrees with any higher count (issue 24), and the match goes on."""
    _bigs_placed(referee, fake_clock)
    capacity = referee.get("/api/board").json()["profile"]["capacity"]["white.blue"]
    response = step(referee, {"correct": {"board": {"white.blue": capacity + 1},
                                          "reason": "seen"}})
    assert response.status_code == 200, response.text
    run_for(referee, fake_clock, 0.5)
    assert state(referee)["tracker"]["mode"] == "restore"
    response = referee.post("/api/board/lay-out", json={"seq": state(referee)["seq"]})
    assert response.status_code == 200, response.text
    run_for(referee, fake_clock, 0.5)
    after = state(referee)
    assert after["virtual"]["counts"]["white.blue"] == capacity + 1
    assert after["virtual"]["sensed"]["white.blue"] == capacity
    assert after["tracker"]["mode"] == "ready", after["tracker"]


def test_the_referee_says_the_board_is_as_the_match_expects_and_play_goes_on(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    body = _four_on_the_overfull_field(referee, fake_clock)
    assert body["tracker"]["mode"] == "restore"  # add 1 more: the field is full
    response = referee.post("/api/referee/board/as-expected", json={"seq": body["seq"]})
    assert response.status_code == 200, response.text
    assert response.json()["tracker"]["mode"] == "ready"
    assert response.json()["log_length"] == body["log_length"]  # the match is unchanged
    # the next shot scores: Anna's skitt on Ben's red
    referee.post("/api/board/place", json={"field": "white.red"})
    run_for(referee, fake_clock, 0.5)
    after = state(referee)
    assert after["log_length"] == body["log_length"] + 1
    assert after["log"][-1]["step"]["shot"]["delta"] == {"white.red": 1}
    assert after["state"]["board"]["white.blue"] == 5
    assert after["tracker"]["mode"] == "ready"


def test_the_referee_takes_the_board_as_sensed_in_one_step(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    body = _four_on_the_overfull_field(referee, fake_clock)
    response = referee.post("/api/referee/board/as-sensed", json={"seq": body["seq"]})
    assert response.status_code == 200, response.text
    after = response.json()
    assert after["state"]["board"]["white.blue"] == 4
    assert after["tracker"]["mode"] == "ready"
    assert "correct" in after["log"][-1]["step"]
    assert after["log"][-1]["step"]["correct"]["reason"]


def test_a_board_that_already_agrees_needs_no_override_and_says_so(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    _bigs_placed(referee, fake_clock)
    body = state(referee)
    for path in ("/api/referee/board/as-expected", "/api/referee/board/as-sensed"):
        response = referee.post(path, json={"seq": body["seq"]})
        assert response.status_code == 422, response.text
        assert "already" in response.json()["message"]


def test_a_shot_during_a_restore_goes_to_the_referee(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    _bigs_placed(referee, fake_clock)
    step(referee, {"correct": {"board": {"white.red": 2}, "reason": "seen"}})
    run_for(referee, fake_clock, 0.5)
    assert state(referee)["tracker"]["mode"] == "restore"
    # one skitt put back: the instruction counts down
    referee.post("/api/board/place", json={"field": "white.red"})
    run_for(referee, fake_clock, 0.5)
    body = state(referee)
    assert body["tracker"]["mode"] == "restore"
    assert body["tracker"]["differences"] == {"white.red": -1}
    assert "add 1 skitt to Second player's red" in body["words"]["board"]
    # First player shoots before the restore is done: not silence, the referee decides
    referee.post("/api/board/place", json={"field": "white.yellow"})
    run_for(referee, fake_clock, 0.5)
    body = state(referee)
    assert body["tracker"]["mode"] == "review"
    words = body["words"]["board"]
    assert "looks like First player's shot" in words
    assert "score it" in words and "put the board back" in words
    assert any(a["kind"] == "review" for a in body["alerts"])
    # scored: the shot counts, the rest of the restore is still asked for
    response = referee.post("/api/referee/board/accept", json={"seq": body["seq"]})
    assert response.status_code == 200, response.text
    after = response.json()
    assert after["log"][-1]["step"]["shot"] == {"by": "black", "delta": {"white.yellow": 1}}
    assert after["tracker"]["mode"] == "restore"
    assert after["tracker"]["differences"] == {"white.red": -1}


def _a_shot_during_a_restore(referee: TestClient, clock: FakeClock) -> dict:
    """A correction puts a skitt on Second player's red that the board does not hold (a
    restore); a skitt lands on First player's blue meanwhile, which goes to the referee."""
    _bigs_placed(referee, clock)
    step(referee, {"correct": {"board": {"white.red": 1}, "reason": "seen"}})
    run_for(referee, clock, 0.5)
    referee.post("/api/board/place", json={"field": "black.blue"})
    run_for(referee, clock, 0.5)
    body = state(referee)
    assert body["tracker"]["mode"] == "review"
    return body


def test_a_shot_during_a_restore_can_be_put_back_instead(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    body = _a_shot_during_a_restore(referee, fake_clock)
    response = referee.post("/api/referee/board/restore", json={"seq": body["seq"]})
    assert response.status_code == 200, response.text
    assert response.json()["log_length"] == body["log_length"]
    referee.post("/api/board/remove", json={"field": "black.blue"})
    referee.post("/api/board/place", json={"field": "white.red"})
    run_for(referee, fake_clock, 0.5)
    assert state(referee)["tracker"]["mode"] == "ready"


def test_a_reading_during_a_restore_splits_into_the_restore_and_what_is_not() -> None:
    from scorekeeper.restore import split_restore

    # two skitts to take off Bo's red: one taken off is the restore, still one to go
    assert split_restore({"white.red": 2}, {"white.red": 1}) == ({"white.red": 1}, {})
    # a skitt on Bo's yellow meanwhile is not the restore
    assert split_restore({"white.red": 2}, {"white.red": 2, "white.yellow": 1}) == (
        {"white.red": 2}, {"white.yellow": 1})
    # one more added where skitts were to go on: the extra one is not the restore
    assert split_restore({"white.red": -2}, {"white.red": 1}) == ({}, {"white.red": 1})
    assert split_restore({"white.red": 1}, {"white.red": 3}) == ({"white.red": 1},
                                                                 {"white.red": 2})


def test_the_referees_word_holds_until_the_sensors_agree_by_themselves() -> None:
    from scorekeeper.reading import BoardReading
    from scorekeeper.tracker import Expectation, Tracker

    expected = Expectation(board={"white.blue": 5, "white.red": 0}, turn="black")
    tracker = Tracker()
    tracker.observe(BoardReading({"white.blue": 0, "white.red": 0}, at=0.0), expected)
    tracker.restore_board()
    tracker.observe(BoardReading({"white.blue": 4, "white.red": 0}, at=1.0), expected)
    assert tracker.mode == "restore"
    tracker.board_as_expected()
    assert tracker.mode == "ready" and tracker.status().overridden == {"white.blue": -1}
    shot = tracker.observe(BoardReading({"white.blue": 4, "white.red": 1}, at=2.0), expected)
    assert shot is not None and dict(shot.shot.delta) == {"white.red": 1}
    # the field is emptied by a clearing: the sensors agree again, the word lapses
    cleared = Expectation(board={"white.blue": 0, "white.red": 1}, turn="white")
    tracker.sync(cleared, after_shot=True)
    tracker.observe(BoardReading({"white.blue": 0, "white.red": 1}, at=3.0), cleared)
    assert tracker.mode == "ready" and tracker.status().overridden == {}


def test_a_change_during_a_restore_taken_away_again_is_the_restore_again(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    _a_shot_during_a_restore(referee, fake_clock)
    referee.post("/api/board/remove", json={"field": "black.blue"})  # taken off again
    run_for(referee, fake_clock, 0.5)
    body = state(referee)
    assert body["tracker"]["mode"] == "restore"
    assert body["tracker"]["differences"] == {"white.red": -1}
    referee.post("/api/board/place", json={"field": "white.red"})
    run_for(referee, fake_clock, 0.5)
    assert state(referee)["tracker"]["mode"] == "ready"
