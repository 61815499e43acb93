"""A burst of board messages: one transaction, and nothing taken as stored before its commit.

The broker forgets a message once the hub acknowledges it, so an acknowledgement, a resend
request or any check of which steps the hub holds must come after the commit that stores it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hub import bursts
from hub.gaps import GAP_GRACE, RESEND_EVERY
from hub.link import HubLink
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from tournament_wire.wire import encode, event_id, settings_from_url


class Message:
    """What paho hands the hub: topic, payload, message id and QoS."""

    def __init__(self, topic: str, payload: bytes, mid: int) -> None:
        self.topic, self.payload, self.mid, self.qos = topic, payload, mid, 1


def step(board: str, match: int, seq: int, mid: int, phase: str = "playing") -> Message:
    body = {"v": 1, "id": event_id(board, match, seq), "board_id": board, "match_id": match,
            "seq": seq, "at": 1.0 + seq, "source": "sensor", "event": {"shot": {"by": "black"}},
            "names": {"black": "Ann", "white": "Bob"},
            "state": {"phase": phase, "score": {"black": seq, "white": 0}}}
    return Message(f"skitter/{board}/events", encode(body), mid)


MONOTONIC = FakeClock(100.0)
"""The links' monotonic clock: the tests move it past a gap's grace."""


class Reason:
    """The broker's answer to a connect, as paho hands it to ``on_connect``: accepted."""

    is_failure = False


@pytest.fixture
def burst_link(tmp_path: Path) -> Iterator[tuple[HubLink, Path]]:
    path = tmp_path / "hub.db"
    t = Tournament(HubStore(path), FakeClock(0.0))
    link = HubLink(settings_from_url("mqtt://127.0.0.1:1"), t, monotonic=MONOTONIC.now)
    link.connected = True  # as if on the broker: resend requests go out
    link.client.publish = lambda *a, **kw: None  # type: ignore[method-assign,assignment]
    try:
        yield link, path
    finally:
        t.store.close()


def committed(path: Path) -> set[str]:
    """Event ids another connection can read: what is on disk, not what is in a transaction."""
    with sqlite3.connect(path) as db:
        return {r[0] for r in db.execute("SELECT id FROM events")}


def test_a_burst_is_stored_in_one_transaction(burst_link: tuple[HubLink, Path]) -> None:
    link, _ = burst_link
    burst = [step(f"b{i % 4}", 1, i // 4 + 1, mid=i + 1) for i in range(40)]
    link.client.ack = lambda mid, qos: None  # type: ignore[method-assign]
    before = link.store.commits
    assert link.bursts.take_burst([(0, m) for m in burst])
    assert link.store.commits == before + 1
    assert [link.store.contiguous_seq(f"b{i}", 1) for i in range(4)] == [10, 10, 10, 10]


def test_nothing_is_acknowledged_or_taken_as_stored_before_the_commit(
    burst_link: tuple[HubLink, Path],
) -> None:
    link, path = burst_link
    seen: list[tuple[str, Any, set[str]]] = []
    link.client.ack = (  # type: ignore[method-assign]
        lambda mid, qos: seen.append(("ack", mid, committed(path))))
    send = link.send_command

    def command(board: str, kind: str, **kw: Any) -> str:
        seen.append((kind, kw.get("match_id"), committed(path)))
        return send(board, kind, **kw)

    link.send_command = command  # type: ignore[method-assign]
    check_gap = link.gaps.check_gap

    def gap(board: str, match_id: int, seq: int) -> None:
        seen.append(("gap check", seq, committed(path)))
        check_gap(board, match_id, seq)

    link.gaps.check_gap = gap  # type: ignore[method-assign]
    # Match 1 stops at step 2 without an end; the board's next match makes the hub ask for
    # the rest of match 1 (a resend request), and step 4 of match 2 leaves a gap at 3.
    burst = [step("b1", 1, 1, 1), step("b1", 1, 2, 2), step("b1", 2, 1, 3),
             step("b1", 2, 2, 4), step("b1", 2, 4, 5)]
    link.bursts.take_burst([(0, m) for m in burst])
    everything = {"b1:1:1", "b1:1:2", "b1:2:1", "b1:2:2", "b1:2:4"}
    assert [s[:2] for s in seen if s[0] == "ack"] == [("ack", mid) for mid in range(1, 6)]
    assert ("resend", 1) in [s[:2] for s in seen]
    assert len([s for s in seen if s[0] == "gap check"]) == 5
    for what, _, on_disk in seen:
        assert on_disk == everything, f"{what} before the commit"
    # the gap (step 3 of match 2) is asked for once its grace is over, from step 2, and no
    # more once step 3 is stored
    MONOTONIC.advance(GAP_GRACE)
    asked: list[tuple[str, Any]] = []

    def asking(board: str, kind: str, **kw: Any) -> str:
        asked.append((kind, kw))
        return send(board, kind, **kw)

    link.send_command = asking  # type: ignore[method-assign]
    assert link.gaps.request_missing() == 1
    assert asked == [("resend", {"match_id": 2, "after": 2})]
    link.handle("skitter/b1/events", step("b1", 2, 3, 6).payload)
    MONOTONIC.advance(RESEND_EVERY)
    assert link.gaps.request_missing() == 0


def test_a_burst_the_disk_refuses_is_not_acknowledged_and_is_tried_again(
    burst_link: tuple[HubLink, Path], monkeypatch: pytest.MonkeyPatch,
) -> None:
    link, path = burst_link
    monkeypatch.setattr(bursts, "STORE_AGAIN", 0.01)
    acked: list[tuple[int, set[str]]] = []
    link.client.ack = lambda mid, qos: acked.append((mid, committed(path)))  # type: ignore[method-assign]
    store_message = link.bursts.store_message
    failures = []

    def failing(topic: str, payload: bytes) -> Any:
        if len(failures) < 2:
            failures.append(topic)
            raise sqlite3.OperationalError("disk I/O error")
        return store_message(topic, payload)

    link.bursts.store_message = failing  # type: ignore[method-assign]
    assert link.bursts.take_burst([(0, step("b1", 1, 1, 1)), (0, step("b1", 1, 2, 2))])
    assert len(failures) == 2
    assert acked == [(1, {"b1:1:1", "b1:1:2"}), (2, {"b1:1:1", "b1:1:2"})]


def test_a_message_of_an_earlier_connection_is_stored_but_left_for_the_broker_to_resend(
    burst_link: tuple[HubLink, Path],
) -> None:
    link, _ = burst_link
    acked: list[int] = []
    link.client.ack = lambda mid, qos: acked.append(mid)  # type: ignore[method-assign]
    for _ in range(2):  # connected, and reconnected since: mid 1 of the first means nothing
        link.client.on_connect(link.client, None, None, Reason(), None)  # type: ignore[arg-type]
    link.bursts.take_burst([(1, step("b1", 1, 1, 1)), (2, step("b1", 1, 2, 1))])
    assert acked == [1] and link.store.seqs("b1", 1) == [1, 2]


def test_a_bad_message_in_a_burst_costs_only_itself(burst_link: tuple[HubLink, Path]) -> None:
    link, _ = burst_link
    acked: list[int] = []
    link.client.ack = lambda mid, qos: acked.append(mid)  # type: ignore[method-assign]
    bad = Message("skitter/b1/events", b"{not json", 2)
    link.bursts.take_burst([(0, step("b1", 1, 1, 1)), (0, bad), (0, step("b1", 1, 2, 3))])
    assert link.store.seqs("b1", 1) == [1, 2]
    assert link.store.counter("rejected") == 1
    assert acked == [1, 2, 3]
