"""Shot review: every sensed step keeps its sensor timeline, and the timeline replayed through
the pipeline gives the same reading and the same step.

A match is played through the production wiring (``test_end_to_end_sources``) on the
simulated board and on the emulated microcontroller over a serial pty; then each sensed
step's review file is played back by the replay source (as ``--source replay:FILE`` does)
through a fresh pipeline, and the tracker's shot from that reading is the logged step.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from source_rigs import PROFILE, SerialRig, SimRig, check, run_table

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.sources import open_source
from firmware_bridge.timeline import reading_json
from scorekeeper.clock import FakeClock
from scorekeeper.events import parse_event
from scorekeeper.expectation import Expectation, shot_from_reading
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.reading import BoardReading
from scorekeeper.store import MatchStore
from web.table.match_log import LogEntry
from web.table.review import review_file

pytestmark = pytest.mark.unit


def replay_reading(path: Path) -> list[BoardReading]:
    """Play a review file through ``replay:FILE`` and a fresh pipeline: the readings."""
    clock = FakeClock(500.0)
    source = open_source(f"replay:{path}", PROFILE, clock, speed=1.0)
    source.start()
    pipeline = Pipeline(PROFILE, clock, initial=source.snapshot())
    readings: list[BoardReading] = []
    for _ in range(2000):
        readings += pipeline.pump(source)
        clock.advance(0.005)
        if readings and pipeline.at_rest() and source.finished:  # type: ignore[attr-defined]
            break
    return readings


def sensed_steps(db: Path) -> tuple[Any, list[tuple[Any, dict[str, Any]]]]:
    with MatchStore(db) as store:
        match_id = store.latest_match_id()
        assert match_id is not None
        stored = store.load(match_id)
        timelines = store.timelines(match_id)
    return stored, [(e, timelines[e.seq]) for e in stored.events if e.seq in timelines]


def assert_every_shot_replays(db: Path, tmp_path: Path) -> int:
    stored, steps = sensed_steps(db)
    sensed = [e for e in stored.events if e.source == "sensor"]
    assert sensed and len(steps) == len(sensed), "every sensed step keeps its timeline"
    rules, setup = Rules.from_json(dict(stored.rules)), Setup.from_json(dict(stored.setup))
    for event, timeline in steps:
        entry = LogEntry(event.seq, event.at, event.source, parse_event(event.body), "", [], {},
                         0)
        path = tmp_path / f"step{event.seq}.review.json"
        path.write_text(json.dumps(review_file(entry, timeline, PROFILE, stored.id, {})))
        readings = replay_reading(path)
        assert [reading_json(r) for r in readings] == [timeline["reading"]], event.seq
        before = Match.replay(rules, setup, [e.body for e in stored.events if e.seq < event.seq])
        shot = shot_from_reading(readings[0], Expectation.from_state(before.state))
        assert shot is not None and {"shot": shot.to_json()} == event.body, event.seq
    return len(steps)


def test_a_match_on_the_simulated_board_replays_shot_by_shot(tmp_path: Path) -> None:
    clock = FakeClock(10.0)
    check(run_table(SimRig(clock), clock, tmp_path, lambda: None))
    assert assert_every_shot_replays(tmp_path / "log.db", tmp_path) >= 10


def test_a_match_over_the_serial_link_replays_shot_by_shot(tmp_path: Path) -> None:
    clock = FakeClock(10.0)
    rig = SerialRig(clock, tmp_path / "ttyACM-skitter")

    try:
        check(run_table(rig, clock, tmp_path, rig.wait_link_up))
    finally:
        rig.close()
    assert assert_every_shot_replays(tmp_path / "log.db", tmp_path) >= 10
