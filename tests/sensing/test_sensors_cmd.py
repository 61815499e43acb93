"""`skitter sensors`: the live cell map for a builder, JSON lines for scripts."""

from __future__ import annotations

import io
import json

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.replay import read_log
from firmware_bridge.simulator import SimulatedBoard
from scorekeeper.clock import FakeClock
from skitter_cli.main import main
from skitter_cli.sensors import render_frame, stream


def bench():
    clock = FakeClock()
    profile = load_profile()
    board = SimulatedBoard(profile, clock)
    return clock, board, Pipeline(profile, clock)


def test_sensors_json_once_prints_one_frame_of_an_empty_board(capsys):
    assert main(["sensors", "--source", "sim", "--json", "--once"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    frame = json.loads(line)
    assert frame["type"] == "frame" and frame["source"] == "sim"
    assert frame["counts"] == dict.fromkeys(load_profile().field_names, 0)
    assert frame["active"] == [] and frame["link"]["up"] is True
    assert frame["big"] == {"black": False, "white": False}


def test_json_stream_prints_frames_on_change_and_settled_readings():
    clock, board, pipeline = bench()
    out = io.StringIO()
    board.place_skitt("white.red")
    board.place_big("black")
    stream(board, pipeline, clock, out, as_json=True, duration=1.0, interval=0.01,
           sleep=clock.advance)
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    frames = [x for x in lines if x["type"] == "frame"]
    readings = [x for x in lines if x["type"] == "reading"]
    assert frames[-1]["active"] == [16, 36] and frames[-1]["at_rest"] is True
    assert len(frames) < 10  # only on change, not every poll
    (reading,) = readings
    assert reading["counts"]["white.red"] == 1 and reading["big"]["black"] is True


def test_text_frame_shows_the_cell_map_counts_and_spots():
    clock, board, pipeline = bench()
    board.set_count("white.red", 2)
    board.bridge("white.red", "white.yellow")
    board.magnet_arrives(7)  # an unconnected pin shows too
    clock.advance(0.05)
    pipeline.pump(board)
    text = render_frame(board, pipeline)
    assert "board default · source sim · link up" in text
    assert "  0x21 A ■■□□□□□· B □□□□□■□·   (cells 16-31)" in text
    assert "  0x20 A □□□□□□□■ B □□□□□□□·   (cells 0-15)" in text
    assert "  white.red       2  ■■□□" in text
    assert "bridges: white.red/white.yellow" in text
    assert "big skitts: black -, white -" in text


def test_text_frame_names_a_flagged_cell_that_holds_play():
    clock, board, pipeline = bench()
    clock.advance(0.5)
    pipeline.pump(board)
    board.chatter(20, 4)
    clock.advance(0.1)
    pipeline.pump(board)
    text = render_frame(board, pipeline)
    assert "HELD: sensor cell 20 on white.yellow is jittery: check it or mute it" in text
    assert "  white.yellow    0  !□□□" in text


def test_sensors_can_record_a_raw_log(tmp_path, capsys):
    log = tmp_path / "raw.jsonl"
    assert main(["sensors", "--source", "sim", "--json", "--once", "--record", str(log)]) == 0
    assert read_log(log).header.cells == 128


def test_unknown_source_is_an_error_naming_it(capsys):
    assert main(["sensors", "--source", "dgt", "--once"]) == 2
    assert "unknown sensor source 'dgt'" in capsys.readouterr().err


def test_replay_log_can_be_shown(tmp_path, capsys):
    log = tmp_path / "raw.jsonl"
    log.write_text('{"skitter_sensor_log": 1, "profile": "default", "cells": 128, '
                   '"active": [32]}\n')
    argv = ["sensors", "--source", f"replay:{log}", "--json", "--duration", "0.1"]
    assert main(argv) == 0
    frame = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert frame["source"] == "replay" and frame["active"] == [32]
    assert frame["counts"]["minus"] == 1


def test_sensors_beside_a_live_server_says_the_port_is_in_use(tmp_path, capsys):
    from emulation.mcu import EmulatedMcu
    from waiting import wait_until

    from firmware_bridge.sources import open_source

    link = tmp_path / "ttyACM-skitter"
    mcu = EmulatedMcu(link, cells=load_profile().cells)
    server = open_source(f"serial:{link}", load_profile(), FakeClock())
    try:
        server.start()
        def up() -> bool:  # the server's link is up and holds the port
            server.poll()
            return server.status().up

        wait_until(up, "the server's link up", timeout=3.0, every=0.002)
        assert main(["sensors", "--source", f"serial:{link}", "--json", "--once"]) == 0
        frame = json.loads(capsys.readouterr().out.splitlines()[-1])
        assert frame["link"]["up"] is False
        assert "in use by another program" in frame["link"]["message"]
        states = server.counters().states
        mcu.heartbeat()

        def read() -> bool:
            server.poll()
            return server.counters().states > states

        wait_until(read, "the server reading the next heartbeat", timeout=3.0, every=0.002)
        assert server.status().up  # not knocked down
    finally:
        server.close()
        mcu.close()
