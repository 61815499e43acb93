"""A shot review: one step of the match log with the sensor timeline that made it.

The referee page (``web/static/review.js``) replays a review frame by frame: each frame is
the board after one debounced cell change, counted by the same functions the pipeline uses
(:mod:`firmware_bridge.counts`), so the drawing shows the counts as the tracker saw them.
Beside it stand the conclusion in player words and what the match recorded for that step,
with any later undo, amendment or correction.

The downloadable part (:func:`review_file`) is the step and its timeline; it plays back
through ``--source replay:FILE`` (:func:`firmware_bridge.replay.read_log` reads it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from firmware_bridge.counts import big_spots, bridges, field_counts
from firmware_bridge.profile import BoardProfile
from firmware_bridge.replay import REVIEW_VERSION
from firmware_bridge.selftest_words import PartKind
from firmware_bridge.timeline import Timeline
from scorekeeper.effects import EffectKind
from scorekeeper.events import Correction, Event, ShotEvent, StepKind
from scorekeeper.shot import Landing, Shot
from scorekeeper.store.values import StepSource
from scorekeeper.words import ENGLISH, Words, field_words, name_of, phrase_words
from web.table.match_log import LogEntry, MatchLog


def _no_timeline(entered: bool, t: Words) -> str:
    """Why a step has no timeline to play back (``entered``: by hand, not sensed)."""
    if entered:
        return t.gettext("entered by hand: no sensor timeline (the sensors did not make this "
                         "step)")
    return t.gettext("this step's sensor timeline was removed (skitter log --prune-timelines)")


def review_file(
    entry: LogEntry, timeline: Mapping[str, Any] | None, profile: BoardProfile,
    match_id: int, names: Mapping[str, str],
) -> dict[str, Any]:
    """The step and its timeline as a file a referee can take away and play back."""
    return {
        "skitter_review": REVIEW_VERSION,
        "profile": profile.name,
        "cells": profile.cells,
        "match_id": match_id,
        "seq": entry.seq,
        "at": entry.at,
        "source": entry.source,
        "names": dict(names),
        "step": entry.event.to_json(),
        "timeline": None if timeline is None else dict(timeline),
    }


def build_review(
    log: MatchLog, seq: int, timeline: Mapping[str, Any] | None,
    profile: BoardProfile, match_id: int, names: Mapping[str, str], t: Words = ENGLISH,
) -> dict[str, Any]:
    """Everything the review of step ``seq`` shows, its sentences in the language ``t``;
    ``LookupError`` for an unknown step."""
    entries = log.entries
    index = next((i for i, e in enumerate(entries) if e.seq == seq), None)
    if index is None:
        raise LookupError(t.gettext("step {seq}: no such step in this match's log").format(
            seq=seq))
    entry = entries[index]
    out: dict[str, Any] = {
        "seq": seq,
        "source": entry.source,
        "recorded": step_words(entry.event, names, t),
        "ruling": ruling_words(entry, names, t),
        "bridges": [list(b.fields) for b in profile.bridges],
        "score": " · ".join(f"{name_of(p, names, t)} {t.number(n)}"
                            for p, n in entry.score.items()),
        "later": later_changes(entries, index, log.undone(index), names, t),
        **amended_part(entries, index, log.undone(index), names, t),
        "can_amend": log.last_standing() is entry and entry.kind == StepKind.SHOT,
        "file": review_file(entry, timeline, profile, match_id, names),
        "frames": [],
        "note": "",
    }
    if timeline is None:
        out["note"] = _no_timeline(entry.source != StepSource.SENSOR, t)
        return out
    try:
        parsed = Timeline.from_json(timeline)
    except ValueError as exc:
        out["note"] = t.gettext("this step's sensor timeline cannot be read ({why})").format(
            why=exc)
        return out
    out["frames"] = frames(parsed, profile, names, t)
    out["settled_ms"] = parsed.settled_ms
    out["reading"] = dict(parsed.reading)
    out["note"] = parsed.note()
    return out


def frames(
    timeline: Timeline, profile: BoardProfile, names: Mapping[str, str], t: Words = ENGLISH,
) -> list[dict[str, Any]]:
    """The board before the shot, then after each change: counts, big spots, and where the
    change was in player words (``place``) and in sensor terms (``where``)."""
    muted = timeline.muted
    active = set(timeline.before)
    roles = profile.cell_roles()
    out = [_frame(profile, active, muted, 0, None, None)]
    for change in timeline.changes:
        if change.cell >= profile.cells:
            continue
        if change.active:
            active.add(change.cell)
        else:
            active.discard(change.cell)
        frame = _frame(profile, active, muted, change.ms, change.cell, change.active)
        frame["place"] = place_words(roles.get(change.cell, ""), names, t)
        out.append(frame)
    return out


def place_words(role: str, names: Mapping[str, str], t: Words = ENGLISH) -> str:
    """Where on the board a cell is, for players: ``Bo's red``, ``Ann's launch spot``."""
    kind, _, what = role.partition(":")
    if not what:
        return field_words(kind, names, t) if kind else t.gettext(
            "a cell that counts for nothing")
    if kind == PartKind.BIG:
        return t.gettext("{who}'s big skitt spot").format(who=name_of(what, names, t))
    if kind == PartKind.LAUNCH:
        return t.gettext("{who}'s launch spot").format(who=name_of(what, names, t))
    if kind == PartKind.BRIDGE:
        a, _, b = what.partition("/")
        return t.gettext("the bridge between {first} and {second}").format(
            first=field_words(a, names, t), second=field_words(b, names, t))
    return role


def _frame(
    profile: BoardProfile, active: set[int], muted: frozenset[int], ms: int,
    cell: int | None, on: bool | None,
) -> dict[str, Any]:
    cells = frozenset(active)
    frame: dict[str, Any] = {
        "ms": ms,
        "counts": field_counts(profile, cells, muted),
        "big": {str(p): bool(v) for p, v in big_spots(profile, cells, muted).items()},
        "bridges": sorted(list(b) for b in bridges(profile, cells, muted)),
    }
    if cell is not None:
        frame["cell"] = cell
        frame["where"] = profile.describe_cell(cell)
        frame["on"] = bool(on)
    return frame


def later_changes(
    entries: Sequence[LogEntry], index: int, undone: bool, names: Mapping[str, str],
    t: Words = ENGLISH,
) -> list[str]:
    """What happened to the step later (``undone``: an undo took it back): the undo, the
    amended shot, corrections before the next shot."""
    out: list[str] = []
    taken_back = False
    for later in entries[index + 1:]:
        kind = later.kind
        if kind == StepKind.UNDO and undone:
            out.append(t.gettext("step {seq}: taken back").format(seq=later.seq))
            undone, taken_back = False, True
            continue
        if kind == StepKind.SHOT:
            if taken_back:
                out.append(t.gettext("step {seq}: amended to {words}").format(
                    seq=later.seq, words=step_words(later.event, names, t)))
            break
        if isinstance(later.event, Correction):
            reason = later.event.reason or ""
            out.append(t.gettext("step {seq}: corrected ({reason})").format(
                seq=later.seq, reason=reason) if reason
                else t.gettext("step {seq}: corrected").format(seq=later.seq))
            taken_back = False
    return out


def amended_by(entries: Sequence[LogEntry], index: int, undone: bool) -> LogEntry | None:
    """The shot that amended the step at ``index`` (an undo took it back and the shot again
    followed), or None."""
    taken_back = False
    for later in entries[index + 1:]:
        if later.kind == StepKind.UNDO and undone:
            undone, taken_back = False, True
        elif later.kind == StepKind.SHOT:
            return later if taken_back else None
        elif isinstance(later.event, Correction):
            taken_back = False
    return None


def amended_part(entries: Sequence[LogEntry], index: int, undone: bool,
                 names: Mapping[str, str], t: Words = ENGLISH) -> dict[str, str]:
    """``amended``: the amending shot in words ("" when the step stands as recorded) and
    ``amended_ruling``: how the rules ruled it, for the replay's title."""
    amended = amended_by(entries, index, undone)
    if amended is None:
        return {"amended": "", "amended_ruling": ""}
    return {"amended": step_words(amended.event, names, t),
            "amended_ruling": ruling_words(amended, names, t)}


