"""Players' history read from the match log: every stored match turned into a
:class:`~scorekeeper.stats.MatchRecord`, then statistics and ratings derived from them.

Nothing is stored besides the match log itself (schema unchanged): a record is the replay of
a match's steps, kept in memory by match id and event count, so a finished match is replayed
once per process and the match being played again only when it has new steps.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scorekeeper.errors import IllegalEventError
from scorekeeper.fields import PLAYERS
from scorekeeper.ratings import Rating, Result, rate
from scorekeeper.stats import (
    HeadToHead,
    MatchRecord,
    PlayerStats,
    counted_records,
    head_to_head,
    known_names,
    match_record,
    player_key,
    player_stats,
)
from scorekeeper.store import MatchStore, StoreError


@dataclass(frozen=True)
class Overview:
    """Everything the statistics pages need, read once."""

    records: list[MatchRecord]
    players: dict[str, PlayerStats]
    ratings: dict[str, Rating]
    history: list[dict[str, float]]
    """Each player's rating (by key) after each counted match, oldest first."""
    problems: list[str] = field(default_factory=list)
    """Stored matches that could not be read, in words."""

    def player(self, name: str) -> PlayerStats | None:
        return self.players.get(player_key(name))

    def rating(self, name: str) -> Rating | None:
        return self.ratings.get(player_key(name))

    def head_to_head(self, a: str, b: str) -> HeadToHead:
        """``a`` against ``b``, each shown by the name of their statistics when known."""
        shown = [p.name if (p := self.player(n)) is not None else n for n in (a, b)]
        return head_to_head(self.records, shown[0], shown[1])

    def names(self) -> list[str]:
        return known_names(self.records)

    def table(self) -> list[dict[str, Any]]:
        """One row per player, best rating first: statistics and rating together."""
        rows = []
        for key, stats in self.players.items():
            row = stats.to_json()
            rating = self.ratings.get(key)
            row["rating"] = None if rating is None else round(rating.ordinal, 2)
            rows.append(row)
        rows.sort(key=lambda r: (-(r["rating"] or 0.0), r["name"].casefold()))
        return rows


def results_of(records: list[MatchRecord]) -> list[Result]:
    """The counted matches as rating results, oldest first."""
    out = []
    for r in counted_records(records):
        winner = None if r.winner is None else r.names[r.winner]
        out.append(Result(r.names["black"], r.names["white"], winner))
    return out


class History:
    """Reads a match log's matches into records, remembering those already read.

    Each reading opens its own connection to the file (SQLite's WAL lets it read while the
    table writes), so it may run in a worker thread, off the event loop.
    """

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._cache: dict[int, tuple[int, MatchRecord | str]] = {}
        self._lock = threading.Lock()

    def overview(self) -> Overview:
        """Every match read (new ones replayed), then statistics and ratings."""
        with self._lock, MatchStore(self.path) as store:
            return self._overview(store)

    def _overview(self, store: MatchStore) -> Overview:
        records: list[MatchRecord] = []
        problems: list[str] = []
        for head in store.list_matches():
            got = self._record(store, int(head["id"]), int(head["events"]))
            if isinstance(got, str):
                problems.append(got)
            else:
                records.append(got)
        ratings, history = rate(results_of(records))
        return Overview(records, player_stats(records), ratings, history, problems)

    def _record(self, store: MatchStore, match_id: int, events: int) -> MatchRecord | str:
        cached = self._cache.get(match_id)
        if cached is not None and cached[0] == events:
            return cached[1]
        got: MatchRecord | str
        try:
            head = store.load_header(match_id)
            steps = [json.loads(b) for b in store.iter_bodies(match_id)]
            names = {p: str(head.names.get(p, p)) for p in PLAYERS}
            got = match_record(
                match_id, head.created_at, head.rules, head.setup, names, steps)
        except (StoreError, IllegalEventError, ValueError) as exc:
            got = f"match {match_id} is left out of the statistics: {exc}"
        self._cache[match_id] = (events, got)
        return got
