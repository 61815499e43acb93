"""The stream overlay's words: what a viewer reads in one glance, in the players' names.

The overlay shows the last shot on one line; the scoreboard lists the same effects one per
line (:func:`scorekeeper.words.effects_in_names`). Both the board and the tournament hub make
the overlay's line here, from the step's own words and the effects it had.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.words import effects_in_names, in_names

SEPARATOR = " · "


def last_shot_line(
    step_text: str | None, effects: Sequence[Mapping[str, Any]], names: Mapping[str, str],
    *, entered: bool = False,
) -> str:
    """``Ann's shot: Ann scores 2 · Bo's blue is cleared``, or ``""`` before the first step.

    ``step_text``: the step's own words (``black's shot``, ``the correction (...)``);
    ``entered``: the referee entered it by hand, which viewers are told.
    """
    if not step_text:
        return ""
    if step_text == "undo":
        return "The last step was taken back"
    who = in_names(step_text, names)
    if who.startswith("the "):  # never a name: "de Vries" stays as written
        who = "The " + who[4:]
    if entered:
        who += " (entered by the referee)"
    said = [str(e.get("text", "")) for e in effects_in_names(effects, names) if e.get("text")]
    if said:
        return f"{who}: {SEPARATOR.join(said)}"
    return f"{who}: no points, no penalty" if step_text.endswith("'s shot") else who