def ruling_words(entry: LogEntry, names: Mapping[str, str], t: Words = ENGLISH) -> str:
    """How the rules ruled the step, when that is not what its words say: a shot the rules
    ruled invalid (R8) reads as any other shot until this is said."""
    invalid = [e for e in entry.effects if e.kind is EffectKind.INVALID]
    if not invalid:
        return ""
    why = "; ".join(phrase_words(e.phrase, names, t) for e in invalid)
    return t.gettext("ruled invalid by the rules ({ruling}): {why}").format(
        ruling=invalid[0].reason.clause, why=why)


def step_words(event: Event, names: Mapping[str, str], t: Words = ENGLISH) -> str:
    """A step in player words; a shot as ``Ann: +1 skitt on Bo's yellow, 1 skitt off the
    minus field``."""
    if isinstance(event, ShotEvent):
        return shot_words(event.shot, names, t)
    return event.kind


def shot_words(shot: Shot, names: Mapping[str, str], t: Words = ENGLISH) -> str:
    """What a shot did, in the words players use."""
    parts: list[str] = []
    changes = list(shot.delta.items())
    changes.sort(key=lambda fn: fn[1] < 0)  # what arrived, then what left (as played)
    for field, n in changes:
        place = field_words(field, names, t)
        if n > 0:
            parts.append(t.ngettext("+{n} skitt on {place}", "+{n} skitts on {place}", n).format(
                n=t.number(n), place=place))
        elif n < 0:
            parts.append(t.ngettext("{n} skitt off {place}", "{n} skitts off {place}",
                                    -n).format(n=t.number(-n), place=place))
    if shot.off_board:
        parts.append(t.ngettext("{n} skitt off the board", "{n} skitts off the board",
                                shot.off_board).format(n=t.number(shot.off_board)))
    if shot.big == Landing.PLACED:
        parts.append(t.gettext("big skitt placed"))
    elif shot.big == Landing.MISSED:
        parts.append(t.gettext("big skitt missed its spot"))
    elif shot.big == Landing.OFF:
        parts.append(t.gettext("big skitt off the board"))
    elif shot.big is not None:
        parts.append(t.gettext("big skitt on {place}").format(
            place=field_words(shot.big, names, t)))
    if len(shot.knocked_big) == 2:
        parts.append(t.gettext("knocked both big skitts loose"))
    elif shot.knocked_big:
        parts.append(t.gettext("knocked a big skitt loose"))
    if shot.chain is not None:
        first, second = shot.chain
        parts.append(t.gettext("chain {first} to {second}").format(
            first=field_words(first, names, t), second=field_words(second, names, t)))
    if shot.chain_from is not None:
        parts.append(t.gettext("the chain's skitt came from {place}").format(
            place=field_words(shot.chain_from, names, t)))
    if shot.keep:
        parts.append(t.gettext("a loose skitt kept for the next shot"))
    if shot.minus_hit:
        parts.append(t.gettext("a hit on the minus field"))
    if shot.invalid:
        parts.append(t.gettext("declared invalid"))
    said = ", ".join(parts) if parts else t.gettext("nothing changed")
    return f"{name_of(shot.by, names, t)}: {said}"
