"""The match log: append-only, committed before acknowledged, rebuilt exactly on reopen."""

from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from scorekeeper.store import MatchStore, StoreError

RULES = {"variant": "classic", "pot": 20}
SETUP = {"first": "black", "big": {"black": "center", "white": "center"}}
SHOT = {"shot": {"by": "black", "delta": {"white.red": 1}}}


@pytest.fixture
def store(tmp_path):
    s = MatchStore(tmp_path / "log.db")
    try:
        yield s
    finally:
        s.close()


def test_events_get_consecutive_sequence_numbers(store):
    m = store.create_match(RULES, SETUP, {"black": "Ann", "white": "Bo"}, at=1.0)
    assert store.append(m, SHOT, at=2.0, source="sensor") == 1
    assert store.append(m, {"undo": True}, at=3.0) == 2
    assert [e.seq for e in store.load(m).events] == [1, 2]


def test_reopening_the_file_gives_back_every_event(tmp_path):
    with MatchStore(tmp_path / "log.db") as s:
        m = s.create_match(RULES, SETUP, {"black": "Ann"}, at=1.0)
        s.append(m, SHOT, at=2.0, source="sensor")
    with MatchStore(tmp_path / "log.db") as s:
        loaded = s.load(m)
    assert loaded.rules == RULES and loaded.setup == SETUP
    assert loaded.names == {"black": "Ann"}
    assert loaded.events[0].body == SHOT
    assert loaded.events[0].source == "sensor"


def test_the_file_uses_write_ahead_logging(tmp_path):
    MatchStore(tmp_path / "log.db").close()
    db = sqlite3.connect(tmp_path / "log.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_acknowledged_event_survives_a_killed_process(tmp_path):
    # The child appends and prints "ack", then dies without closing anything.
    path = tmp_path / "log.db"
    code = textwrap.dedent(
        f"""
        import os, sys
        from scorekeeper.store import MatchStore
        s = MatchStore({str(path)!r})
        m = s.create_match({{}}, {{}}, {{}}, at=0.0)
        s.append(m, {SHOT!r}, at=1.0)
        print("ack", flush=True)
        os.kill(os.getpid(), 9)
        """
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stdout.strip() == "ack"
    with MatchStore(path) as s:
        assert s.load(s.latest_match_id()).events[0].body == SHOT


def test_latest_match_is_the_newest(store):
    assert store.latest_match_id() is None
    store.create_match(RULES, SETUP, at=1.0)
    second = store.create_match(RULES, SETUP, at=2.0)
    assert store.latest_match_id() == second
    assert [m["id"] for m in store.list_matches()][0] == second


def test_unknown_match_is_a_clear_error(store):
    with pytest.raises(StoreError, match="no match 42"):
        store.load(42)


def test_export_and_import_round_trip(store):
    m = store.create_match(RULES, SETUP, {"black": "Ann"}, at=1.0)
    store.append(m, SHOT, at=2.0, source="sensor")
    store.append(m, {"undo": True}, at=3.0)
    buf = io.StringIO()
    assert store.export_jsonl(m, buf) == 2
    copy = store.import_jsonl(buf.getvalue().splitlines())
    a, b = store.load(m), store.load(copy)
    assert copy != m
    assert (a.rules, a.setup, a.names, a.events) == (b.rules, b.setup, b.names, b.events)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "no match header"),
        (["not json"], "line 1: not JSON"),
        (['{"x": 1}'], "expected the header"),
        (['{"match": {"format": 9}}'], "unknown export format 9"),
        (
            ['{"match": {"format": 1}}', '{"seq": 2, "at": 1, "source": "s", "event": {}}'],
            "seq 2 out of order",
        ),
        (
            ['{"match": {"format": 1}}', '{"seq": 1, "at": "x", "source": "s", "event": {}}'],
            "key 'at'",
        ),
    ],
)
def test_a_bad_import_names_the_problem_and_adds_nothing(store, lines, message):
    with pytest.raises(StoreError, match=message):
        store.import_jsonl(lines)
    assert store.latest_match_id() is None


def test_export_lines_are_json(store):
    m = store.create_match(RULES, SETUP, at=1.0)
    store.append(m, SHOT, at=2.0)
    buf = io.StringIO()
    store.export_jsonl(m, buf)
    first, second = (json.loads(x) for x in buf.getvalue().splitlines())
    assert first["match"]["rules"] == RULES
    assert second == {"seq": 1, "at": 2.0, "source": "manual", "event": SHOT}


def test_an_events_key_order_is_kept_as_played(store):
    # The scoreboard describes a shot's fields in the order they came; a restart must too.
    m = store.create_match(RULES, SETUP, at=1.0)
    body = {"shot": {"by": "black", "delta": {"white.red": 1, "black.blue": -1}}}
    store.append(m, body, at=2.0)
    stored = store.load(m).events[0].body
    assert list(stored["shot"]["delta"]) == ["white.red", "black.blue"]
    buf = io.StringIO()
    store.export_jsonl(m, buf)
    exported = json.loads(buf.getvalue().splitlines()[1])["event"]
    assert list(exported["shot"]["delta"]) == ["white.red", "black.blue"]
