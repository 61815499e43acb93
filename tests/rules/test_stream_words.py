"""The overlay's one line for the last step, in the players' names."""

from __future__ import annotations

import pytest

from scorekeeper.events import Correction, ShootOff, ShotEvent, StepKind, Undo, parse_event
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.shot import Shot
from scorekeeper.stream_words import last_shot_line, one_line
from web_common.i18n import language

NAMES = {"black": "Ann", "white": "de Vries"}


def test_a_shot_and_its_effects_on_one_line() -> None:
    line = last_shot_line(ShotEvent(Shot("black")), [{"text": "black scores 2 on white.yellow"},
                                           {"text": "white.blue is cleared"}], NAMES)
    assert line == "Ann's shot: Ann scores 2 on de Vries's yellow · de Vries's blue is cleared"


def test_a_shot_with_no_effect_says_so_and_who_entered_it() -> None:
    assert last_shot_line(ShotEvent(Shot("white")), [], NAMES, entered=True) == (
        "de Vries's shot (entered by the referee): no points, no penalty")


def test_other_steps_and_no_step() -> None:
    assert last_shot_line(Correction(reason="miscount"), [], NAMES) == "The correction (miscount)"
    assert last_shot_line(Undo(), [], NAMES) == "The last step was taken back"
    assert last_shot_line(None, [], NAMES) == ""


def test_the_line_opens_by_the_steps_kind_in_every_language_and_a_name_as_written() -> None:
    """The line's start is capitalised because of what the step is (a correction, a
    shoot-off), never by reading its words back: a name opening it stays as written."""
    german = language("de")
    assert one_line("die Korrektur (miscount)", [], kind=StepKind.CORRECT, t=german) == (
        "Die Korrektur (miscount)")
    assert last_shot_line(ShootOff(black=3, white=3), [], NAMES) == "The shoot-off (3 against 3)"
    assert one_line("de Vries's decision", [], kind=StepKind.DECIDE) == "de Vries's decision"



def test_a_boards_correction_keeps_the_referees_reason_as_typed() -> None:
    """The hub words what a board sent: a correction's reason is a person's words, never
    rewritten as if "white" in it named a side."""
    body = {"correct": {"score": {"white": 1}, "reason": "the white tile slipped"}}
    sent = [e.to_json() for e in Match(Rules(), Setup(first="black")).apply(body)]
    assert last_shot_line(parse_event(body), sent, NAMES, entered=True) == (
        "The correction (the white tile slipped) (entered by the referee): referee correction: "
        "score de Vries 1 (the white tile slipped)")


pytestmark = pytest.mark.unit
"""Pure functions: part of the fast lane."""
