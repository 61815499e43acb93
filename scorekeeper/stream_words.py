"""The stream overlay's words: what a viewer reads in one glance, in the players' names.

The overlay shows the last shot on one line; the scoreboard lists the same effects one per
line (:func:`scorekeeper.effect_words.effects_in_names`). Both the board (from its values, in names
from the start) and the tournament hub (from what a board sent) make the overlay's line
here (:func:`one_line`), from the step's own words and the effects it had.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.effect_words import sent_effects_in_words
from scorekeeper.effects import EffectKind
from scorekeeper.events import Correction, Event, ShotEvent, StepKind
from scorekeeper.legacy_effects import upgraded_all
from scorekeeper.rules.corrections import correction_phrase
from scorekeeper.words import ENGLISH, Words, name_of, phrase_words

SEPARATOR = " · "


OPENS_WITH_WORDS = frozenset({StepKind.SHOOTOFF, StepKind.CORRECT})
"""The steps whose words open with a word of the language (``the correction``), which the
line's start capitalises; the others open with a player's name ("de Vries"), kept as
written (an undo has its own sentence)."""


def one_line(step: str | None, said: Sequence[str], *, kind: str | None,
             entered: bool = False, t: Words = ENGLISH) -> str:
    """``Ann's shot: Ann scores 2 · Bo's blue is cleared``, or ``""`` before the first step.

    ``step``: the step's own words in names (``Ann's shot``, ``the correction (...)``);
    ``said``: its effects in words; ``kind``: the step's key (``shot``, ``undo``...);
    ``entered``: the referee entered it by hand, which viewers are told; ``t``: the language
    of the line's own words.
    """
    if not step:
        return ""
    if kind == StepKind.UNDO:
        return t.gettext("The last step was taken back")
    who = step
    if kind in OPENS_WITH_WORDS:  # a shot's or decision's words open with a name: as written
        who = who[:1].upper() + who[1:]
    if entered:
        who += " " + t.gettext("(entered by the referee)")
    said = [text for text in said if text]
    if said:
        return f"{who}: {SEPARATOR.join(said)}"
    nothing = t.gettext("no points, no penalty")  # (outside the f-string: extracted)
    return f"{who}: {nothing}" if kind == StepKind.SHOT else who


def last_shot_line(
    step: Event | None, effects: Sequence[Mapping[str, Any]], names: Mapping[str, str],
    *, entered: bool = False, t: Words = ENGLISH,
) -> str:
    """:func:`one_line` of a step as a board sent it to the hub: the step in names from its
    value (a person's words in it stay as typed), the effects from the rules texts sent. In
    another language than the rules' (``t``), a shot and its effects are worded again from
    the catalog; any other step keeps the rules' words."""
    if step is None:
        return ""
    if t is ENGLISH:
        return one_line(phrase_words(step.phrase(), names),
                        sent_effect_words(step, effects, names), kind=step.kind,
                        entered=entered)
    heading = (t.gettext("{who}'s shot").format(who=name_of(step.shot.by, names, t))
               if isinstance(step, ShotEvent) else phrase_words(step.phrase(), names))
    said = [str(e["text"]) for e in sent_effects_in_words(effects, names, t) if e.get("text")]
    return one_line(heading, said, kind=step.kind, entered=entered, t=t)


def sent_effect_words(step: Event | None, effects: Sequence[Mapping[str, Any]],
                      names: Mapping[str, str]) -> list[str]:
    """Effects as a board sent them, in names: each from its phrase (an earlier version's
    effect gets its phrase first, :mod:`scorekeeper.legacy_effects`), but a correction's own
    effect made again from its step, whose reason is a person's words (shown as typed)."""
    out = []
    for e in upgraded_all(effects):
        if e.get("kind") == EffectKind.CORRECTION and isinstance(step, Correction):
            out.append(phrase_words(correction_phrase(step), names))
        else:
            out.append(phrase_words(str(e["phrase"]), names))
    return out
