"""Choosing a source by name; hardware sources feed the same pipeline as the simulator."""

from __future__ import annotations

import pytest
from emulation.i2c import FakeI2C

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile, loads_profile
from firmware_bridge.replay import RecordingSource, ReplaySource
from firmware_bridge.simulator import SimulatedBoard
from firmware_bridge.source import SourceError
from firmware_bridge.sources import open_source
from scorekeeper.clock import FakeClock


@pytest.fixture
def profile():
    return load_profile()


def test_sim_spec_opens_the_simulator(profile):
    source = open_source("sim", profile, FakeClock())
    assert isinstance(source, SimulatedBoard)
    assert source.name == "sim" and source.cells == profile.cells


def test_unknown_spec_is_refused_by_name(profile):
    with pytest.raises(SourceError, match="unknown sensor source 'dgt'"):
        open_source("dgt", profile, FakeClock())


def test_replay_spec_opens_the_log(profile, tmp_path):
    clock = FakeClock()
    rec = RecordingSource(SimulatedBoard(profile, clock), tmp_path / "log.jsonl")
    rec.start()
    rec.close()
    source = open_source(f"replay:{tmp_path / 'log.jsonl'}", profile, clock, speed=0)
    assert isinstance(source, ReplaySource) and source.speed == 0


def test_replay_of_another_boards_log_is_refused(profile, tmp_path):
    (tmp_path / "log.jsonl").write_text('{"skitter_sensor_log": 1, "cells": 16}\n')
    with pytest.raises(SourceError, match="has 16 cells but board profile 'default' has 128"):
        open_source(f"replay:{tmp_path / 'log.jsonl'}", profile, FakeClock())


def test_mcp23017_without_expanders_in_the_profile_is_refused(profile):
    text = profile.path.read_text()
    text = text[: text.index("[mcp23017]")] + text[text.index("[gpio]"):]
    with pytest.raises(SourceError, match="has no \\[mcp23017\\] section"):
        open_source("mcp23017", loads_profile(text), FakeClock())


def test_mcp23017_source_on_a_fake_bus_counts_a_skitt(profile):
    clock = FakeClock()
    bus = FakeI2C((0x20, 0x21, 0x22))
    source = open_source("mcp23017", profile, clock, i2c=bus, interrupt_pins=())
    assert source.name == "mcp23017"
    source.start()
    pipeline = Pipeline(profile, clock, initial=source.snapshot())
    bus.magnet(24, True)  # white.yellow, 0x21 GPB0
    readings = []
    for _ in range(60):
        clock.advance(0.01)
        readings += pipeline.pump(source)
    source.close()
    assert readings[-1].count("white.yellow") == 1


def test_serial_port_that_does_not_exist_yet_is_a_link_down_not_a_crash(profile):
    source = open_source("serial:/dev/skitter-no-such-port", profile, FakeClock())
    try:
        source.start()
        assert source.name == "serial"
        assert not source.status().up
    finally:
        source.close()


@pytest.mark.parametrize(
    ("spec", "problem"),
    [("sim:fast", "'sim' takes no ':' argument"), ("serial:", "'serial:' needs a port"),
     ("replay", "'replay' needs a file")],
)
def test_a_command_reads_a_spec_by_the_grammar_of_the_configuration(profile, spec, problem):
    """One grammar: what the configuration refuses, ``open_source`` refuses in the same words
    (``serial:`` used to open the serial source as if no port had been named)."""
    from web.config.values import ConfigError, parse_source

    with pytest.raises(SourceError, match=problem):
        open_source(spec, profile, FakeClock())
    with pytest.raises(ConfigError, match=f"source: {problem}"):
        parse_source(spec)
