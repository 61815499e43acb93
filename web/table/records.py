"""The committed match as readers get it, without waiting on the writer.

Only the writer (``Table.writer``) changes the match and its log, and a step reaches the
in-memory log only after it has committed; so the log, read from any thread, holds
committed steps only. What needs the disk (the stored sensor timelines, the JSON-lines
export, the list of stored matches) is read through a second, read-only connection
(:meth:`~scorekeeper.store.MatchStore.read_only`): SQLite's write-ahead log lets it read the
last commit while a write waits on a stalled disk. Downloads therefore answer during a
stall, with what was committed before it.
"""

from __future__ import annotations

from typing import IO, TYPE_CHECKING, Any

from web.table.review import build_review
from web.table.snapshot import log_in_words

if TYPE_CHECKING:
    from web.table.table import Table

LOG_TAIL = 10
"""Log entries in every snapshot (the pages use the last; the whole log is /api/match/log)."""


def match_part(table: Table) -> dict[str, Any]:
    """The match part of the snapshot (built on the writer after each commit, then kept)."""
    last = table.log.last_standing()
    return {
        "match_id": table.match_id,
        "names": dict(table.names),
        "handicaps": table.meta.get("handicaps", {}),
        "state": table.match.state.to_json(),
        "can_undo": bool(table.match.can_undo),
        "log": log_in_words(table.log.tail(LOG_TAIL), table.names),
        "last_step": None if last is None else last.to_json(),
        "log_length": len(table.log),
        "review_shown": table.review_shown,
    }


def full_log(table: Table) -> list[dict[str, Any]]:
    """Every entry, with ``words`` and effects in the players' names beside the raw step."""
    log, names = table.log, table.names
    return log_in_words([e.to_json() for e in list(log.entries)], names)


def review(table: Table, seq: int) -> dict[str, Any]:
    """Step ``seq`` with its sensor timeline (``web.table.review``); LookupError if none."""
    log, match_id, names = table.log, table.match_id, table.names
    entries = list(log.entries)
    last = log.last_standing()
    with table.store.read_only() as store:
        timeline = store.timeline(match_id, seq)
    return build_review(entries, seq, timeline, table.profile(), match_id, names,
                        None if last is None else last.seq)


def export_jsonl(table: Table, out: IO[str]) -> int:
    """The match as JSON lines (``skitter log --export``), as committed."""
    with table.store.read_only() as store:
        return store.export_jsonl(table.match_id, out)


def list_matches(table: Table) -> list[dict[str, Any]]:
    """Every stored match, newest first, as committed."""
    with table.store.read_only() as store:
        return store.list_matches()
