"""Recording raw events and replaying them: the same readings, at the table or at a desk."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.replay import RecordingSource, ReplaySource, read_log
from firmware_bridge.simulator import SimulatedBoard
from firmware_bridge.source import Source, SourceError
from scorekeeper.clock import FakeClock
from scorekeeper.reading import BoardReading

pytestmark = pytest.mark.unit


def drive(source, clock: FakeClock, steps: int, script=None) -> list[BoardReading]:
    """Poll ``source`` into a fresh pipeline every 10 ms; ``script[i]`` runs at step i."""
    pipeline = Pipeline(load_profile(), clock)
    readings = []
    for i in range(steps):
        if script and i in script:
            script[i]()
        clock.advance(0.01)
        readings += pipeline.pump(source)
    return readings


def a_session(tmp_path: Path) -> tuple[Path, list[BoardReading]]:
    clock = FakeClock(100.0)
    board = SimulatedBoard(load_profile(), clock)
    path = tmp_path / "session.jsonl"
    source = RecordingSource(board, path, clock=clock, profile="default")
    source.start()
    script = {
        50: lambda: board.press_launch("black"),
        55: lambda: board.place_skitt("white.red"),
        57: lambda: board.chatter(20, 2),
        120: lambda: board.place_big("white"),
        200: lambda: board.bridge("white.red", "white.yellow"),
        260: lambda: board.set_count("minus", 3),
    }
    readings = drive(source, clock, 400, script)
    source.close()
    return path, readings


def test_replay_of_a_recorded_log_equals_the_original_readings(tmp_path):
    path, original = a_session(tmp_path)
    assert len(original) == 5
    clock = FakeClock(100.0)
    replay = ReplaySource(path, clock)
    replay.start()
    replayed = drive(replay, clock, 400)
    assert replayed == original
    assert replay.finished


def test_replay_at_double_speed_ends_on_the_same_board_in_half_the_time(tmp_path):
    # Faster replay squeezes the gaps, so still periods may merge; the board is the same.
    path, original = a_session(tmp_path)
    clock = FakeClock(0.0)
    replay = ReplaySource(path, clock, speed=2.0)
    replay.start()
    replayed = drive(replay, clock, 200)
    assert replay.finished
    assert replayed[-1].counts == original[-1].counts
    assert replayed[-1].bridges == original[-1].bridges


def test_speed_zero_hands_out_everything_at_once(tmp_path):
    path, _ = a_session(tmp_path)
    clock = FakeClock(0.0)
    replay = ReplaySource(path, clock, speed=0)
    events = replay.poll()
    assert len(events) == len(read_log(path).events)
    assert replay.poll() == [] and replay.finished


def test_recording_writes_a_header_and_one_line_per_event(tmp_path):
    path, _ = a_session(tmp_path)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"skitter_sensor_log": 1, "profile": "default",
                                    "cells": 128, "active": []}
    first = json.loads(lines[1])
    assert first == {"t": pytest.approx(0.5), "cell": 38, "active": True}


def test_recorder_keeps_the_initial_board_in_the_header(tmp_path):
    clock = FakeClock()
    board = SimulatedBoard(load_profile(), clock)
    board.magnet_arrives(16)
    source = RecordingSource(board, tmp_path / "log.jsonl", clock=clock)
    source.start()
    source.close()
    replay = ReplaySource(tmp_path / "log.jsonl", clock)
    assert [(e.cell, e.active) for e in replay.poll()] == [(16, True)]


def test_bad_lines_are_skipped_counted_and_reported(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text("\n".join([
        '{"skitter_sensor_log": 1, "profile": "default", "cells": 128}',
        '{"t": 0.1, "cell": 16, "active": true}',
        "garbage{",
        '{"t": 0.2, "cell": 199, "active": true}',
        '{"t": 0.05, "cell": 17, "active": true}',
        '{"t": 0.3, "cell": 17, "active": "yes"}',
        '{"t": 0.4, "cell": 17, "active": true}',
    ]) + "\n")
    clock = FakeClock()
    replay = ReplaySource(path, clock, speed=0)
    assert [(e.cell, e.at) for e in replay.poll()] == [(16, 0.1), (17, 0.4)]
    status = replay.status()
    assert status.up and status.degraded and status.errors == 4
    assert "skipped 4 bad line(s) in log.jsonl (line 3: not JSON)" in status.message


def test_log_without_header_cannot_be_replayed(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text('{"t": 0.1, "cell": 16, "active": true}\n')
    with pytest.raises(SourceError, match="not a skitter sensor log"):
        ReplaySource(path, FakeClock())


def test_missing_log_is_a_source_error(tmp_path):
    with pytest.raises(SourceError, match="cannot be read"):
        ReplaySource(tmp_path / "nope.jsonl", FakeClock())


def test_replay_and_recording_sources_are_sources(tmp_path):
    path, _ = a_session(tmp_path)
    assert isinstance(ReplaySource(path, FakeClock()), Source)
    board = SimulatedBoard(load_profile(), FakeClock())
    assert isinstance(RecordingSource(board, tmp_path / "x.jsonl"), Source)
