"""The published state: what every page receives, and what stops play.

Kept apart from :mod:`web.table.table` so the table reads as the path a change takes, and this
file as the answer to "what does the scoreboard say about the board right now?". The JSON of
the match and its log is made here, when a snapshot is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.effect_words import effect_words, effects_in_names
from scorekeeper.effects import EffectKind
from scorekeeper.errors import IllegalEventError
from scorekeeper.events import Correction, Decision, Event, ShotEvent
from scorekeeper.expectation import BigDifference
from scorekeeper.options import Handicap
from scorekeeper.state import Phase, State
from scorekeeper.step_words import step_words
from scorekeeper.store.values import StepSource
from scorekeeper.stream_words import last_shot_line, one_line
from scorekeeper.tracker import Tracker
from scorekeeper.tracker_status import Mode
from scorekeeper.words import (
    ENGLISH,
    Moment,
    Question,
    Words,
    board_status,
    board_words,
    clearing_instruction,
    field_words,
    given_names,
    moment,
    name_of,
    phrase_words,
    players_named,
    question_words,
    restore_instruction,
    shootoff_prompt,
    turn_prompt,
)
from tournament_wire.offer import offer_in_language
from web.table.committed import Committed
from web.table.match_log import LogEntry, MatchLog
from web.table.order import order_words

LOG_TAIL = 10
"""Log entries in every snapshot (the pages use the last; the whole log is /api/match/log)."""


def handicaps_shown(stored: Any) -> dict[str, dict[str, str]]:
    """A match's stored handicaps read through the engine's one decoder, so a match stored
    before finger and hand were apart shows in today's terms; an entry it cannot read is left
    out rather than shown wrong (a stored file never stops the page)."""
    out: dict[str, dict[str, str]] = {}
    if not isinstance(stored, Mapping):
        return out
    for player in ("black", "white"):
        if player in stored:
            try:
                out[player] = Handicap.from_json(stored[player]).to_json()
            except IllegalEventError:
                continue
    return out


def match_part(now: Committed, review_shown: Mapping[str, Any] | None,
               offered: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The match part of the snapshot, built from what the writer committed and kept (the
    sensing side publishes it again with each new view of the sensors); ``offered`` is the
    tournament game the hub offers the board, as the tablet shows it."""
    log, names = now.log, now.names
    last = log.last_standing()
    state = now.match.state
    shown = state.to_json()
    return {
        "match_id": now.match_id,
        "names": players_named(names),
        "given_names": given_names(names),
        "handicaps": {**handicaps_shown(now.meta.get("handicaps")),
                      **{p: h.to_json() for p, h in state.handicaps.items()}},  # R18 changes
        "state": shown,
        "can_undo": bool(now.match.can_undo),
        "log": [entry_in_words(e, undone, names) for e, undone in log.tail_entries(LOG_TAIL)],
        "last_step": None if last is None else last.to_json(undone=False),  # it stands
        "log_length": len(log),
        "review_shown": review_shown,
        "taken_back": _in_words(log.taken_back_last(), names),
        "decided_shot": _in_words(_decided_shot(log), names),
        "offered": offered,
        "pairing": now.meta.get("pairing"),
        "words": match_words(state, shown, last, names),
    }


def match_words(state: State, shown: Mapping[str, Any], last: LogEntry | None,
                names: Mapping[str, str]) -> dict[str, Any]:
    """The words of the match itself, made from its values in names (``shown``: the state as
    sent): its effects, the turn, a round or game moment, the overlay's last-shot line."""
    effects = effects_in_names(state.last_effects, names)
    line = "" if last is None else one_line(
        phrase_words(last.event.phrase(), names), [e["text"] for e in effects], kind=last.kind,
        entered=last.source == StepSource.MANUAL)
    return {"effects": effects, "turn": turn_prompt(shown, names),
            "moment": _json(moment(shown, names)), "last_shot": line}


def _json(value: Moment | Question | None) -> dict[str, Any] | None:
    """A moment's or a question's words as sent (the JSON edge)."""
    return None if value is None else value.to_json()


def _decided_shot(log: MatchLog) -> LogEntry | None:
    """When the newest step is a late decision: the shot it decided (the TV explains the
    shot with the decision, instead of the decision alone)."""
    entries = log.entries
    if not entries or not isinstance(entries[-1].event, Decision):
        return None
    for i in range(len(entries) - 2, -1, -1):
        if isinstance(entries[i].event, ShotEvent) and not log.undone(i):
            return entries[i]
    return None


def _in_words(entry: LogEntry | None, names: Mapping[str, str],
              t: Words = ENGLISH) -> dict[str, Any] | None:
    return None if entry is None else entry_in_words(entry, False, names, t)


