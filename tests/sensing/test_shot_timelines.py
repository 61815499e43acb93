"""Shot timelines in the pipeline and the match log: recorded with their step, bounded,
prunable without touching the steps, carried by export and import, replayable."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

import pytest

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.replay import read_log
from firmware_bridge.source import SensorEvent, SourceError
from firmware_bridge.sources import open_source
from firmware_bridge.timeline import Timeline, TimelineRecorder, reading_json
from scorekeeper.clock import FakeClock
from scorekeeper.reading import BoardReading
from scorekeeper.store import MatchStore, StoreUnwritable
from skitter_cli.main import main

PROFILE = load_profile()
SETUP = {"first": "black", "big": {"black": "center", "white": "center"}}
SHOT = {"shot": {"by": "black", "delta": {"white.red": 1}}}
TIMELINE = {"v": 1, "before": [36], "changes": [[0, 16, 1]], "settled_ms": 330,
            "reading": {"counts": {"white.red": 1}}}


def run_pipeline(events: list[tuple[float, int, bool]]) -> tuple[Pipeline, list[BoardReading]]:
    clock = FakeClock(0.0)
    pipeline = Pipeline(PROFILE, clock, initial=[36, 37])
    readings: list[BoardReading] = []
    pending = sorted(events)
    while clock.now() < 5.0:
        due = [e for e in pending if e[0] <= clock.now()]
        pending = pending[len(due):]
        pipeline.feed(SensorEvent(cell, on, at) for at, cell, on in due)
        readings += pipeline.tick()
        clock.advance(0.005)
    return pipeline, readings


def test_a_busy_shot_with_bounces_replays_to_the_same_reading(tmp_path: Path) -> None:
    # A skitt bounces over white.red (blips shorter than the debounce), lands, and knocks
    # another into the minus field, which rolls across two cells.
    shot = [(1.0, 16, True), (1.004, 16, False), (1.010, 16, True), (1.1, 32, True),
            (1.15, 32, False), (1.16, 33, True), (1.162, 40, True), (1.2, 40, False)]
    first, readings = run_pipeline([(0.0, 36, True), *shot])
    timeline = first.last_timeline
    assert timeline is not None and readings
    assert len(timeline.changes) >= 4 and timeline.before == frozenset({36, 37})
    review = {"skitter_review": 1, "profile": PROFILE.name, "cells": PROFILE.cells,
              "timeline": timeline.to_json(), "step": {}}
    path = tmp_path / "busy.review.json"
    path.write_text(json.dumps(review))
    clock = FakeClock(100.0)
    source = open_source(f"replay:{path}", PROFILE, clock)
    source.start()
    again = Pipeline(PROFILE, clock, initial=source.snapshot())
    replayed: list[BoardReading] = []
    for _ in range(400):
        replayed += again.pump(source)
        clock.advance(0.005)
    assert [reading_json(r) for r in replayed] == [timeline.reading]
    assert again.last_timeline is not None
    assert [(c.cell, c.active) for c in again.last_timeline.changes] == [
        (c.cell, c.active) for c in timeline.changes]


def test_a_timeline_is_capped_and_says_so() -> None:
    recorder = TimelineRecorder([1], limit=3)
    for i in range(5):
        recorder.change(2, i % 2 == 0, 10.0 + i / 10)
    timeline = recorder.finish(BoardReading(counts={}, at=11.0), frozenset({1, 2}), frozenset())
    assert len(timeline.changes) == 3 and timeline.cut == 2
    assert "changed 5 times" in timeline.to_json()["note"]
    assert Timeline.from_json(timeline.to_json()) == timeline


@pytest.mark.parametrize("bad, words", [
    ({**TIMELINE, "changes": [[5, 1, 1], [2, 1, 0]]}, "backwards"),
    ({**TIMELINE, "changes": [[5, 1, 2]]}, "timeline.changes[0]"),
    ({**TIMELINE, "v": 9}, "timeline.v"),
    ([], "expected an object"),
])
def test_a_damaged_timeline_is_refused_naming_what_is_wrong(bad, words, tmp_path) -> None:
    with pytest.raises(ValueError, match=words.replace("[", r"\[").replace("]", r"\]")):
        Timeline.from_json(bad)
    path = tmp_path / "bad.review.json"
    path.write_text(json.dumps({"skitter_review": 1, "cells": 48, "timeline": bad}))
    with pytest.raises(SourceError, match="bad.review.json"):
        read_log(path)


def test_a_timeline_is_written_with_its_step_or_not_at_all(tmp_path: Path) -> None:
    with MatchStore(tmp_path / "log.db") as store:
        m = store.create_match({}, {"first": "black"}, at=1.0)
        seq = store.append(m, SHOT, at=2.0, source="sensor", timeline=TIMELINE)
        assert store.timeline(m, seq) == TIMELINE
        assert store.append(m, {"undo": True}, at=3.0) == seq + 1
        assert store.timeline(m, seq + 1) is None
        with contextlib.closing(sqlite3.connect(tmp_path / "log.db")) as other:
            # the disk refuses timelines, set from outside as any other writer of the file
            other.execute("CREATE TRIGGER no_tl BEFORE INSERT ON timelines "
                          "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
            other.commit()
        with pytest.raises(StoreUnwritable, match="match log cannot be written: disk full"):
            store.append(m, SHOT, at=4.0, source="sensor", timeline=TIMELINE)
        assert store.event_count(m) == 2  # the step went with its timeline


def test_pruning_removes_old_timelines_and_keeps_every_step(tmp_path: Path, capsys) -> None:
    db = tmp_path / "log.db"
    with MatchStore(db) as store:
        m = store.create_match({}, {"first": "black"}, at=1.0)
        store.append(m, SHOT, at=1000.0, source="sensor", timeline=TIMELINE)
        store.append(m, {"undo": True}, at=1001.0)
        store.append(m, SHOT, at=9e12, source="sensor", timeline=TIMELINE)
    assert main(["log", "--db", str(db), "--prune-timelines", "30"]) == 0
    assert "removed 1 shot timeline" in capsys.readouterr().out
    with MatchStore(db) as store:
        assert store.event_count(m) == 3
        assert store.timeline(m, 1) is None and store.timeline(m, 3) == TIMELINE
    with pytest.raises(SystemExit):
        main(["log", "--db", str(db), "--prune-timelines", "soon"])
    assert "DAYS must be a number" in capsys.readouterr().err


def test_export_carries_timelines_and_import_brings_them_back(tmp_path: Path) -> None:
    db, out = tmp_path / "log.db", tmp_path / "match.jsonl"
    with MatchStore(db) as store:
        m = store.create_match({}, SETUP, at=1.0)
        store.append(m, SHOT, at=2.0, source="sensor", timeline=TIMELINE)
        store.append(m, {"undo": True}, at=3.0)
    assert main(["log", "--db", str(db), "--export", str(m), "-o", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines[1]["timeline"] == TIMELINE and "timeline" not in lines[2]
    assert main(["log", "--db", str(db), "--import", str(out)]) == 0
    with MatchStore(db) as store:
        assert store.timelines(m + 1) == {1: TIMELINE}


def test_skitter_sensors_plays_a_review_file_back_to_the_same_reading(tmp_path, capsys) -> None:
    shot = [(1.0, 16, True), (1.004, 16, False), (1.010, 16, True), (1.2, 32, True)]
    first, _ = run_pipeline([(0.0, 36, True), *shot])
    assert first.last_timeline is not None
    path = tmp_path / "shot.review.json"
    path.write_text(json.dumps({"skitter_review": 1, "profile": PROFILE.name,
                                "cells": PROFILE.cells, "step": {},
                                "timeline": first.last_timeline.to_json()}))
    argv = ["sensors", "--source", f"replay:{path}", "--json", "--duration", "1.2"]
    assert main(argv) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    readings = [x for x in lines if x["type"] == "reading"]
    assert readings, lines[-1]
    last = readings[-1]
    del last["type"], last["at"]
    assert last == first.last_timeline.reading
