"""The committed match as readers get it, without waiting on the writer.

Only the writer (``Table.writer``) changes the match and its log, and it applies a step to
the live match before the disk has taken it. So readers on other threads never read the
live log: after each commit the writer keeps a frozen copy (:class:`Committed`, cheap: the
entries and states are shared), and the downloads read that. What needs the disk (the
stored sensor timelines, the JSON-lines export, the list of stored matches) is read through
a second, read-only connection (:meth:`~scorekeeper.store.MatchStore.read_only`): SQLite's
write-ahead log lets it read the last commit while a write waits on a stalled disk.
Downloads therefore answer during a stall, with everything committed before it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any

from web.table.match_log import MatchLog
from web.table.review import build_review
from web.table.snapshot import log_in_words

if TYPE_CHECKING:
    from web.table.table import Table


@dataclass(frozen=True)
class Committed:
    """The match log as last committed: later steps do not change it."""

    match_id: int
    names: dict[str, str]
    log: MatchLog


def committed(table: Table) -> Committed:
    """A frozen copy of ``table``'s log (writer thread, when no change is half made)."""
    log = MatchLog(table.match.frozen(), list(table.log.entries))
    return Committed(table.match_id, dict(table.names), log)


def full_log(now: Committed) -> list[dict[str, Any]]:
    """Every committed entry, with ``words`` and effects in the players' names."""
    return log_in_words(now.log.to_json(), now.names)


def review(table: Table, seq: int) -> dict[str, Any]:
    """Committed step ``seq`` with its sensor timeline (``web.table.review``); LookupError
    if there is none."""
    now = table.committed
    with table.store.read_only() as store:
        timeline = store.timeline(now.match_id, seq)
    return build_review(now.log, seq, timeline, table.profile(), now.match_id, now.names)


def export_jsonl(table: Table, out: IO[str]) -> int:
    """The match as JSON lines (``skitter log --export``), as committed."""
    with table.store.read_only() as store:
        return store.export_jsonl(table.committed.match_id, out)


def list_matches(table: Table) -> list[dict[str, Any]]:
    """Every stored match, newest first, as committed."""
    with table.store.read_only() as store:
        return store.list_matches()
