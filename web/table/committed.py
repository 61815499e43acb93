"""What the writer committed, as one frozen value every reader takes.

Only the writer (``Table.writer``) changes the match and its log, and it applies a step to
the live match before the disk has taken it. After each commit it makes a
:class:`Committed` (cheap: the entries and states are shared, the match is frozen) and
everything shown or downloaded is made from that value: the match part of the snapshot
(:func:`web.table.snapshot.match_part`) and the downloads (:mod:`web.table.records`). So
nothing uncommitted is ever shown, and neither module needs the table itself. The writer's
commit returns it (:meth:`web.table.live.LiveMatch.commit`) and the table publishes it, as
the value with the number of the state that first shows it (:attr:`Committed.seq`, given
by :meth:`web.table.states.States.published`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.match import Match
from web.table.match_log import LogEntry, MatchLog


@dataclass(frozen=True)
class Committed:
    """The match in play as last committed: later steps do not change it."""

    match_id: int
    names: dict[str, str]
    log: MatchLog
    """The log with its match frozen (``log.match``)."""
    meta: Mapping[str, Any] = field(default_factory=dict)
    """The match's stored extras (handicaps, ...)."""
    new: tuple[LogEntry, ...] = ()
    """The entries this commit added, with their effects (none for a new or resumed match)."""
    seq: int = 0
    """The state it was published as (the snapshots' ``version`` while it is the match
    shown; what a page's change is checked against); 0 until it is published."""

    @property
    def match(self) -> Match:
        return self.log.match


def commit_of(
    match_id: int, names: Mapping[str, str], meta: Mapping[str, Any], log: MatchLog,
    new: tuple[LogEntry, ...] = (),
) -> Committed:
    """A frozen copy of the live ``log`` (writer thread, when no change is half made)."""
    return Committed(match_id, dict(names), MatchLog(log.match.frozen(), list(log.entries)),
                     dict(meta), new)


NOTHING = Committed(0, {}, MatchLog(Match()))
"""Before the first commit."""
