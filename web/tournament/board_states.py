"""The match state after each stored event of a board, for what the link publishes.

The board's link sends every event with the state right after it, and the latest state on
its own; both are made here by folding the stored log through the rules engine, the one
path every match takes. The link keeps a :class:`StateFold` per match and gives it only the
events stored since it last looked, so a step costs the same at step 10 and at step 2,000
(refolding the whole log after every step made a match quadratic).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.store import StoredEvent, StoredMatch

log = logging.getLogger(__name__)


class StateFold:
    """One stored match folded so far: its events and the state after each (``seq - 1``).

    A log the engine refuses (it should never happen) yields None from the refused step on:
    the events are still published, so the hub's log stays complete.
    """

    def __init__(self, header: StoredMatch) -> None:
        self.match_id = header.id
        self.names = dict(header.names)
        self.rules = dict(header.rules)
        self.setup = dict(header.setup)
        pairing = header.meta.get("pairing")
        self.pairing = dict(pairing) if isinstance(pairing, Mapping) else None
        """The tournament game the match was started from, sent with each event."""
        self.events: list[StoredEvent] = []
        self.states: list[dict[str, Any] | None] = []
        self._match: Match | None = None
        try:
            self._match = Match(Rules.from_json(header.rules), Setup.from_json(header.setup),
                                header.names)  # type: ignore[arg-type]
        except ScorekeeperError as exc:
            self._refused(exc)

    def extend(self, events: Iterable[StoredEvent]) -> None:
        """Fold the next events (each ``seq`` one past the last folded)."""
        for ev in events:
            self.events.append(ev)
            if self._match is not None:
                try:
                    self._match.apply(ev.body)
                except ScorekeeperError as exc:
                    self._refused(exc)
            self.states.append(None if self._match is None else self._match.state.to_json())

    def _refused(self, exc: ScorekeeperError) -> None:
        log.error("match %s cannot be replayed: %s", self.match_id, exc)
        self._match = None


def replay_states(stored: StoredMatch) -> list[dict[str, Any] | None]:
    """The state after each event of a whole stored match."""
    fold = StateFold(stored)
    fold.extend(stored.events)
    return fold.states
