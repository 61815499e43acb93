"""One board login cannot stop the hub: poison messages through a real Mosquitto running the
shipped configuration and ACL are refused, counted for their board and shown, while the hub
goes on storing a legitimate board's steps; and only the board a command went to can answer
it."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mqtt_broker import Broker, shipped_broker
from mqtt_sim import FAST_RECONNECT, SimBoard, wait_until

from hub.app import Hub, create_hub_app
from hub.link import HubLink
from hub.store import HubStore
from hub.tournament import Tournament
from hub.wake import Wake
from scorekeeper.clock import FakeClock
from tournament_wire.wire import encode, make_client, settings_from_url
from web_common.pin import PinStore

pytestmark = pytest.mark.mqtt

USERS = {"hub": "hub-secret", "board-1": "one", "board-2": "two", "board-3": "three"}


class Publisher:
    """A board's login used by hand: publishes whatever it is given, under its own id."""

    def __init__(self, broker: Broker, user: str) -> None:
        self.client = make_client(settings_from_url(broker.url_for(user)), f"raw-{user}",
                                  reconnect_delay=FAST_RECONNECT)
        ready = threading.Event()
        self.client.on_connect = lambda *a: ready.set()
        self.client.connect_async("127.0.0.1", broker.port)
        self.client.loop_start()
        assert ready.wait(5), "the broker let the board in"

    def publish(self, topic: str, payload: bytes, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=1, retain=retain).wait_for_publish(30)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class LiveHub:
    """The hub's link and its web app on one file; :meth:`restart` starts both again."""

    def __init__(self, tmp_path: Path, broker: Broker) -> None:
        self.path = tmp_path / "hub.db"
        self.url = broker.url_for("hub")
        self.pins = PinStore(tmp_path / "pin")
        self.pins.set("2468")
        self._start()

    def _start(self) -> None:
        clock = FakeClock(1_700_000_000.0)
        self.tournament = Tournament(HubStore(self.path), clock)
        wake = Wake()
        self.link = HubLink(settings_from_url(self.url), self.tournament, on_change=wake,
                            reconnect_delay=FAST_RECONNECT)
        self.hub = Hub(self.tournament, self.link, self.pins, clock, wake)
        self.link.start()
        self._client = TestClient(create_hub_app(self.hub))
        self.client = self._client.__enter__()

    def stop(self) -> None:
        self._client.__exit__(None, None, None)
        self.link.stop()
        self.tournament.store.close()

    def restart(self) -> None:
        self.stop()
        self._start()

    def card(self, board: str) -> dict[str, Any]:
        answer = self.client.get("/api/hub")
        assert answer.status_code == 200, answer.text
        return next((b for b in answer.json()["boards"] if b["board"] == board), {})


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    broker = shipped_broker(tmp_path, USERS)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def live_hub(tmp_path: Path, broker: Broker) -> Iterator[LiveHub]:
    live_hub = LiveHub(tmp_path, broker)
    try:
        yield live_hub
    finally:
        live_hub.stop()


@pytest.fixture
def honest(tmp_path: Path, broker: Broker) -> Iterator[SimBoard]:
    board = SimBoard("board-1", tmp_path, settings_from_url(broker.url_for("board-1")))
    board.link.start()
    try:
        yield board
    finally:
        board.close()


@pytest.fixture
def attacker(broker: Broker) -> Iterator[Publisher]:
    p = Publisher(broker, "board-2")
    try:
        yield p
    finally:
        p.close()


def state_payload(**over: Any) -> bytes:
    base: dict[str, Any] = {"v": 1, "board_id": "board-2", "match_id": 1, "seq": 1,
                            "names": {"black": "Ann", "white": "Di"}, "state": None,
                            "previous": [], "alerts": [], "at": 1_700_000_000.0}
    return encode({**base, **over})


