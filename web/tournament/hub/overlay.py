"""The hub's stream overlays: one per table (a board's match) and one for the standings.

Each board's card carries the overlay's view of its match (:func:`card_view`), in the same
shape the board's own ``/overlay`` builds from its snapshot, so both pages share one script
(``web/static/overlay.js``). The words are made here from what the board sent: its names,
its state, and the step the hub received last.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse

from scorekeeper.errors import ScorekeeperError
from scorekeeper.events import parse_event
from scorekeeper.stream_words import last_shot_line
from scorekeeper.words import moment, players_named, turn_prompt
from web.tournament.hub.model import ReceivedEvent

STATIC = Path(__file__).parent / "static"
router = APIRouter(tags=["pages"])


def card_view(payload: Mapping[str, Any], last: ReceivedEvent | None) -> dict[str, Any] | None:
    """What the overlay shows of a board's match; None before its first match. ``last``: the
    latest event received of the match; its line is shown only when it is the state's."""
    state = payload.get("state")
    if not isinstance(state, Mapping):
        return None
    names = players_named(payload.get("names") or {})
    rules = state.get("rules") or {}
    line = ""
    if last is not None and last.seq == payload.get("seq"):
        line = last_shot_line(_words(last.event), state.get("last_effects") or [], names,
                              entered=last.source == "manual")
    return {
        "names": names,
        "score": state.get("score") or {},
        "round_wins": state.get("round_wins") or {},
        "rounds_to_win": None if rules.get("variant") == "trio"
        else rules.get("rounds_to_win_game"),
        "points_to_win": rules.get("points_to_win_round"),
        "round": state.get("round"),
        "turn": state.get("turn") if state.get("phase") == "playing" else None,
        "turn_words": _safe(turn_prompt, state, names),
        "last_shot": line,
        "moment": _safe(moment, state, names),
    }


def _words(event: Mapping[str, Any]) -> str | None:
    try:
        return parse_event(dict(event)).describe()
    except (ScorekeeperError, TypeError, AttributeError, ValueError):
        return None


def _safe(words: Any, state: Mapping[str, Any], names: Mapping[str, str]) -> Any:
    """A board's state passed the hub's decoder, but the overlay must outlive a state it
    cannot put into words: it shows nothing for that part."""
    try:
        return words(state, names)
    except (KeyError, TypeError, AttributeError, ValueError):
        return "" if words is turn_prompt else None


def _page(name: str) -> FileResponse:
    return FileResponse(STATIC / name, media_type="text/html",
                        headers={"Cache-Control": "no-cache"})


@router.get("/overlay", include_in_schema=False)
async def table_overlay() -> FileResponse:
    """``?table=N`` (the game on the tournament's table N) or ``?board=ID``."""
    return _page("overlay.html")


@router.get("/overlay/standings", include_in_schema=False)
async def standings_overlay() -> FileResponse:
    return _page("overlay-standings.html")
