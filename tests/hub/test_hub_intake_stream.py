"""The stream overlay's and the self-test's messages go through the hub's one intake: what the
overlay reads of a board's state survives the checks, a bad value of it is refused by name,
and a self-test message is checked there like any other board message."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub import intake
from hub.link import HubLink
from hub.overlay import card_view
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from tournament_wire import selftest_wire
from tournament_wire.wire import MAX_PAYLOAD, WireError, encode, event_id, settings_from_url

NAMES = {"black": "Ann", "white": "Bo"}


@pytest.fixture
def hub_link(tmp_path: Path) -> Iterator[HubLink]:
    t = Tournament(HubStore(tmp_path / "hub.db"), FakeClock(0.0))
    link = HubLink(settings_from_url("mqtt://127.0.0.1:1"), t)
    try:
        yield link
    finally:
        t.store.close()


def match(rules: Rules) -> Match:
    return Match(rules, Setup(first="black"), NAMES)  # type: ignore[arg-type]


def state_message(m: Match, seq: int) -> dict[str, Any]:
    return {"v": 1, "board_id": "b1", "match_id": 1, "seq": seq, "names": NAMES,
            "state": m.state.to_json(), "previous": [], "alerts": [], "at": 1.0}


def overlay_at_hub(link: HubLink) -> dict[str, Any] | None:
    entry = next(b for b in link.store.boards() if b["board"] == "b1")
    return card_view(entry["state"], link.store.latest_event("b1", 1))


def test_the_overlay_reads_the_same_match_at_the_hub_as_the_board_sent(
    hub_link: HubLink,
) -> None:
    m = match(Rules(points_to_win_round=3, rounds_to_win_game=2))
    hub_link.handle("skitter/b1/state", encode(state_message(m, 0)))
    view = overlay_at_hub(hub_link)
    sent = card_view(state_message(m, 0), None)
    assert view == sent
    assert view is not None and (view["rounds_to_win"], view["points_to_win"]) == (2, 3)
    assert view["turn_words"] == "Ann: shoot your big skitt to the centre"

    step = {"shot": {"by": "black", "big": "placed"}}
    m.apply(step)
    hub_link.handle("skitter/b1/events", encode({
        "v": 1, "id": event_id("b1", 1, 1), "board_id": "b1", "match_id": 1, "seq": 1,
        "at": 2.0, "source": "sensor", "event": step, "names": NAMES,
        "state": m.state.to_json()}))
    hub_link.handle("skitter/b1/state", encode(state_message(m, 1)))
    view = overlay_at_hub(hub_link)
    assert view is not None and view["turn_words"] == "Bo: shoot your big skitt to the centre"
    assert view["last_shot"].startswith("Ann's shot")


def test_a_trio_overlay_at_the_hub_counts_points_not_rounds(hub_link: HubLink) -> None:
    m = match(Rules(variant="trio", points_to_win_round=30))
    hub_link.handle("skitter/b1/state", encode(state_message(m, 0)))
    view = overlay_at_hub(hub_link)
    assert view is not None and view["rounds_to_win"] is None and view["points_to_win"] == 30


@pytest.mark.parametrize(
    ("over", "named"),
    [({"rules": {"points_to_win_round": "x"}}, "rules"),
     ({"rules": {"rounds_to_win_game": 10**9}}, "rules"),
     ({"rules": {"variant": "chess"}}, "rules"),
     ({"rules": [1]}, "state.rules"),
     ({"must_place_big": "yes"}, "state.must_place_big")],
)
def test_a_bad_value_the_overlay_reads_is_refused_by_name(over: dict[str, Any],
                                                          named: str) -> None:
    state = {**match(Rules()).state.to_json(), **over}
    with pytest.raises(WireError, match=named):
        intake.board_state({"match_id": 1, "seq": 0, "state": state})


GOOD = {"v": 1, "board_id": "b1", "date": "2026-12-01T19:00:00+00:00", "passed": False,
        "summary": "failed: 1 of 131 checks failed", "failed": ["cell 17: never changed"],
        "failed_count": 1}


def test_a_self_test_message_is_checked_by_the_intake(hub_link: HubLink) -> None:
    assert intake.selftest(GOOD) == {k: GOOD[k] for k in
                                     ("date", "passed", "summary", "failed", "failed_count")}
    hub_link.handle(selftest_wire.topic("skitter", "b1"), encode({**GOOD, "extra": "x"}))
    assert hub_link.store.selftests()["b1"]["failed"] == ["cell 17: never changed"]
    assert "extra" not in hub_link.store.selftests()["b1"]


@pytest.mark.parametrize(
    ("over", "named"),
    [({"passed": "yes"}, "passed"),
     ({"failed": ["x"] * (selftest_wire.MAX_FAILED + 1)}, "failed"),
     ({"failed": [7]}, r"failed\[0\]"),
     ({"failed": ["x" * 81]}, r"failed\[0\]"),
     ({"failed": ["\ud800"]}, r"failed\[0\]"),
     ({"failed_count": -1}, "failed_count"),
     ({"failed_count": True}, "failed_count"),
     ({"summary": "s" * 500}, "summary"),
     ({"date": None}, "date"),
     ({"passed": True}, "passed"),  # passed, yet with a failed check
     ({"failed_count": 0}, "failed_count")],  # fewer counted than named
)
def test_a_bad_self_test_message_is_refused_by_name(over: dict[str, Any], named: str) -> None:
    with pytest.raises(WireError, match=named):
        intake.selftest({**GOOD, **over})


def test_a_bad_self_test_message_is_counted_and_dropped(hub_link: HubLink) -> None:
    topic = selftest_wire.topic("skitter", "b1")
    for payload in (encode({**GOOD, "passed": "yes"}), b"[" * 5000,
                    b'{"pad": "' + b"x" * MAX_PAYLOAD + b'"}'):
        hub_link.bursts.take_burst([(0, Message(topic, payload))])  # type: ignore[list-item]
    assert hub_link.store.counter("rejected") == 3
    assert "b1" not in hub_link.store.selftests()


class Message:
    def __init__(self, topic: str, payload: bytes) -> None:
        self.topic, self.payload, self.mid, self.qos = topic, payload, 7, 0
