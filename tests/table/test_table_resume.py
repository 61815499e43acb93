"""A restarted table is the same table: state and match log rebuilt exactly from the store."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


def test_a_refused_log_is_told_in_the_players_names_and_the_readers_language(
        tmp_path: Path) -> None:
    """``skitter serve`` and the tablet's "take up an earlier match" tell the referee why a
    stored match cannot be played on: which step, and the rules' reason in the players'
    names, in the reader's language; never the engine's "white"/"black" or its state dump."""
    from scorekeeper.words import refusal
    from web_common.i18n import language

    db = tmp_path / "log.db"
    with MatchStore(db) as store:
        m = store.create_match({}, {"first": "black", "big": CENTER},
                               {"black": "Ann", "white": "Bo"}, at=0.0)
        store.append(m, {"shot": {"by": "black", "delta": {"white.red": 1}}}, at=1.0)
        store.append(m, {"shot": {"by": "black", "delta": {}}}, at=2.0)  # out of turn
    with pytest.raises(StoreError) as caught:
        table_on(db, FakeClock(0.0))
    err = caught.value
    assert err.why is not None and err.names == {"black": "Ann", "white": "Bo"}
    assert refusal(err.why, err.names) == (
        f"Not possible: match 1 in {db} cannot be played on: its step 2 is refused: Ann shot "
        "out of turn, Bo is due (R1)")
    assert refusal(err.why, err.names, language("de")) == (
        f"Nicht möglich: Partie 1 in {db} kann nicht weitergespielt werden: ihr Schritt 2 wird "
        "abgelehnt: Ann hat außer der Reihe geschossen, Bo ist dran (R1)")


def test_taking_up_a_refused_earlier_match_names_its_own_players(
        tmp_path: Path, make_client: Any) -> None:
    """The tablet's "take up an earlier match" refuses a stored match the rules refuse,
    telling it in that match's players' names (not those of the match in play), in the
    reader's language; the match in play stays."""
    from web_helpers import logged_in

    db = tmp_path / "skitter.db"  # the log make_client opens
    with MatchStore(db) as store:
        m = store.create_match({}, {"first": "black", "big": CENTER},
                               {"black": "Cy", "white": "Di"}, at=0.0)
        store.append(m, {"shot": {"by": "white", "delta": {}}}, at=1.0)  # out of turn
        store.create_match({}, {"first": "black", "big": CENTER},
                           {"black": "Ann", "white": "Bo"}, at=5.0)
    client = logged_in(make_client())
    seq = client.get("/api/state").json()["seq"]
    r = client.post("/api/match/resume", json={"seq": seq, "match_id": 1},
                    headers={"Accept-Language": "de"})
    assert r.status_code == 422, r.text
    assert r.json()["message"] == (
        f"Nicht möglich: Partie 1 in {db} kann nicht weitergespielt werden: ihr Schritt 1 "
        "wird abgelehnt: Di hat außer der Reihe geschossen, Cy ist dran (R1)")
    assert client.get("/api/state").json()["names"] == {"black": "Ann", "white": "Bo"}
