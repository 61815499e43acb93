"""Loading the table's match at start: the newest stored match, replayed through the rules.

Kept apart from :mod:`web.table.table` so the table reads as the path a change takes. The
stored step texts are the edge here: each distinct text is parsed once
(:meth:`Match.replay_json`), and from then on the match and its log hold events.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.clock import Clock
from scorekeeper.effects import Effect
from scorekeeper.errors import IllegalEventError, because
from scorekeeper.events import Event
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.state import State
from scorekeeper.store import MatchStore, StoreError
from web.table.match_log import MatchLog, log_entry


@dataclass(frozen=True)
class Resumed:
    """A stored match, rebuilt: its log holds the live match."""

    match_id: int
    rules: Rules
    setup: Setup
    names: dict[str, str]
    meta: dict[str, Any]
    log: MatchLog


def resume(store: MatchStore, wall: Clock, match_id: int | None = None) -> Resumed:
    """Replay the match in play (or stored match ``match_id``), or start a default one on
    an empty store.

    Raises :class:`StoreError` naming the step when the rules refuse the stored log (a
    damaged log is never taken for a match), or when there is no match ``match_id``."""
    if match_id is None:
        match_id = store.latest_match_id()
    if match_id is None:
        match_id = store.create_match(
            Rules().to_json(), {"first": "black"}, {}, at=wall.now(),
            meta={"handicaps": {}},
        )
    head = store.load_header(match_id)
    names = dict(head.names)  # as given: a side without a name is shown by its seat
    rules, setup = Rules.from_json(head.rules), Setup.from_json(head.setup)
    rows = list(store.iter_rows(match_id))
    entries = []
    words: dict[int, str] = {}
    """Per distinct event (a log repeats its steps, and a text always gives the same event
    object): its words, made once."""

    def on_step(i: int, event: Event, state: State, effects: tuple[Effect, ...]) -> None:
        seq, at, source, _ = rows[i - 1]
        said = words.get(id(event))
        if said is None:
            said = words[id(event)] = event.describe()
        entries.append(log_entry(state, seq, at, source, event, effects, said))

    try:
        match = Match.replay_json(rules, setup, (row[3] for row in rows), names,
                                  on_step=on_step)
    except IllegalEventError as exc:
        why = because("match {id} in {path} cannot be played on: its step {step} is refused: "
                      "{why}", rule=exc.why.rules, id=str(match_id), path=str(store.path),
                      step=len(entries) + 1, why=exc.why)
        raise StoreError(f"match {match_id} in {store.path} cannot be replayed: {exc}",
                         why=why, names=names) from exc
    return Resumed(match_id, rules, setup, names, dict(head.meta), MatchLog(match, entries))