def entry_in_words(entry: LogEntry, undone: bool, names: Mapping[str, str],
                   t: Words = ENGLISH) -> dict[str, Any]:
    """A log entry as sent, with ``words`` (the step in names) beside the raw ``text`` and its
    effects in words, made from the entry's values in the language ``t``; each effect keeps
    the rules' text as ``rule_text`` and its values (``fields``...)."""
    if t is ENGLISH:
        return {**entry.to_json(undone=undone),
                "words": phrase_words(entry.event.phrase(), names),
                # the rules' effect line says a correction's reason: the heading does not again
                "heading": heading(entry.event, names, reason=False),
                "effects": [{**e.to_json(), "text": effect_words(e, names), "rule_text": e.text}
                            for e in entry.effects]}
    return {**entry.to_json(undone=undone), "words": step_words(entry.event, names, t),
            "heading": heading(entry.event, names, t),
            "effects": [{**e.to_json(), "text": effect_words(e, names, t, source=False),
                         "rule_text": e.text} for e in entry.effects]}


class Snapshot(dict[str, Any]):
    """A snapshot as published (JSON-ready, in the rules' language) with the committed match
    its words are made from, and its words in each other language, rendered once each
    (:func:`in_language`): every page, socket and answer in German gets the same rendering
    of one snapshot."""

    def __init__(self, data: Mapping[str, Any], committed: Committed | None = None) -> None:
        super().__init__(data)
        self.committed = committed
        """The match as committed when the snapshot was composed (None: a snapshot built
        from its JSON alone, whose log is not worded again)."""
        self.rendered: dict[str, dict[str, Any]] = {}
        """The snapshot in each language it was asked for, by the language's code."""


def in_language(snapshot: Mapping[str, Any], t: Words, *, source: bool) -> dict[str, Any]:
    """``snapshot`` with every word a person reads made in the language ``t``, from values:
    the log, the last shot and the effects from the committed match it was composed from
    (:class:`Snapshot`), the board's words from the state and tracker data as composed; the
    one path for the pages, the WebSocket and every API answer in another language, rendered
    once per snapshot and language. ``source``: ``t`` is the language the rules write their
    texts in (then the snapshot is already in it)."""
    if source or not snapshot or "state" not in snapshot:
        return dict(snapshot)
    if isinstance(snapshot, Snapshot):
        kept = snapshot.rendered.get(t.code)
        if kept is None:
            kept = snapshot.rendered[t.code] = _rendered(snapshot, snapshot.committed, t)
        return kept
    return _rendered(snapshot, None, t)


def _rendered(snapshot: Mapping[str, Any], committed: Committed | None,
              t: Words) -> dict[str, Any]:
    names = players_named(snapshot.get("given_names") or {}, t)
    state = snapshot["state"]
    view = {k: snapshot[k] for k in ("link", "sensors", "tracker", "sensing") if k in snapshot}
    storage = snapshot.get("storage") or {}
    out = {
        **snapshot,
        "names": names,
        "alerts": alerts(state, view, names, storage=None if storage.get("ok", True)
                         else storage.get("message"), t=t),
        "words": {**board_part(state, view, names, t, source=False),
                  "turn": "" if self_testing(view) else turn_prompt(state, names, t),
                  "moment": _json(moment(state, names, t)),
                  **table_words(state, names, t, snapshot.get("handicaps") or {})},
        "offered": offer_in_language(snapshot.get("offered"), t),
    }
    if committed is None:
        # no match values: only a snapshot made by hand, with no steps (nothing to word)
        if snapshot.get("log") or snapshot.get("last_step"):
            raise ValueError("a snapshot's steps are worded from its committed match")
        out["words"]["effects"] = []
        out["words"]["last_shot"] = ""
        return out
    log, match_state = committed.log, committed.match.state
    last = log.last_standing()
    out["log"] = [entry_in_words(e, undone, names, t)
                  for e, undone in log.tail_entries(LOG_TAIL)]
    out["taken_back"] = _in_words(log.taken_back_last(), names, t)
    out["decided_shot"] = _in_words(_decided_shot(log), names, t)
    out["words"]["effects"] = effects_in_names(match_state.last_effects, names, t,
                                               source=False)
    out["words"]["last_shot"] = "" if last is None else last_shot_line(
        last.event, state.get("last_effects") or [], names,
        entered=last.source == StepSource.MANUAL, t=t)
    return out


