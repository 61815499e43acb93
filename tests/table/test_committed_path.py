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
from web.table.live import LiveMatch
from web.table.table import Table
from web.table.watch import Watch
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


def test_the_watch_returns_a_concluded_shot_and_holds_judging_until_released() -> None:
    clock = FakeClock(10.0)
    sensing = open_sensing("sim", clock)
    watch = Watch(sensing, clock, source_name="sim")
    try:
        expected = Expectation(board={}, turn="black", playing=True)
        watch.expect(expected, lay_out=True)
        for _ in range(30):  # the board settles as laid out
            clock.advance(0.05)
            assert watch.tick().sensed is None
        assert sensing.simulator is not None
        sensing.simulator.place_skitt("white.red")
        found = None
        for _ in range(30):
            clock.advance(0.05)
            polled = watch.tick()
            if polled.sensed is not None:
                found = polled.sensed
                break
        assert found is not None and found.epoch == watch.epoch
        assert found.shot.shot.by == "black" and found.shot.shot.delta == {"white.red": 1}
        sensing.simulator.place_skitt("white.blue")
        for _ in range(30):  # held: the next reading waits for the writer, none is lost
            clock.advance(0.05)
            assert watch.tick().sensed is None
        watch.release()
        watch.expect(Expectation(board={"white.red": 1}, turn="white", playing=True),
                     after_shot=True)
        clock.advance(0.05)
        later = watch.tick().sensed
        assert later is not None and later.shot.shot.delta == {"white.blue": 1}
    finally:
        watch.close()


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
