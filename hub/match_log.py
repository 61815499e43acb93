"""One match's log as the hub received it, for the referee: each step and its effects in the
players' names, with the score after it, and the match's result (counted, or the board's
claim while it waits). Apart from :mod:`hub.view` (the tournament page's parts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from hub.tournament import Tournament
from scorekeeper.errors import ScorekeeperError
from scorekeeper.events import Event, parse_event
from scorekeeper.stream_words import sent_effect_words
from scorekeeper.words import phrase_words, players_named


def match_log(t: Tournament, board: str, match_id: int) -> dict[str, Any]:
    """A match's events as the hub received them, with the score after each; the steps and
    their effects in the players' names (the raw step stays in ``event``). ``result`` is
    the counted one, or the board's claim while it waits for the referee (``counted``
    False)."""
    events = t.store.events(board, match_id)
    counted = t.store.game(board, match_id)
    game = counted or t.store.claim(board, match_id)
    names = players_named(events[-1].names if events else {})
    return {
        "board": board,
        "match_id": match_id,
        "names": names,
        "complete": bool(events) and events[-1].seq == len(events),
        "result": None if game is None else game.result.to_json(),
        "counted": counted is not None,
        "events": [
            {
                "seq": e.seq,
                "at": e.at,
                "source": e.source,
                "event": e.event,
                "text": _describe(e.event, names),
                "score": (e.state or {}).get("score"),
                "round": (e.state or {}).get("round"),
                "effects": _effects(e.event, e.state, names),
            }
            for e in events
        ],
    }


def _effects(event: dict[str, Any] | Any, state: dict[str, Any] | Any,
             names: Mapping[str, str]) -> list[str]:
    if "undo" in event:
        return ["the last step was taken back"]
    effects = [x for x in (state or {}).get("last_effects") or [] if isinstance(x, dict)]
    try:
        step: Event | None = parse_event(event)
    except (ScorekeeperError, TypeError, AttributeError, ValueError):
        step = None
    return sent_effect_words(step, effects, names)


def _describe(event: dict[str, Any] | Any, names: Mapping[str, str]) -> str:
    """Short words for a step in names (``Ann's shot``; a correction's reason as typed); its
    keys if the engine cannot read it."""
    try:
        return phrase_words(parse_event(event).phrase(), names)
    except (ScorekeeperError, TypeError, AttributeError):
        return ", ".join(map(str, event)) if isinstance(event, dict) else str(event)