def worded(snapshot: Mapping[str, Any], code: str | None = None) -> dict[str, Any]:
    """``snapshot`` in the language ``code`` (default: the request's,
    ``web_common.i18n.current``)."""
    from web_common.i18n import SOURCE, current, language

    lang = current() if code is None else language(code)
    return in_language(snapshot, lang, source=lang.code == SOURCE)


def tracker_part(
    tracker: Tracker, paused: bool, order: Mapping[str, Any] | None = None,
    press_waits: bool = False,
) -> dict[str, Any]:
    """The owner's part of the published view: the tracker's status and the pause switch
    (``order``: the referee's open question whose shot a landing is, ``press_waits``: a
    'turn ended' waits for a landing to come to rest, ``web.table.order``)."""
    return {
        "tracker": {**tracker.status().to_json(), "press_waits": press_waits,
                    "order": None if order is None else dict(order)},
        "paused": paused,
    }


def sensing_part(
    sensed: Mapping[str, Any], judged: Mapping[str, Any], source_name: str,
) -> dict[str, Any]:
    """Tracker status, link, sensor health and the virtual board, as published (``sensed``:
    the sensing thread's :meth:`web.table.sensing.Sensing.view`, or ``no_source_view()``;
    ``judged``: the owner's :func:`tracker_part`)."""
    return {
        "tracker": judged["tracker"],
        "link": sensed["link"],
        "sensors": sensed["sensors"],
        "sensing": {
            "paused": judged["paused"],
            "source": source_name,
            "virtual_board": sensed["virtual"] is not None,
            "selftest": bool(sensed.get("selftest")),
        },
        "virtual": sensed["virtual"],
    }


def compose(
    seq: int, boot: str, version: int, match: Mapping[str, Any], view: Mapping[str, Any],
    storage: str | None, committed: Committed | None = None,
) -> Snapshot:
    """A whole snapshot: the match part (built by the writer after a commit from
    ``committed``), the sensing view, and what follows from both; ``storage``: why the log
    cannot be written, if so."""
    state = match["state"]
    names = match["names"]
    return Snapshot({
        "seq": seq,
        "boot": boot,
        "version": version,
        **match,
        **view,
        "storage": {"ok": storage is None, "message": storage or ""},
        "alerts": alerts(state, view, names, storage=storage),
        "words": {**match["words"], **board_part(state, view, names),
                  **table_words(state, names, ENGLISH, match.get("handicaps") or {}),
                  **({"turn": ""} if self_testing(view) else {})},
    }, committed)


def alerts(
    state: Mapping[str, Any], view: Mapping[str, Any], names: Mapping[str, str] | None = None,
    *, storage: str | None = None, t: Words = ENGLISH,
) -> list[dict[str, str]]:
    """Everything that stops play, most urgent first, in players' words for a TV across the
    room. Cell numbers and expander addresses stay in the referee's sensor details.

    ``storage``: why the match log cannot be written, when it cannot (nothing is scored).
    """
    names = names or {}

    def who(player: str | None) -> str:
        return name_of(player, names, t)

    out: list[dict[str, str]] = []
    if storage:
        out.append({"kind": "storage", "message": storage})
    link = view["link"]
    if not link["up"]:
        out.append({"kind": "link", "message": t.gettext(
            "The board's sensors are not connected: play is paused until they are back")})
    sensors = view.get("sensors") or {}
    if any(not f.get("muted") for f in sensors.get("flags", [])):
        out.append({"kind": "sensor", "message": t.gettext(
            "A board sensor needs the referee: play waits until it is checked")})
    tracker = view["tracker"]
    question = question_words(tracker.get("question"), names, t)
    order = order_words(tracker.get("order"), names, t)
    if order is not None:
        out.append({"kind": "order", "message": order.alert})
    elif tracker["mode"] == Mode.QUESTION and question:
        out.append({"kind": "question", "message": question.alert})
    elif tracker["mode"] == Mode.RESTORE:
        differences = tracker.get("differences") or {}
        bigs = tracker.get("big_differences") or {}
        blockades = [f for f in state.get("blocked") or () if differences.get(f, 0) > 0]
        if _new_round_clearing(state, differences, bigs):
            # a new round starts from an empty board: one instruction, not every field
            message = clearing_instruction(state.get("round"), bool(bigs), t)
        else:
            message = restore_instruction(differences, bigs, names, blockades=blockades,
                                          bridges=tracker.get("bridges") or (), t=t)
        out.append({"kind": "restore", "message": message})
    elif tracker["mode"] == Mode.REVIEW and tracker.get("settled", True):
        # (before the first settled reading the board is not judged yet: no fault)
        out.append({"kind": "review", "message": t.gettext(
            "The board does not match the match: the referee decides on the tablet")})
    elif self_testing(view):
        out.append({"kind": "selftest", "message": t.gettext(
            "The board's self-test is running: play waits until it ends")})
    elif tracker["mode"] == Mode.PAUSED and link["up"]:
        out.append({"kind": "paused", "message": t.gettext("Sensing is paused by the referee")})
    pending = state.get("pending") or {}
    for red in pending.get("red") or []:
        if any(red.get("changeable", [])):
            out.append({
                "kind": "decision",
                "message": t.gettext("{who} may push Hit on Red points back before the next "
                                     "shot").format(who=who(red["player"])),
            })
    unblock = pending.get("unblock")
    if unblock:
        fields = ", ".join(field_words(f, names, t) for f in unblock.get("fields", []))
        out.append({
            "kind": "decision",
            "message": t.gettext("{who} may lift a blockade ({fields})").format(
                who=who(unblock["player"]), fields=fields),
        })
    if state.get("phase") == Phase.SHOOTOFF:
        out.append({"kind": "shootoff", "message": shootoff_prompt(t)})
    return out


