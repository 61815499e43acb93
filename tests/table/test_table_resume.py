"""A restarted table is the same table: state and match log rebuilt exactly from the store."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.clock import FakeClock
from scorekeeper.store import MatchStore, StoreError
from web.table.table import Table
from web.table.wiring import open_table

CENTER = {"black": "center", "white": "center"}
STEPS = [
    {"shot": {"by": "black", "delta": {"white.red": 1}}},
    {"shot": {"by": "white", "delta": {"black.blue": 1}}},
    {"shot": {"by": "black", "delta": {"white.red": 1}}},
    {"undo": True},
    {"shot": {"by": "black", "delta": {"white.red": 1}, "off_board": 1}},
    {"decide": {"by": "black", "red": ["back"]}},
    {"correct": {"score": {"white": 2}, "reason": "the referee saw it"}},
]


def table_on(db: Path, clock: FakeClock) -> Table:
    return open_table(db, "sim", clock=clock, wall=clock)


def test_a_restarted_table_shows_the_same_state_and_log(tmp_path: Path) -> None:
    clock = FakeClock(100.0)
    first = table_on(tmp_path / "log.db", clock)
    first.new_match({}, {"first": "black", "big": CENTER, "board": {"white.red": 2}},
                    {"black": "Ann", "white": "Bo"}, {})
    for step in STEPS:
        clock.advance(1.0)
        first.apply_step(step, source="manual")
    before_state, before_log = first.match.state, first.full_log()
    first.close()
    second = table_on(tmp_path / "log.db", clock)
    try:
        assert second.match.state == before_state
        assert second.full_log() == before_log
        assert second.names == {"black": "Ann", "white": "Bo"}
    finally:
        second.close()


def test_a_log_the_rules_refuse_is_not_taken_for_a_match(tmp_path: Path) -> None:
    db = tmp_path / "log.db"
    with MatchStore(db) as store:
        m = store.create_match({}, {"first": "black"}, {}, at=0.0)
        store.append(m, {"shot": {"by": "white", "delta": {}}}, at=1.0)  # out of turn
    with pytest.raises(StoreError, match=r"match 1 .* cannot be replayed: step 1"):
        table_on(db, FakeClock(0.0))
