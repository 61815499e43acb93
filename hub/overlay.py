"""The hub's stream overlays: one per table (a board's match) and one for the standings.

Each board's card carries the overlay's view of its match (:func:`card_view`), in the same
shape the board's own ``/overlay`` builds from its snapshot, so both pages share one script
(``web_common/static/overlay.js``). The words are made here from what the board sent: its names,
its state, and the step the hub received last.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from hub.model import ReceivedEvent
from scorekeeper.errors import ScorekeeperError
from scorekeeper.events import Event, parse_event
from scorekeeper.options import Variant
from scorekeeper.state import Phase
from scorekeeper.store.values import StepSource
from scorekeeper.stream_words import last_shot_line
from scorekeeper.words import ENGLISH, Words, moment, players_named, turn_prompt
from web_common.i18n import SOURCE, available, for_request, language, page_in
from web_common.page_parts import with_parts

STATIC = Path(__file__).parent / "static"
router = APIRouter(tags=["pages"])


def card_view(payload: Mapping[str, Any], last: ReceivedEvent | None) -> dict[str, Any] | None:
    """What the overlay shows of a board's match; None before its first match. ``last``: the
    latest event received of the match; its line is shown only when it is the state's.

    The view is one for every overlay, so its words come in English and, under ``words_in``,
    in every other language with a catalog: each overlay shows its own language's."""
    state = payload.get("state")
    if not isinstance(state, Mapping):
        return None
    rules = state.get("rules") or {}
    return {
        "score": state.get("score") or {},
        "round_wins": state.get("round_wins") or {},
        "rounds_to_win": None if rules.get("variant") == Variant.TRIO
        else rules.get("rounds_to_win_game"),
        "points_to_win": rules.get("points_to_win_round"),
        "round": state.get("round"),
        "turn": state.get("turn") if state.get("phase") == Phase.PLAYING else None,
        **_card_words(payload, state, last, ENGLISH),
        "words_in": {code: _card_words(payload, state, last, language(code))
                     for code in available() if code != SOURCE},
    }


def _card_words(payload: Mapping[str, Any], state: Mapping[str, Any],
                last: ReceivedEvent | None, t: Words) -> dict[str, Any]:
    """The overlay's words in the language ``t``: the names (a seat without one in words),
    whose turn, the last shot's line and a round's or the game's moment."""
    names = players_named(payload.get("names") or {}, t)
    line = ""
    if last is not None and last.seq == payload.get("seq"):
        line = last_shot_line(_words(last.event), state.get("last_effects") or [], names,
                              entered=last.source == StepSource.MANUAL, t=t)
    shown = _safe(moment, state, names, t)
    return {"names": names, "turn_words": _safe(turn_prompt, state, names, t),
            "last_shot": line, "moment": None if shown is None else shown.to_json()}


def _words(event: Mapping[str, Any]) -> Event | None:
    """The step a board sent, or None when the engine cannot read it."""
    try:
        return parse_event(dict(event))
    except (ScorekeeperError, TypeError, AttributeError, ValueError):
        return None


def _safe(words: Any, state: Mapping[str, Any], names: Mapping[str, str], t: Words) -> Any:
    """A board's state passed the hub's decoder, but the overlay must outlive a state it
    cannot put into words: it shows nothing for that part."""
    try:
        return words(state, names, t)
    except (KeyError, TypeError, AttributeError, ValueError):
        return "" if words is turn_prompt else None


def _page(name: str, request: Request) -> HTMLResponse:
    """An overlay page in its language (``?lang=``, Accept-Language, the default: as every
    page, ``web_common.i18n``), its catalog with it for the scripts' ``t``."""
    source = with_parts((STATIC / name).read_text(encoding="utf-8"))
    return HTMLResponse(page_in(source, for_request(request)),
                        headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})


@router.get("/overlay", include_in_schema=False)
async def table_overlay(request: Request) -> HTMLResponse:
    """``?table=N`` (the game on the tournament's table N) or ``?board=ID``."""
    return _page("overlay.html", request)


@router.get("/overlay/standings", include_in_schema=False)
async def standings_overlay(request: Request) -> HTMLResponse:
    return _page("overlay-standings.html", request)
