"""The committed match as readers get it, without waiting on the writer.

Readers on other threads never read the live log: they take the frozen value the writer
made after its last commit (:class:`~web.table.committed.Committed`). What needs the disk (the
stored sensor timelines, the JSON-lines export, the list of stored matches) is read through
a second, read-only connection (:meth:`~scorekeeper.store.MatchStore.read_only`): SQLite's
write-ahead log lets it read the last commit while a write waits on a stalled disk.
Downloads therefore answer during a stall, with everything committed before it.
"""

from __future__ import annotations

from typing import IO, Any

from firmware_bridge.profile import BoardProfile
from scorekeeper.store import MatchStore
from scorekeeper.words import ENGLISH, Words, players_named
from web.table.committed import Committed
from web.table.review import build_review
from web.table.snapshot import entry_in_words


def full_log(now: Committed, t: Words | None = None) -> list[dict[str, Any]]:
    """Every committed entry, with ``words`` and effects in the players' names; in the
    language ``t`` when one other than the rules' is given (the steps from their values)."""
    if t is None:
        t, names = ENGLISH, now.names
    else:
        names = players_named(now.names, t)
    return [entry_in_words(e, undone, names, t)
            for e, undone in now.log.tail_entries(len(now.log))]


def review(
    now: Committed, store: MatchStore, profile: BoardProfile, seq: int, t: Words = ENGLISH,
) -> dict[str, Any]:
    """Committed step ``seq`` with its sensor timeline (``web.table.review``), its sentences
    in the language ``t``; LookupError if there is none."""
    with store.read_only() as reader:
        timeline = reader.timeline(now.match_id, seq)
    return build_review(now.log, seq, timeline, profile, now.match_id, now.names, t)


def export_jsonl(now: Committed, store: MatchStore, out: IO[str]) -> int:
    """The match as JSON lines (``skitter log --export``), as committed."""
    with store.read_only() as reader:
        return reader.export_jsonl(now.match_id, out)


def list_matches(store: MatchStore) -> list[dict[str, Any]]:
    """Every stored match, newest first, as committed."""
    with store.read_only() as reader:
        return reader.list_matches()