def self_testing(view: Mapping[str, Any]) -> bool:
    """The board's self-test is running (sensing is paused for it: nobody plays)."""
    return bool((view.get("sensing") or {}).get("selftest"))


def _new_round_clearing(
    state: Mapping[str, Any], differences: Mapping[str, int], bigs: Mapping[str, str]
) -> bool:
    """The last step ended a round and the board is to be emptied for the next one."""
    ended = any(e.get("kind") == EffectKind.ROUND for e in state.get("last_effects") or ())
    board = state.get("board") or {}
    return (ended and state.get("phase") == Phase.PLAYING and bool(differences)
            and not any(board.values()) and all(d > 0 for d in differences.values())
            and all(b == BigDifference.UNEXPECTED for b in bigs.values()))


def board_part(
    state: Mapping[str, Any], view: Mapping[str, Any], names: Mapping[str, str],
    t: Words = ENGLISH, *, source: bool = True,
) -> dict[str, Any]:
    """The words the pages show for the board: what it needs, and the referee's question."""
    return {
        "board": board_words(view["tracker"], names, t) if source
        else board_status(view["tracker"], state, names, t),
        "question": _json(order_words(view["tracker"].get("order"), names, t)
                          or question_words(view["tracker"].get("question"), names, t)),
    }


def table_words(state: Mapping[str, Any], names: Mapping[str, str], t: Words,
                handicaps: Mapping[str, Any]) -> dict[str, Any]:
    """Words the pages show beside the match's: each field's name ("Bo's red"), each
    player's handicaps and the two Hit on Red choices; the pages show these, never compose
    them."""
    return {
        "fields": {f: field_words(f, names, t) for f in state.get("board") or {}},
        "handicaps": handicap_words(handicaps, t),
        "red_choices": red_choice_words(names, t),
    }


def handicap_words(shown: Mapping[str, Any], t: Words = ENGLISH) -> dict[str, str]:
    """Each player's handicaps (R18, as :func:`handicaps_shown` gives them) in words,
    ``semicircle line · non-dominant hand``; the plain choices (the standard line, the usual
    finger, the dominant hand) say nothing."""
    words = {
        "line": {"semicircle": t.gettext("semicircle line"),
                 "beginner": t.gettext("beginner line")},
        "finger": {"different": t.gettext("a different finger")},
        "hand": {"non-dominant": t.gettext("non-dominant hand")},
    }
    return {
        player: " · ".join(said for key in ("line", "finger", "hand")
                           if (said := words[key].get(str(chosen.get(key, "")))))
        for player, chosen in shown.items() if isinstance(chosen, Mapping)
    }


def red_choice_words(names: Mapping[str, str], t: Words = ENGLISH) -> dict[str, dict[str, str]]:
    """A Hit on Red point's two choices (R4) for each player who chooses: ``Ann +1`` and
    ``Ann sets Bo back one``, the tablet's buttons and the amend form's options."""
    other = {"black": "white", "white": "black"}
    return {
        player: {"advance": f"{name_of(player, names, t)} +1",
                 "back": t.gettext("{who} sets {other} back one").format(
                     who=name_of(player, names, t), other=name_of(other[player], names, t))}
        for player in ("black", "white")
    }


def heading(event: Event, names: Mapping[str, str], t: Words = ENGLISH, *,
            reason: bool = True) -> str:
    """What the last shot's list calls a step: ``Bo's shot``, or the step in words
    (``reason``: a correction's reason with it, where its effect line does not say it)."""
    if isinstance(event, Correction) and not reason:
        return t.gettext("the correction")
    return step_words(event, names, t)
