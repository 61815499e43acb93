"""The wire contract, and that nothing malformed from the network can crash either side."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub.intake import command_result
from hub.link import HubLink, parse_event
from hub.store import HubStore
from hub.tournament import Tournament
from hub.view import answered_in
from scorekeeper.clock import FakeClock
from scorekeeper.store import MatchStore
from tournament_wire.wire import (
    MAX_PAYLOAD,
    WireError,
    check_board_id,
    encode,
    event_id,
    settings_from_url,
    split_topic,
)
from web.tournament.board_states import replay_states
from web.tournament.mqtt_board import BoardLink
from web.tournament.mqtt_outbox import Outbox


def test_topics_name_their_board_and_kind() -> None:
    assert split_topic("skitter", "skitter/board-1/command/result") == ("board-1", "command/result")
    with pytest.raises(WireError, match="unknown kind"):
        split_topic("skitter", "skitter/board-1/secrets")
    with pytest.raises(WireError, match="not under"):
        split_topic("skitter", "other/board-1/state")


@pytest.mark.parametrize("bad", ["", "a/b", "+", "#", "x" * 65, "-lead", 7])
def test_a_board_id_must_be_usable_as_a_topic_level(bad: object) -> None:
    with pytest.raises(WireError, match="board id"):
        check_board_id(bad)


def test_credentials_move_out_of_the_broker_url() -> None:
    s = settings_from_url("mqtts://hub:s%40cret@broker.local:8884", tls_ca="/tmp/ca.crt")
    assert (s.url, s.username, s.password, s.port, s.tls) == (
        "mqtts://broker.local:8884", "hub", "s@cret", 8884, True)
    assert settings_from_url("mqtt://broker").port == 1883


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://broker", "must start with mqtt"),
        ("mqtt://", "names no broker host"),
        ("mqtt://broker/topic", "only"),
        ("mqtt://broker:99999", "not a valid broker URL"),
    ],
)
def test_a_bad_broker_url_is_refused_with_the_reason(url: str, message: str) -> None:
    with pytest.raises(WireError, match=message):
        settings_from_url(url)


def test_a_password_without_a_user_is_refused() -> None:
    with pytest.raises(WireError, match="needs a user name"):
        settings_from_url("mqtt://broker", password="x")


def event_payload(**over: Any) -> dict[str, Any]:
    base = {"id": "b1:2:3", "board_id": "b1", "match_id": 2, "seq": 3, "at": 1.5,
            "source": "sensor", "event": {"undo": True}, "names": {"black": "A", "white": "B"},
            "state": {"phase": "playing"}}
    return {**base, **over}


def test_an_event_payload_is_read_back() -> None:
    ev = parse_event("b1", event_payload())
    assert (ev.id, ev.match_id, ev.seq, ev.names["white"]) == ("b1:2:3", 2, 3, "B")
    assert event_id("b1", 2, 3) == ev.id


@pytest.mark.parametrize(
    "over",
    [{"id": "b2:2:3"}, {"seq": "3"}, {"seq": 0}, {"match_id": True}, {"event": []},
     {"state": [1]}, {"at": None}],
)
def test_a_malformed_event_payload_is_refused(over: dict[str, Any]) -> None:
    with pytest.raises(WireError):
        parse_event("b1", event_payload(**over))


@pytest.fixture
def hub_link(tmp_path: Path) -> Iterator[HubLink]:
    t = Tournament(HubStore(tmp_path / "hub.db"), FakeClock(0.0))
    link = HubLink(settings_from_url("mqtt://127.0.0.1:1"), t)
    try:
        yield link
    finally:
        t.store.close()


class Message:
    def __init__(self, topic: str, payload: bytes, mid: int = 7) -> None:
        self.topic, self.payload, self.mid, self.qos = topic, payload, mid, 1


@pytest.mark.parametrize(
    ("topic", "payload"),
    [
        ("skitter/b1/events", b"\xff\xfe"),
        ("skitter/b1/events", b"[1, 2]"),
        ("skitter/b1/events", encode(event_payload(board_id="b2"))),
        ("skitter/b1/status", b'{"online": "yes"}'),
        ("skitter/bad id/state", b"{}"),
        # the decoder and the checks the API applies, and the size cap
        ("skitter/b1/events", b'{"pad": "' + b"x" * MAX_PAYLOAD + b'"}'),
        ("skitter/b1/events", encode(event_payload(match_id=10**23))),
        ("skitter/b1/events", encode(event_payload()).replace(b'"at":1.5', b'"at":NaN')),
        ("skitter/b1/events", encode(event_payload(at=1e300))),
        ("skitter/b1/events", encode(event_payload(seq=10**7, id="b1:2:10000000"))),
        ("skitter/b1/events", encode(event_payload()).replace(b'"A"', b'"\\ud800"')),
        ("skitter/b1/events", encode(event_payload(names={"black": "\u202eB", "white": "A"}))),
        ("skitter/b1/events", encode(event_payload(names={"black": "A" * 41, "white": "B"}))),
        ("skitter/b1/events", encode(event_payload(names={"black": 7}))),
        ("skitter/b1/events", encode(event_payload(event={"shot": {"by": "red"}}))),
        ("skitter/b1/events", encode(event_payload(rules={"points_to_win_round": "x"}))),
        ("skitter/b1/events", encode(event_payload(state={"score": {"black": 10**9}}))),
        ("skitter/b1/state", encode({"match_id": 1, "seq": 1, "previous": [
            {"match_id": i, "seq": 1} for i in range(2, 12)]})),
        ("skitter/b1/state", encode({"match_id": 1, "seq": 1, "alerts": ["x"] * 17})),
        ("skitter/b1/command/result", encode({"id": "nope", "ok": True})),
    ],
)
def test_the_hub_drops_and_counts_what_it_cannot_read(
    hub_link: HubLink, topic: str, payload: bytes
) -> None:
    acked: list[int] = []
    hub_link.client.ack = lambda mid, qos: acked.append(mid)  # type: ignore[method-assign]
    hub_link.client.on_message(hub_link.client, None, Message(topic, payload))  # as paho does
    assert hub_link.bursts.store_waiting()  # one turn of the storing thread
    assert hub_link.store.counter("rejected") == 1
    assert hub_link.store.matches_received() == []
    assert acked == [7]  # dropped for good, and said so: the broker need not send it again


def test_the_hub_keeps_a_good_event_and_a_status(hub_link: HubLink) -> None:
    hub_link.handle("skitter/b1/events", encode(event_payload(seq=1, id="b1:2:1")))
    hub_link.handle("skitter/b1/status", b'{"online": true}')
    assert hub_link.store.seqs("b1", 2) == [1]
    assert hub_link.store.boards()[0]["online"] is True


# The board's side, without a broker: what it answers to commands --------------------------


class BoardUnderTest:
    def __init__(self, root: Path, on_command: Any) -> None:
        self.store = MatchStore(root / "skitter.db")
        self.match_id = self.store.create_match({}, {"first": "black"}, {"black": "A"}, at=1.0)
        self.store.append(self.match_id, {"shot": {"by": "black", "big": "placed"}}, at=2.0)
        self.link = BoardLink("b1", settings_from_url("mqtt://127.0.0.1:1"), self.store,
                              current_match=lambda: self.match_id, on_command=on_command)
        self.published: list[tuple[str, dict[str, Any]]] = []

        def record(topic: str, payload: bytes, **kw: Any) -> Any:
            import json

            self.published.append((topic, json.loads(payload)))
            return type("Info", (), {"mid": len(self.published)})()

        self.link.client.publish = record  # type: ignore[method-assign]

    def answer(self, command: dict[str, Any]) -> dict[str, Any]:
        self.link.hub_commands.run(command)
        topic, payload = self.published[-1]
        assert topic == "skitter/b1/command/result"
        return payload

    def close(self) -> None:
        self.link.stop()  # never started: it closes its outbox and its reader
        self.store.close()


@pytest.fixture
def wired_board(tmp_path: Path) -> Iterator[BoardUnderTest]:
    def apply(command: dict[str, Any]) -> dict[str, Any]:
        if command["kind"] == "correct" and command["correct"].get("score", {}).get("black") == 9:
            raise ValueError("correct: score 9 is at or above the round target 5 (R19)")
        return {"seq": 2}

    b = BoardUnderTest(tmp_path, apply)
    try:
        yield b
    finally:
        b.close()


def test_a_command_the_board_applies_is_answered_ok(wired_board: BoardUnderTest) -> None:
    answer = wired_board.answer(
        {"id": "c1", "kind": "undo", "match_id": wired_board.match_id, "seq": 1})
    assert (answer["id"], answer["ok"], answer["result"]) == ("c1", True, {"seq": 2})


def test_the_boards_refusal_goes_back_with_its_message(wired_board: BoardUnderTest) -> None:
    answer = wired_board.answer({"id": "c2", "kind": "correct", "correct": {"score": {"black": 9}}})
    assert answer["ok"] is False and "round target" in answer["message"]


def test_a_command_made_against_an_older_event_is_refused(wired_board: BoardUnderTest) -> None:
    answer = wired_board.answer({"id": "c3", "kind": "undo", "seq": 0})
    assert answer["ok"] is False and "changed since event 0" in answer["message"]


def test_a_command_for_another_match_is_refused(wired_board: BoardUnderTest) -> None:
    answer = wired_board.answer({"id": "c4", "kind": "undo", "match_id": 99})
    assert answer["ok"] is False and "not match 99" in answer["message"]


def test_the_boards_own_refusal_goes_as_data_the_hub_words_in_german(
    wired_board: BoardUnderTest,
) -> None:
    answer = wired_board.answer({"id": "c5", "kind": "undo", "match_id": 99})
    kept = command_result(answer)
    assert kept["why"] is not None and kept["message"] == answer["message"]
    command = answered_in({"result": kept}, {"black": "A"})
    assert command["result"]["message_in"]["de"] == (
        f"Nicht möglich: dieses Brett spielt jetzt Partie {wired_board.match_id}, "
        "nicht Partie 99")
    assert command["result"]["message_in"]["en"] == (
        f"Not possible: this board now plays match {wired_board.match_id}, not match 99")
    assert command_result({**answer, "why": None})["why"] is None  # an older board's answer


@pytest.mark.parametrize(
    ("command", "message"),
    [({"kind": "undo"}, "text 'id'"), ({"id": "c", "kind": "format"}, "unknown command"),
     ({"id": "c", "kind": "resend", "match_id": "1"}, "integer 'match_id'"),
     ({"id": "c", "kind": "resend", "match_id": 42}, "no events of match 42")],
)
def test_a_malformed_command_is_refused_by_name(
    wired_board: BoardUnderTest, command: dict[str, Any], message: str
) -> None:
    answer = wired_board.answer(command)
    assert answer["ok"] is False and message in answer["message"]


def test_a_resend_request_rewinds_the_link_to_the_asked_event(wired_board: BoardUnderTest) -> None:
    wired_board.link.step()  # publishes event 1 (paho is not connected: it would queue it)
    events = [p for t, p in wired_board.published if t.endswith("/events")]
    assert [e["id"] for e in events] == ["b1:1:1"]
    assert wired_board.answer({"id": "r", "kind": "resend", "match_id": 1, "after": 0})["ok"]
    wired_board.link.step()
    events = [p for t, p in wired_board.published if t.endswith("/events")]
    assert [e["id"] for e in events] == ["b1:1:1", "b1:1:1"]
    assert events[-1]["state"]["turn"] == "white"


def test_the_outbox_keeps_the_highest_acknowledged_seq(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "o.db", "b1")
    box.track(4)
    box.set_acked(4, 7)
    box.set_acked(4, 5)  # a late, older ack never moves it back
    box.close()
    again = Outbox(tmp_path / "o.db", "b1")
    assert again.acked() == {4: 7}
    again.close()


def test_states_are_replayed_for_each_stored_event(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "s.db") as store:
        m = store.create_match({}, {"first": "black"}, {}, at=0.0)
        store.append(m, {"shot": {"by": "black", "big": "placed"}}, at=1.0)
        store.append(m, {"shot": {"by": "black", "big": "placed"}}, at=2.0)  # out of turn
        states = replay_states(store.load(m))
    assert states[0] is not None and states[0]["turn"] == "white"
    assert states[1] is None  # a refused step publishes without a state


def test_rows_an_older_hub_stored_unchecked_do_not_break_it(tmp_path: Path) -> None:
    import sqlite3

    from fastapi.testclient import TestClient

    from hub.app import Hub, create_hub_app
    from web_common.pin import PinStore

    path = tmp_path / "hub.db"
    HubStore(path).close()
    with sqlite3.connect(path) as db:  # what the hub stored before it checked its input
        db.execute("INSERT INTO boards (board, online, state) VALUES ('b1', 1, ?)",
                   ('{"match_id": NaN, "seq": 1, "names": {"black": "\\ud800"}}',))
        db.execute("INSERT INTO boards (board, online, state) VALUES ('b2', 1, ?)",
                   ('{"match_id": 1, "seq": 1, "names": {"black": "\\ud800", "white": "B"}}',))
    t = Tournament(HubStore(path), FakeClock(0.0))
    link = HubLink(settings_from_url("mqtt://127.0.0.1:1"), t)
    try:
        with TestClient(create_hub_app(Hub(t, link, PinStore(tmp_path / "pin"),
                                           FakeClock(0.0)))) as client:
            assert client.get("/api/hub").status_code == 200
            link.handle("skitter/b1/state", encode({"match_id": 3, "seq": 0, "names": {}}))
            link.handle("skitter/b1/events", encode(event_payload(id="b1:2:1", seq=1)))
            assert t.store.boards(["b1"])[0]["state"]["match_id"] == 3
            assert t.store.seqs("b1", 2) == [1]
            assert client.get("/api/hub").status_code == 200
    finally:
        t.store.close()
