"""A sensed shot's way around a committed value (docs/architecture.md): the watch returns
what it decided and stores nothing, the writer's commit returns what it committed, and the
table publishes that value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper.clock import FakeClock
from scorekeeper.events import Shot, ShotEvent
from scorekeeper.store import MatchStore
from scorekeeper.tracker import Expectation
from web.table.errors import Refused, Stale
from web.table.feed import Feed
from web.table.live import LiveMatch
from web.table.table import Table
from web.table.watch import Sensed, Watch
from web.table.wiring import open_sensing

NAMES = {"black": "Ann", "white": "Bo"}
CENTER = {"black": "center", "white": "center"}


def test_the_writers_commit_returns_what_it_committed_and_later_steps_leave_it(
    tmp_path: Path,
) -> None:
    clock = FakeClock(100.0)
    with MatchStore(tmp_path / "log.db") as store:
        live = LiveMatch(store, clock)
        started = live.start({}, {"first": "black", "big": CENTER}, NAMES, {})
        assert started.new == () and started.names == NAMES and started.match_id == live.match_id
        shot = ShotEvent(Shot(by="black", delta={"white.red": 1}))
        first = live.commit([shot], source="sensor")
        assert [e.event for e in first.new] == [shot]
        assert store.load(live.match_id).events[-1].body == shot.to_json()
        live.commit([ShotEvent(Shot(by="white"))], source="manual")
        assert len(first.log.entries) == 1 and len(first.match.events) == 1
        assert len(live.log.entries) == 2
        with pytest.raises(Refused):
            live.commit([ShotEvent(Shot(by="white"))], source="manual")  # black is due
        assert len(live.match.events) == 2


def test_the_table_publishes_the_value_its_commit_returned(tmp_path: Path) -> None:
    clock = FakeClock(100.0)
    sent: list[dict[str, Any]] = []
    table = Table(MatchStore(tmp_path / "log.db"), clock=clock, wall=clock, publish=sent.append)
    try:
        table.new_match({}, {"first": "black", "big": CENTER}, NAMES, {})
        effects = table.apply_step({"shot": {"by": "black", "delta": {"white.red": 1}}})
        assert effects == list(table.committed.new[0].effects)
        assert sent[-1] is table.published and sent[-1]["seq"] == table.seq
        assert sent[-1]["log_length"] == len(table.committed.log.entries) == 1
        assert sent[-1]["version"] == sent[-1]["seq"]  # the match changed with this state
    finally:
        table.close()


def test_the_feed_sends_each_landing_and_the_watch_judges_it_against_the_match_after_the_last(
) -> None:
    """The sensing thread's feed sends what the sensors did; the owner's watch judges each
    input in order and says what it concluded, storing nothing: the owner stores the shot
    (and tells the watch the match it leaves) before it takes the next input."""
    clock = FakeClock(10.0)
    sensing = open_sensing("sim", clock)
    feed = Feed(sensing, clock, source_name="sim")
    watch = Watch()
    concluded: list[Sensed] = []

    def poll() -> None:
        clock.advance(0.05)
        inputs, _ = feed.poll()
        for item in inputs:
            sensed = watch.take(item)
            if sensed is not None:
                concluded.append(sensed)
                watch.expect(Expectation(board=dict(sensed.shot.shot.delta), turn="white",
                                         playing=True), after_shot=True)
    try:
        expected = Expectation(board={}, turn="black", playing=True)
        feed.expect(expected, lay_out=True)
        watch.expect(expected)
        for _ in range(30):  # the board settles as laid out
            poll()
        assert concluded == []
        assert sensing.simulator is not None
        sensing.simulator.place_skitt("white.red")
        for _ in range(30):
            poll()
        assert [(s.shot.shot.by, s.shot.shot.delta) for s in concluded] == [
            ("black", {"white.red": 1})]
        assert concluded[0].timeline is not None and concluded[0].landed is not None
        sensing.simulator.place_skitt("white.blue")
        for _ in range(30):
            poll()
        assert [(s.shot.shot.by, s.shot.shot.delta) for s in concluded[1:]] == [
            ("white", {"white.blue": 1})]
    finally:
        feed.close()


def test_the_committed_value_carries_the_state_it_was_published_as(tmp_path: Path) -> None:
    """Issue 26: what was committed is one value with its match, its new entries and its
    seq; the snapshots' ``version`` and the staleness check are that seq, and a state that
    changes only the sensing side leaves it."""
    clock = FakeClock(100.0)
    sent: list[dict[str, Any]] = []
    table = Table(MatchStore(tmp_path / "log.db"), clock=clock, wall=clock, publish=sent.append)
    try:
        table.new_match({}, {"first": "black", "big": CENTER}, NAMES, {})
        started = table.committed
        assert started.seq == sent[-1]["seq"] == sent[-1]["version"] and started.new == ()
        table.apply_step({"shot": {"by": "black", "delta": {"white.red": 1}}})
        shot = table.committed
        assert shot.seq == sent[-1]["seq"] > started.seq and len(shot.new) == 1
        table.set_paused(True)  # the sensing side only: a new state, the same match
        assert sent[-1]["seq"] > shot.seq and sent[-1]["version"] == shot.seq
        assert table.committed is shot
        table.check_seq(shot.seq)
        with pytest.raises(Stale):
            table.check_seq(started.seq)  # made against the match before the shot
    finally:
        table.close()
