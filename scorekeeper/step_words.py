"""A step of the match in a reader's words: ``Bo's shot``, ``die Korrektur (…)``.

The rules describe a step in their own phrase (:meth:`scorekeeper.events.ShotEvent.phrase`),
the referee's English log text. A page in another language says the step from its value
instead, with the catalog's sentence for its kind: a player by name, a shoot-off's values as
numbers, and a correction's reason exactly as the referee typed it.
"""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.events import Correction, Decision, Event, ShootOff, ShotEvent, Undo
from scorekeeper.words import ENGLISH, Words, name_of


def step_words(event: Event, names: Mapping[str, str], t: Words = ENGLISH) -> str:
    """The step ``event`` in the language ``t``, its players named."""
    if isinstance(event, ShotEvent):
        return t.gettext("{who}'s shot").format(who=name_of(event.shot.by, names, t))
    if isinstance(event, ShootOff):
        return t.gettext("the shoot-off ({first} against {second})").format(
            first=t.number(event.black), second=t.number(event.white))
    if isinstance(event, Correction):
        if not event.reason:
            return t.gettext("the correction")
        return t.gettext("the correction ({reason})").format(reason=event.reason)
    if isinstance(event, Decision):
        return t.gettext("{who}'s decision").format(who=name_of(event.by, names, t))
    if isinstance(event, Undo):
        return t.gettext("undo")
    raise TypeError(f"not a step: {event!r}")
