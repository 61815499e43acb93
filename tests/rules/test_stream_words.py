"""The overlay's one line for the last step, in the players' names."""

from __future__ import annotations

import pytest

from scorekeeper.events import Correction, ShotEvent, Undo, parse_event
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.shot import Shot
from scorekeeper.stream_words import last_shot_line

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
