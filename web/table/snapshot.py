"""The parts of the published state that are not the match itself, and what stops play.

Kept apart from :mod:`web.table.table` so the table reads as the path a change takes, and this
file as the answer to "what does the scoreboard say about the board right now?".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.tracker import Tracker
from web.table.sensing import Sensing


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


def alerts(
    state: Mapping[str, Any], view: Mapping[str, Any], names: Mapping[str, str] | None = None,
    *, storage: str | None = None,
) -> list[dict[str, str]]:
    """Everything that stops play, most urgent first, in words for a TV across the room.

    ``storage``: why the match log cannot be written, when it cannot (nothing is scored).
    """
    names = names or {}

    def who(player: str | None) -> str:
        return names.get(player or "", player or "nobody")

    out: list[dict[str, str]] = []
    if storage:
        out.append({"kind": "storage", "message": storage})
    link = view["link"]
    if not link["up"]:
        out.append({"kind": "link", "message": link["message"] or "sensor link down"})
    sensors = view.get("sensors") or {}
    for reason in sensors.get("held", []):
        out.append({"kind": "sensor", "message": reason})
    tracker = view["tracker"]
    if tracker["mode"] == "restore":
        out.append({"kind": "restore", "message": tracker["message"]})
    elif tracker["mode"] == "review":
        out.append({"kind": "review", "message": tracker["message"]})
    elif tracker["mode"] == "paused" and link["up"]:
        out.append({"kind": "paused", "message": tracker["message"]})
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
        fields = ", ".join(unblock.get("fields", []))
        out.append({
            "kind": "decision",
            "message": f"{who(unblock['player'])} may lift a blockade ({fields})",
        })
    if state.get("phase") == "shootoff":
        out.append({"kind": "shootoff", "message": "shoot-off: who starts? (enter on the tablet)"})
    if state.get("phase") == "game_over":
        out.append({"kind": "game_over", "message": f"game over: {who(state.get('winner'))} wins"})
    return out
