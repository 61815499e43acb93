"""The match state after each stored event of a board, for what the link publishes.

The board's link sends every event with the state right after it, and the latest state on
its own; both are made here by folding the stored log through the rules engine, the one
path every match takes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from scorekeeper.store import StoredMatch

log = logging.getLogger(__name__)

StateReplay = Callable[[StoredMatch], Sequence[Mapping[str, Any] | None]]
"""The match state after each event of a stored match (index ``seq - 1``)."""


def replay_states(stored: StoredMatch) -> list[dict[str, Any] | None]:
    """The state after each event, by folding the log with the rules engine.

    A log the engine refuses (it should never happen) yields None from the refused step on:
    the events are still published, so the hub's log stays complete.
    """
    from scorekeeper.errors import ScorekeeperError
    from scorekeeper.match import Match
    from scorekeeper.options import Rules, Setup

    out: list[dict[str, Any] | None] = []
    try:
        match = Match(Rules.from_json(stored.rules), Setup.from_json(stored.setup),
                      stored.names)  # type: ignore[arg-type]
        for ev in stored.events:
            match.apply(ev.body)
            out.append(match.state.to_json())
    except ScorekeeperError as exc:
        log.error("match %s cannot be replayed: %s", stored.id, exc)
    return out + [None] * (len(stored.events) - len(out))