SURROGATE = state_payload().replace(b'"Ann"', b'"\\ud800"')
POISON = {
    "a match id of 10^23": ("state", state_payload(match_id=10**23), False),
    "NaN in a state": ("state", state_payload().replace(b'"seq":1', b'"seq":NaN'), False),
    "a retained state with a lone surrogate in a name": ("state", SURROGATE, True),
    "a 40 MB event": ("events", b'{"id":"' + b"x" * 40_000_000 + b'"}', False),
    "a state naming 400 earlier matches": (
        "state", state_payload(previous=[{"match_id": i, "seq": 50} for i in range(2, 402)]),
        False),
    "a state with the direction override in a name": (
        "state", state_payload(names={"black": "\u202eiD", "white": "Ann"}), True),
}


def play_and_see_stored(live_hub: LiveHub, honest: SimBoard, steps: int) -> None:
    for _ in range(steps):
        assert honest.play_next()
    assert honest.match_id is not None
    seq = honest.store.event_count(honest.match_id)
    wait_until(lambda: live_hub.link.store.contiguous_seq("board-1", honest.match_id) == seq,
               what="the honest board's steps stored")


@pytest.mark.parametrize("name", list(POISON))
def test_a_poison_message_is_refused_and_the_hub_keeps_storing_the_other_boards(
    name: str, live_hub: LiveHub, honest: SimBoard, attacker: Publisher
) -> None:
    kind, payload, retain = POISON[name]
    honest.new_match({"black": "Ann", "white": "Bob"}, [("black", 1)] * 3)
    play_and_see_stored(live_hub, honest, 2)
    attacker.publish(f"skitter/board-2/{kind}", payload, retain=retain)
    if len(payload) > 16 * 1024:
        # The broker's message_size_limit: the hub never even receives it.
        attacker.publish("skitter/board-2/status", b'{"online": NaN}')
    wait_until(lambda: live_hub.card("board-2").get("refused", 0) >= 1, what="the refusal counted")
    play_and_see_stored(live_hub, honest, 3)
    card = live_hub.card("board-2")
    assert any(a["kind"] == "refused" for a in card["alerts"]), card
    assert live_hub.link.store.matches_received() == [("board-1", honest.match_id, 5)]
    assert live_hub.client.get("/healthz").json() == {"ok": True, "broker": "connected",
                                                 "problems": []}
    if retain:  # delivered again at every start of the hub: refused again, nothing stops
        live_hub.restart()
        wait_until(lambda: live_hub.card("board-2").get("refused", 0) >= 2, what="refused again")
        play_and_see_stored(live_hub, honest, 1)
        assert live_hub.client.get("/healthz").status_code == 200
    stored = live_hub.link.store.boards(["board-2"])
    assert stored and stored[0]["state"] is None  # nothing of it reached the store


def test_a_refused_message_never_echoes_into_the_page(
    live_hub: LiveHub, honest: SimBoard, attacker: Publisher
) -> None:
    attacker.publish("skitter/board-2/state", SURROGATE)
    wait_until(lambda: live_hub.card("board-2").get("refused", 0) == 1, what="the refusal")
    text = live_hub.client.get("/api/hub").text
    json.loads(text)  # still JSON the page can read
    assert "lone surrogate" in text


def test_only_the_board_a_command_went_to_can_answer_it(
    live_hub: LiveHub, broker: Broker, tmp_path: Path
) -> None:
    board = SimBoard("board-2", tmp_path, settings_from_url(broker.url_for("board-2")))
    forger = Publisher(broker, "board-3")
    try:
        board.link.start()
        match_id = board.new_match({"black": "Ann", "white": "Bob"}, [("black", 1)] * 3)
        board.play_next()
        wait_until(
            lambda: live_hub.card("board-2").get("seq") == 1 and live_hub.card("board-2")["online"],
            what="board-2 seen")
        # Made against an old picture: board-2 refuses it.
        command_id = live_hub.link.send_command("board-2", "undo", match_id=match_id, seq=0)
        wait_until(lambda: (live_hub.card("board-2")["last_command"] or {}).get("result"),
                   what="board-2's answer")
        forged = {"v": 1, "id": command_id, "board_id": "board-3", "kind": "undo", "ok": True,
                  "message": "ok: applied", "result": {"seq": 2}, "at": 1.0}
        forger.publish("skitter/board-3/command/result", encode(forged))
        wait_until(lambda: live_hub.card("board-3").get("refused", 0) == 1,
                   what="the forgery refused")
        answer = live_hub.card("board-2")["last_command"]["result"]
        assert (answer["ok"], answer["kind"]) == (False, "undo")
        assert "changed since" in answer["message"]
        assert board.store.event_count(match_id) == 1
    finally:
        forger.close()
        board.close()


