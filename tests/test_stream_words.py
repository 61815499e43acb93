"""The overlay's one line for the last step, in the players' names."""

from __future__ import annotations

from scorekeeper.stream_words import last_shot_line

NAMES = {"black": "Ann", "white": "de Vries"}


def test_a_shot_and_its_effects_on_one_line() -> None:
    line = last_shot_line("black's shot", [{"text": "black scores 2 on white.yellow"},
                                           {"text": "white.blue is cleared"}], NAMES)
    assert line == "Ann's shot: Ann scores 2 on de Vries's yellow · de Vries's blue is cleared"


def test_a_shot_with_no_effect_says_so_and_who_entered_it() -> None:
    assert last_shot_line("white's shot", [], NAMES, entered=True) == (
        "de Vries's shot (entered by the referee): no points, no penalty")


def test_other_steps_and_no_step() -> None:
    assert last_shot_line("the correction (miscount)", [], NAMES) == "The correction (miscount)"
    assert last_shot_line("undo", [], NAMES) == "The last step was taken back"
    assert last_shot_line(None, [], NAMES) == ""
