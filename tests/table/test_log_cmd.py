"""``skitter log``: list, export and import match logs without losing or inventing anything."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.clock import FakeClock
from scorekeeper.store import MatchStore
from skitter_cli import log as log_cmd
from skitter_cli.main import build_parser, main

SETUP = {"first": "black", "big": {"black": "center", "white": "center"}}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "skitter.db"
    with MatchStore(path) as store:
        m = store.create_match({"variant": "classic"}, SETUP, {"black": "Ann", "white": "Bo"},
                               at=1_700_000_000.0)
        store.append(m, {"shot": {"by": "black", "delta": {"white.red": 1}}}, at=1_700_000_001.0,
                     source="sensor")
        store.append(m, {"shot": {"by": "white", "delta": {}}}, at=1_700_000_002.0)
    return path


def run(*argv: str) -> int:
    return main(["log", *argv])


def test_list_shows_each_match_with_names_and_event_count(db, capsys, monkeypatch):
    monkeypatch.delenv("SKITTER_CONFIG", raising=False)
    assert run("--db", str(db)) == 0
    out = capsys.readouterr().out
    assert "Ann vs Bo" in out and "2 events" in out


def test_list_calls_a_match_without_names_by_the_seats(db, capsys, monkeypatch):
    monkeypatch.delenv("SKITTER_CONFIG", raising=False)
    with MatchStore(db) as store:
        store.create_match({"variant": "classic"}, SETUP, {"white": ""}, at=1_700_000_100.0)
    assert run("--db", str(db)) == 0
    assert "First player vs Second player" in capsys.readouterr().out


def test_export_then_import_gives_an_identical_match(db, tmp_path, capsys):
    export = tmp_path / "match.jsonl"
    assert run("--db", str(db), "--export", "latest", "-o", str(export)) == 0
    lines = export.read_text().splitlines()
    assert json.loads(lines[0])["match"]["names"] == {"black": "Ann", "white": "Bo"}
    assert run("--db", str(db), "--import", str(export)) == 0
    assert "as match 2 (2 events)" in capsys.readouterr().out
    with MatchStore(db) as store:
        a, b = store.load(1), store.load(2)
    assert a.events == b.events and a.setup == b.setup


def test_an_import_the_rules_refuse_adds_nothing(db, tmp_path, capsys):
    export = tmp_path / "match.jsonl"
    run("--db", str(db), "--export", "1", "-o", str(export))
    lines = export.read_text().splitlines()
    # Someone edited the log: white now shoots out of turn.
    lines[1] = lines[1].replace('"by": "black"', '"by": "white"')
    export.write_text("\n".join(lines) + "\n")
    assert run("--db", str(db), "--import", str(export)) == 1
    assert "the rules refuse this log" in capsys.readouterr().err
    with MatchStore(db) as store:
        assert store.latest_match_id() == 1


def test_a_damaged_import_names_the_line(db, tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"match": {"format": 1}}\nnot json\n')
    assert run("--db", str(db), "--import", str(bad)) == 1
    assert "line 2: not JSON" in capsys.readouterr().err


def test_export_of_an_unknown_match_is_a_clear_error(db, capsys):
    assert run("--db", str(db), "--export", "7") == 1
    assert "no match 7" in capsys.readouterr().err


def test_list_never_prints_control_or_direction_characters_raw(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("SKITTER_CONFIG", raising=False)
    path = tmp_path / "odd.db"
    with MatchStore(path) as store:
        store.create_match({"variant": "classic"}, SETUP,
                           {"black": "Ann\x1b[2J\u202eoB", "white": "Zoë\nX"}, at=1_700_000_000.0)
    assert run("--db", str(path)) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and out.count("\n") == 1
    assert "Ann\\u001b[2J\\u202eoB vs Zoë\\u000aX" in out


def test_pruning_counts_the_days_back_from_the_clock_it_is_given(tmp_path: Path, capsys) -> None:
    timeline = {"v": 1, "before": [36], "changes": [[0, 16, 1]], "settled_ms": 330,
                "reading": {"counts": {"white.red": 1}}}
    path = tmp_path / "skitter.db"
    day = 86400.0
    with MatchStore(path) as store:
        m = store.create_match({}, SETUP, at=0.0)
        for at in (10 * day, 40 * day):
            store.append(m, {"shot": {"by": "black", "delta": {}}}, at=at, source="sensor",
                         timeline=timeline)
    args = build_parser().parse_args(["log", "--db", str(path), "--prune-timelines", "30"])
    assert log_cmd.run(args, wall=FakeClock(45 * day)) == 0  # cut-off: day 15
    assert "removed 1 shot timeline" in capsys.readouterr().out
    with MatchStore(path) as store:
        assert store.timeline(m, 1) is None and store.timeline(m, 2) == timeline