def forged_game_over(names: tuple[str, str]) -> bytes:
    return encode({
        "v": 1, "id": "board-2:99:1", "board_id": "board-2", "match_id": 99, "seq": 1,
        "at": 1_700_000_000.0, "source": "sensor", "event": {"shot": {"by": "white"}},
        "names": {"black": names[0], "white": names[1]},
        "rules": {"variant": "classic"}, "setup": {"first": "black"},
        "state": {"phase": "game_over", "winner": "white", "round": 5,
                  "score": {"black": 0, "white": 99}, "round_wins": {"black": 0, "white": 5},
                  "rounds": ["white"] * 5, "last_effects": []}})


def test_a_board_cannot_decide_the_game_paired_to_another_board(
    live_hub: LiveHub, honest: SimBoard, attacker: Publisher, broker: Broker, tmp_path: Path
) -> None:
    t = live_hub.tournament
    for name in ("Ann", "Bob", "Cid", "Di"):
        t.add_player(name)
    on_one, on_two = (p for p in t.pair_next_round(["board-1", "board-2"]) if not p.is_bye)
    names = (on_one.black, on_one.white or "")
    # A made-up game over from board-2, naming the players of board-1's game ...
    attacker.publish("skitter/board-2/events", forged_game_over(names))
    wait_until(lambda: t.store.claim("board-2", 99) is not None, what="the forgery held back")
    # ... and a real game of theirs played on board-2 (the wrong board).
    wrong = SimBoard("board-2", tmp_path / "wrong", settings_from_url(broker.url_for("board-2")))
    try:
        wrong.link.start()
        wrong_match = wrong.new_match({"black": names[0], "white": names[1]}, [("white", 1)] * 3)
        while wrong.play_next():
            pass
        wait_until(lambda: t.store.claim("board-2", wrong_match) is not None,
                   what="the game on the wrong board held back")
    finally:
        wrong.close()
    assert t.store.games() == []
    assert t.round_open(1) == [on_one, on_two]
    assert t.store.pairings(1)[0].board == "board-1"  # not moved
    attention = live_hub.client.get("/api/hub").json()["attention"]
    claims = [a for a in attention if a["kind"] == "claim"]
    assert len(claims) == 2 and all("does not count" in a["message"] for a in claims)
    assert any("the hub's replay of the board's steps" in a["message"] for a in claims)
    assert any("is paired to board board-1, not to board board-2" in a["message"]
               for a in claims)

    # The real game on board-1 counts by itself, for its pairing, with the replay's result.
    match_id = honest.new_match({"black": names[0], "white": names[1]},
                                [("black", 2), ("black", 3), ("black", 1)])
    while honest.play_next():
        pass
    wait_until(lambda: len(t.store.games()) == 1, what="board-1's result")
    (game,) = t.store.games()
    assert (game.board, game.match_id, game.round, game.table) == (
        "board-1", match_id, 1, on_one.table)
    assert (game.result.winner, game.result.black_rounds, game.result.white_rounds) == (
        names[0], 3, 0)
    assert (game.result.black_points, game.result.white_points) == (15, 6)
    assert t.store.pairings(1)[0].board == "board-1"
