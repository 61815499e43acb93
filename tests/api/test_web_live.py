"""The live stream, sensing through the virtual board, /healthz, and resuming after a restart."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from waiting import turn_of_the_loop
from web_helpers import PIN, place_bigs, run_for, state, step, two_skitts_sensed_at_once

from scorekeeper.clock import FakeClock


def test_websocket_sends_the_full_state_on_connect(client: TestClient) -> None:
    with client.websocket_connect("/ws") as ws:
        first = ws.receive_json()
    assert first == state(client)


def test_websocket_sends_every_change_in_order(referee: TestClient) -> None:
    with referee.websocket_connect("/ws") as ws:
        first = ws.receive_json()
        step(referee, {"shot": {"by": "black", "big": "placed"}})
        step(referee, {"shot": {"by": "white", "big": "placed"}})
        second, third = ws.receive_json(), ws.receive_json()
    assert first["seq"] < second["seq"] < third["seq"]
    assert second["state"]["turn"] == "white"
    assert third["state"]["turn"] == "black"
    assert third["seq"] == state(referee)["seq"]


def test_late_joiner_sees_the_same_state_as_an_early_one(referee: TestClient) -> None:
    with referee.websocket_connect("/ws") as early:
        early.receive_json()
        step(referee, {"shot": {"by": "black", "big": "placed"}})
        latest_early = early.receive_json()
        with referee.websocket_connect("/ws") as late:
            assert late.receive_json() == latest_early


def test_closed_socket_is_dropped(referee: TestClient) -> None:
    broadcaster = referee.app.state.broadcaster  # type: ignore[attr-defined]
    with referee.websocket_connect("/ws") as ws:
        ws.receive_json()
        assert broadcaster.client_count == 1
    step(referee, {"shot": {"by": "black", "big": "placed"}})
    for _ in range(100):  # let the app's loop run the socket's clean-up
        if broadcaster.client_count == 0:
            break
        referee.portal.call(turn_of_the_loop)  # type: ignore[union-attr]
    assert broadcaster.client_count == 0


def test_a_skitt_on_the_virtual_board_scores_once_the_board_is_still(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    run_for(referee, fake_clock, 0.5)  # the board at rest after the start
    referee.post("/api/board/big", json={"player": "black", "on": True})
    run_for(referee, fake_clock, 0.1)
    assert state(referee)["state"]["turn"] == "black"  # still settling (300 ms)
    run_for(referee, fake_clock, 0.4)
    body = state(referee)
    assert body["state"]["turn"] == "white"
    assert body["log"][-1]["source"] == "sensor"
    assert body["log"][-1]["step"] == {"shot": {"by": "black", "big": "placed"}}


def test_a_shot_the_rules_refuse_goes_to_the_referee(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    run_for(referee, fake_clock, 0.5)
    body = two_skitts_sensed_at_once(referee, fake_clock)
    assert body["tracker"]["mode"] == "review"
    assert "refused" in body["tracker"]["message"]
    assert body["log_length"] == 2


def test_accepting_a_board_the_rules_refuse_answers_422_in_words(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    """Issue 13, item 10: Accept must not answer 200 while nothing happened."""
    run_for(referee, fake_clock, 0.5)
    before = two_skitts_sensed_at_once(referee, fake_clock)
    response = referee.post("/api/referee/board/accept", json={"seq": before["seq"]})
    assert response.status_code == 422, response.text
    message = response.json()["message"]
    assert message.startswith("Not possible: ") and "R2" in message
    assert "{" not in message and "[" not in message and "white.red" not in message
    assert state(referee)["log_length"] == before["log_length"]


def test_referee_restores_a_refused_board_on_the_virtual_board(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    referee.post("/api/board/place", json={"field": "minus"})
    referee.post("/api/board/place", json={"field": "minus"})
    run_for(referee, fake_clock, 0.5)
    assert referee.post("/api/board/lay-out", json={"seq": state(referee)["seq"]}).is_success
    run_for(referee, fake_clock, 0.5)
    assert state(referee)["tracker"]["mode"] == "ready"


def test_several_skitts_tapped_onto_the_virtual_board_at_once_are_one_shot(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    place_bigs(referee)  # Ann (black) is due
    referee.post("/api/board/lay-out", json={"seq": state(referee)["seq"]})
    run_for(referee, fake_clock, 1.0)
    assert state(referee)["tracker"]["mode"] == "ready"
    assert referee.post("/api/board/place", json={"field": "white.red", "skitts": 2}) \
        .is_success
    run_for(referee, fake_clock, 1.0)
    tracker = state(referee)["tracker"]
    # both skitts are one shot: two on Bo's red at once, which the rules refuse (R2)
    assert tracker["mode"] == "review" and "white.red" in tracker["message"], tracker
    assert referee.post("/api/board/remove", json={"field": "minus", "skitts": 8}) \
        .status_code == 422  # at most seven at once


def test_healthz_is_200_with_link_and_store_well(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["problems"] == []
    assert response.json()["uptime"] >= 0


def test_healthz_is_503_naming_a_down_link(client: TestClient) -> None:
    client.app.state.table.sensing.source.close()  # type: ignore[attr-defined]
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["link"]["up"] is False
    assert "sensor link down" in response.json()["problems"][0]


def test_healthz_is_503_naming_a_broken_store(client: TestClient) -> None:
    client.app.state.table.store.close()  # type: ignore[attr-defined]
    response = client.get("/healthz")
    assert response.status_code == 503
    assert "match store" in response.json()["problems"][0]


def test_link_down_shows_an_alert_and_pauses_play(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    referee.app.state.table.sensing.source.close()  # type: ignore[attr-defined]
    run_for(referee, fake_clock, 0.04)
    body = state(referee)
    assert body["alerts"][0]["kind"] == "link"
    assert body["tracker"]["mode"] == "paused"


def test_restart_resumes_the_match_where_it_was(
    make_client: Callable[..., TestClient], fake_clock: FakeClock
) -> None:
    first = make_client()
    first.post("/api/referee/login", json={"pin": PIN})
    place_bigs(first)
    step(first, {"correct": {"score": {"black": 3}, "reason": "restart test"}})
    before = state(first)
    first.__exit__(None, None, None)
    first.app.state.table.close()  # type: ignore[attr-defined]

    second = make_client()
    after = state(second)
    assert after["state"] == before["state"]
    assert after["log"] == before["log"]
    assert after["match_id"] == before["match_id"]
    assert after["boot"] != before["boot"]


def test_restart_lays_the_simulated_board_out_as_the_match_expects(
    make_client: Callable[..., TestClient], fake_clock: FakeClock
) -> None:
    first = make_client()
    first.post("/api/referee/login", json={"pin": PIN})
    place_bigs(first)
    step(first, {"correct": {"board": {"white.red": 2}, "reason": "restart test"}})
    first.__exit__(None, None, None)
    first.app.state.table.close()  # type: ignore[attr-defined]

    second = make_client()
    run_for(second, fake_clock, 0.5)
    body = state(second)
    assert body["virtual"]["counts"]["white.red"] == 2
    assert body["tracker"]["mode"] == "ready"


class _Stop(Exception):
    pass


def test_the_polling_loop_wakes_when_the_board_comes_to_rest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from web.api import app as web_app

    rests = iter([0.007, None, 0.5])
    delays: list[float] = []

    async def no_sleep(delay: float) -> None:
        delays.append(delay)
        if len(delays) == 3:
            raise _Stop

    monkeypatch.setattr(web_app.asyncio, "sleep", no_sleep)
    with pytest.raises(_Stop):
        asyncio.run(web_app.poll_loop([lambda: None], 0.02, lambda: next(rests)))
    # the settle deadline when it comes before the next beat, else the regular beat
    assert delays == [pytest.approx(0.007 + web_app.WAKE_MARGIN), 0.02, 0.02]


def test_seconds_to_rest_counts_down_to_the_moment_the_settle_rule_reads_the_board(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    """The polling loop sleeps until the reading is due by the board's own settle rule (the
    tuned waits of the shipped profile), not by a window of its own."""
    table = referee.app.state.table  # type: ignore[attr-defined]
    pipeline = table.sensing.pipeline
    waits = pipeline.profile.settle_waits
    assert waits is not None  # the shipped board settles by the tuned rule
    run_for(referee, fake_clock, 0.5)
    assert table.seconds_to_rest() is None  # nothing moved since the last rest

    def polled() -> None:
        referee.portal.call(table.tick)  # type: ignore[union-attr]

    referee.post("/api/board/big", json={"player": "black", "on": True})  # a skitt lands
    polled()
    assert table.seconds_to_rest() == pytest.approx(pipeline.debounce_s)  # confirmed then
    fake_clock.advance(pipeline.debounce_s)
    polled()
    assert table.seconds_to_rest() == pytest.approx(waits.land_s)  # outlasts a pass
    fake_clock.advance(waits.land_s - 0.01)
    polled()
    assert state(referee)["state"]["turn"] == "black"  # not yet read
    assert table.seconds_to_rest() == pytest.approx(0.01)
    fake_clock.advance(0.01)
    assert table.seconds_to_rest() is None
    polled()
    assert state(referee)["state"]["turn"] == "white"  # the reading was due at that moment
    assert table.seconds_to_rest() is None


def test_a_polling_step_that_sees_nothing_new_publishes_nothing(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    run_for(referee, fake_clock, 0.5)
    before = state(referee)["seq"]
    run_for(referee, fake_clock, 2.0)
    assert state(referee)["seq"] == before


def test_a_cell_confirmed_by_the_debounce_alone_is_published(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    table = referee.app.state.table  # type: ignore[attr-defined]
    broadcaster = referee.app.state.broadcaster  # type: ignore[attr-defined]
    run_for(referee, fake_clock, 0.5)
    table.sensing.simulator.place_big("black")
    referee.portal.call(table.tick)  # type: ignore[union-attr]
    seen = broadcaster.latest
    assert seen["sensors"]["active"] == []  # seen, not yet confirmed
    fake_clock.advance(table.sensing.pipeline.debounce_s)
    referee.portal.call(table.tick)  # type: ignore[union-attr]  # no new events: time alone
    assert broadcaster.latest["seq"] > seen["seq"]
    assert broadcaster.latest["sensors"]["active"] != []
