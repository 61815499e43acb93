"""What changed in the match since the state a refused change was made against (HTTP 409).

The person whose change came too late is told, in players' words, what the other person did
first: ``someone took back Ben's shot``, ``someone amended Anna's shot``, ``Bo's score was
set to 1``. Kept apart from :mod:`web.table.table`, which only says from which log entry on
to describe.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from scorekeeper.events import Correction, Event, ShotEvent, Undo
from scorekeeper.step_words import step_words
from scorekeeper.words import ENGLISH, Words, what_changed
from web.table.match_log import LogEntry


def since(entries: Sequence[LogEntry], first: int, names: Mapping[str, str],
          t: Words = ENGLISH) -> list[str]:
    """What the entries from index ``first`` on did, in players' words in the language ``t``,
    made from the steps' values (never the rules' English phrase)."""
    out: list[str] = []
    for i in range(first, len(entries)):
        e = entries[i]
        after = entries[i + 1] if i + 1 < len(entries) else None
        if isinstance(e.event, Undo) and after is not None and after.at == e.at \
                and isinstance(after.event, ShotEvent):
            continue  # an amendment: its undo and its shot are stored together
        if isinstance(e.event, ShotEvent) and i and entries[i - 1].at == e.at \
                and isinstance(entries[i - 1].event, Undo):
            out.append(t.gettext("someone amended {what}").format(
                what=step_words(e.event, names, t)))
        elif isinstance(e.event, Undo):
            back = taken_back_by(entries, i)
            out.append(t.gettext("someone took back {what}").format(
                what=step_words(back.event, names, t)) if back
                else t.gettext("someone took back a step"))
        else:
            out.extend(changed(e.event, names, t))
    return out


def changed(event: Event, names: Mapping[str, str], t: Words = ENGLISH) -> list[str]:
    """What one step did: a correction's parts set (``Bo's score was set to 1``), any other
    step (and a correction of nothing worded there, such as a big skitt) by its kind."""
    if isinstance(event, Correction) and any(
            part is not None for part in (event.score, event.round_wins, event.board,
                                          event.blocked, event.turn)):
        return what_changed(event, names, t)
    return [step_words(event, names, t)]


def taken_back_by(entries: Sequence[LogEntry], index: int) -> LogEntry | None:
    """The entry the undo at ``index`` took back (R19: the newest step still standing)."""
    standing: list[LogEntry] = []
    for e in entries[:index]:
        if isinstance(e.event, Undo):
            if standing:
                standing.pop()
        else:
            standing.append(e)
    return standing[-1] if standing else None
