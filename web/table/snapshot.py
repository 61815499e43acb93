"""The published state: what every page receives, and what stops play.

Kept apart from :mod:`web.table.table` so the table reads as the path a change takes, and this
file as the answer to "what does the scoreboard say about the board right now?". The JSON of
the match and its log is made here, when a snapshot is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scorekeeper.errors import IllegalEventError
from scorekeeper.events import Decision, ShotEvent
from scorekeeper.options import Handicap
from scorekeeper.tracker import Tracker
from scorekeeper.words import (
    board_words,
    effects_in_names,
    given_names,
    in_names,
    moment,
    name_of,
    players_named,
    question_words,
    restore_instruction,
    turn_prompt,
)
from web.table.match_log import LogEntry
from web.table.sensing import Sensing

if TYPE_CHECKING:
    from web.table.table import Table

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


def match_part(table: Table) -> dict[str, Any]:
    """The match part of the snapshot, built by the writer after each commit and kept (the
    sensing side publishes it again with each new view of the sensors)."""
    last = table.log.last_standing()
    return {
        "match_id": table.match_id,
        "names": players_named(table.names),
        "given_names": given_names(table.names),
        "handicaps": handicaps_shown(table.meta.get("handicaps")),
        "state": table.match.state.to_json(),
        "can_undo": bool(table.match.can_undo),
        "log": log_in_words(table.log.tail(LOG_TAIL), table.names),
        "last_step": None if last is None else last.to_json(undone=False),  # it stands
        "log_length": len(table.log),
        "review_shown": table.review_shown,
        "taken_back": _in_words(table.log.taken_back_last(), table.names),
        "decided_shot": _in_words(_decided_shot(table), table.names),
    }


def _decided_shot(table: Table) -> LogEntry | None:
    """When the newest step is a late decision: the shot it decided (the TV explains the
    shot with the decision, instead of the decision alone)."""
    entries = table.log.entries
    if not entries or not isinstance(entries[-1].event, Decision):
        return None
    for i in range(len(entries) - 2, -1, -1):
        if isinstance(entries[i].event, ShotEvent) and not table.log.undone(i):
            return entries[i]
    return None


def _in_words(entry: LogEntry | None, names: Mapping[str, str]) -> dict[str, Any] | None:
    if entry is None:
        return None
    return log_in_words([entry.to_json(undone=False)], names)[0]


def sensing_part(
    sensing: Sensing | None, tracker: Tracker, paused: bool, source_name: str
) -> dict[str, Any]:
    """Tracker status, link, sensor health and the virtual board, as published."""
    if sensing is None:
        return {
            "tracker": tracker.status().to_json(),
            "link": {"up": False, "message": "no sensor source", "degraded": False, "errors": 0},
            "sensors": None,
            "sensing": {"paused": paused, "source": source_name, "virtual_board": False},
            "virtual": None,
        }
    link = sensing.link()
    return {
        "tracker": tracker.status().to_json(),
        "link": {
            "up": link.up, "message": link.message, "degraded": link.degraded,
            "errors": link.errors,
        },
        "sensors": sensing.sensors_json(),
        "sensing": {
            "paused": paused,
            "source": source_name,
            "virtual_board": sensing.simulator is not None,
        },
        "virtual": sensing.simulated_json(),
    }


def compose(
    seq: int, boot: str, version: int, match: Mapping[str, Any], view: Mapping[str, Any],
    storage: str | None,
) -> dict[str, Any]:
    """A whole snapshot: the match part (built by the writer after a commit), the sensing
    view, and what follows from both; ``storage``: why the log cannot be written, if so."""
    state = match["state"]
    names = match["names"]
    return {
        "seq": seq,
        "boot": boot,
        "version": version,
        **match,
        **view,
        "storage": {"ok": storage is None, "message": storage or ""},
        "alerts": alerts(state, view, names, storage=storage),
        "words": words_part(state, view, names),
    }


def alerts(
    state: Mapping[str, Any], view: Mapping[str, Any], names: Mapping[str, str] | None = None,
    *, storage: str | None = None,
) -> list[dict[str, str]]:
    """Everything that stops play, most urgent first, in players' words for a TV across the
    room. Cell numbers and expander addresses stay in the referee's sensor details.

    ``storage``: why the match log cannot be written, when it cannot (nothing is scored).
    """
    names = names or {}

    def who(player: str | None) -> str:
        return name_of(player, names)

    out: list[dict[str, str]] = []
    if storage:
        out.append({"kind": "storage", "message": storage})
    link = view["link"]
    if not link["up"]:
        out.append({"kind": "link", "message": "The board's sensors are not connected: "
                    "play is paused until they are back"})
    sensors = view.get("sensors") or {}
    if any(not f.get("muted") for f in sensors.get("flags", [])):
        out.append({"kind": "sensor", "message": "A board sensor needs the referee: "
                    "play waits until it is checked"})
    tracker = view["tracker"]
    question = question_words(tracker.get("question"), names)
    if tracker["mode"] == "question" and question:
        out.append({"kind": "question", "message": question["alert"]})
    elif tracker["mode"] == "restore":
        differences = tracker.get("differences") or {}
        bigs = tracker.get("big_differences") or {}
        blockades = [f for f in state.get("blocked") or () if differences.get(f, 0) > 0]
        if _new_round_clearing(state, differences, bigs):
            # a new round starts from an empty board: one instruction, not every field
            message = f"Clear the board for round {state.get('round')}: every skitt off" + (
                " and the big skitts back in hand" if bigs else "")
        else:
            message = restore_instruction(differences, bigs, names, blockades=blockades)
        out.append({"kind": "restore", "message": message})
    elif tracker["mode"] == "review":
        out.append({"kind": "review", "message": "The board does not match the match: "
                    "the referee decides on the tablet"})
    elif tracker["mode"] == "paused" and link["up"]:
        out.append({"kind": "paused", "message": "Sensing is paused by the referee"})
    pending = state.get("pending") or {}
    for red in pending.get("red") or []:
        if any(red.get("changeable", [])):
            out.append({
                "kind": "decision",
                "message": f"{who(red['player'])} may push Hit on Red points back before the "
                "next shot",
            })
    unblock = pending.get("unblock")
    if unblock:
        fields = ", ".join(in_names(f, names) for f in unblock.get("fields", []))
        out.append({
            "kind": "decision",
            "message": f"{who(unblock['player'])} may lift a blockade ({fields})",
        })
    if state.get("phase") == "shootoff":
        out.append({"kind": "shootoff",
                    "message": "Shoot-off: who starts? (enter it on the tablet)"})
    return out


def _new_round_clearing(
    state: Mapping[str, Any], differences: Mapping[str, int], bigs: Mapping[str, str]
) -> bool:
    """The last step ended a round and the board is to be emptied for the next one."""
    ended = any(e.get("kind") == "round" for e in state.get("last_effects") or ())
    board = state.get("board") or {}
    return (ended and state.get("phase") == "playing" and bool(differences)
            and not any(board.values()) and all(d > 0 for d in differences.values())
            and all(b == "unexpected" for b in bigs.values()))


def words_part(
    state: Mapping[str, Any], view: Mapping[str, Any], names: Mapping[str, str]
) -> dict[str, Any]:
    """The words the pages show for the match itself: effects, the turn, a round or game
    moment, and what the board needs (see :mod:`scorekeeper.words`)."""
    return {
        "board": board_words(view["tracker"]["message"], names),
        "effects": effects_in_names(state.get("last_effects") or [], names),
        "turn": turn_prompt(state, names),
        "moment": moment(state, names),
        "question": question_words(view["tracker"].get("question"), names),
    }


def log_in_words(entries: list[dict[str, Any]], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Log entries with ``words`` beside the raw ``text`` and effects in names."""
    return [
        {**e, "words": in_names(str(e.get("text", "")), names),
         "effects": effects_in_names(e.get("effects") or [], names)}
        for e in entries
    ]
