"""The published state: what every page receives, and what stops play.

Kept apart from :mod:`web.table.table` so the table reads as the path a change takes, and this
file as the answer to "what does the scoreboard say about the board right now?". The JSON of
the match and its log is made here, when a snapshot is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from scorekeeper.stream_words import last_shot_line
from scorekeeper.tracker import Tracker
from scorekeeper.words import (
    board_words,
    effects_in_names,
    given_names,
    in_names,
    moment,
    name_of,
    players_named,
    restore_instruction,
    turn_prompt,
)
from web.table.sensing import Sensing

if TYPE_CHECKING:
    from web.table.table import Table

LOG_TAIL = 10
"""Log entries in every snapshot (the pages use the last; the whole log is /api/match/log)."""


def match_part(table: Table) -> dict[str, Any]:
    """The match part of the snapshot, built by the writer after each commit and kept (the
    sensing side publishes it again with each new view of the sensors)."""
    last = table.log.last_standing()
    return {
        "match_id": table.match_id,
        "names": players_named(table.names),
        "given_names": given_names(table.names),
        "handicaps": table.meta.get("handicaps", {}),
        "state": table.match.state.to_json(),
        "can_undo": bool(table.match.can_undo),
        "log": log_in_words(table.log.tail(LOG_TAIL), table.names),
        "last_step": None if last is None else last.to_json(undone=False),  # it stands
        "log_length": len(table.log),
        "review_shown": table.review_shown,
    }


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
        "words": {**words_part(state, view, names), "last_shot": _last_shot(match, state)},
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
    if tracker["mode"] == "restore":
        out.append({"kind": "restore", "message": restore_instruction(
            tracker.get("differences") or {}, tracker.get("big_differences") or {}, names)})
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
    }


def _last_shot(match: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """The last standing step and its effects on one line (the stream overlay's)."""
    last = match.get("last_step") or {}
    return last_shot_line(last.get("text"), state.get("last_effects") or [], match["names"],
                          entered=last.get("source") == "manual")


def log_in_words(entries: list[dict[str, Any]], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Log entries with ``words`` beside the raw ``text`` and effects in names."""
    return [
        {**e, "words": in_names(str(e.get("text", "")), names),
         "effects": effects_in_names(e.get("effects") or [], names)}
        for e in entries
    ]
