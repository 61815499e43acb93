"""States are enums declared where their value is owned, decoded from their word once at
the edge, and the same word in JSON (issue 41, item 3)."""

from __future__ import annotations

import json

import pytest

from firmware_bridge.sources import SourceKind, parse_spec
from scorekeeper.events import StepKind, parse_event
from scorekeeper.options import Rules, Variant
from scorekeeper.tracker import Tracker
from scorekeeper.tracker_status import Mode, PauseReason
from tournament_wire.wire import CommandKind, TopicKind, split_topic

pytestmark = pytest.mark.unit


def test_a_rules_variant_is_decoded_once_and_sent_as_its_word() -> None:
    rules = Rules.from_json({"variant": "trio", "points_to_win_round": 5})
    assert rules.variant is Variant.TRIO and rules.is_trio
    assert json.loads(json.dumps(rules.to_json()))["variant"] == "trio"
    assert Rules().variant is Variant.CLASSIC


def test_the_trackers_mode_is_an_enum_with_its_word_in_json() -> None:
    t = Tracker()
    assert t.mode is Mode.REVIEW
    t.pause(PauseReason.LINK)
    status = t.status()
    assert status.mode is Mode.PAUSED
    assert json.loads(json.dumps(status.to_json()))["mode"] == "paused"
    assert status.message == "sensor link down: play paused"


def test_a_steps_kind_and_a_topics_kind_and_a_sources_kind_are_decoded_once() -> None:
    assert parse_event({"undo": True}).kind is StepKind.UNDO
    assert split_topic("skitter", "skitter/b1/command/result") == ("b1", TopicKind.COMMAND_RESULT)
    assert split_topic("skitter", "skitter/b1/events")[1] is TopicKind.EVENTS
    assert parse_spec("serial:/dev/ttyACM0").kind is SourceKind.SERIAL
    assert [str(k) for k in CommandKind] == ["undo", "correct", "resend", "offer", "withdraw"]
