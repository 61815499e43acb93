"""The match log as the referee reads it: every step, with what it did and the score after.

The store keeps bare step objects; the referee page also wants each step's effects, the
score it left (for the chart), and which steps an undo took back (shown struck through,
never erased: R19). :class:`MatchLog` keeps one :class:`LogEntry` per event of its match, in
the same order, and asks the match which of them stand (:meth:`Match.taken_back`): the
match is the one record of undos. Entries hold the events themselves; their JSON is made
only when an entry is sent (:meth:`LogEntry.to_json`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper.effects import Effect
from scorekeeper.events import Correction, Event, ShotEvent, Undo, parse_shot
from scorekeeper.match import Match
from scorekeeper.shot import Shot
from scorekeeper.state import State

AMEND_KEYS = (
    "off_board", "big", "knocked_big", "chain", "chain_from", "blockade", "red", "opponent_red",
    "unblock", "invalid", "keep", "minus_hit",
)  # fmt: skip
"""What a person may add to the last shot: what the sensors cannot see (docs/scenarios.md)."""


@dataclass(frozen=True)
class LogEntry:
    """One step of the match log."""

    seq: int
    at: float
    source: str
    event: Event
    text: str
    """The step's rules words with side ids (the referee's log)."""
    effects: tuple[Effect, ...]
    score: dict[str, int]
    round: int

    @property
    def kind(self) -> str:
        """The key of the step object: ``shot``, ``undo``, ``correct``..."""
        return self.event.kind

    def to_json(self, *, undone: bool) -> dict[str, Any]:
        """The entry as sent; ``undone`` (an undo took it back) comes from the match."""
        return {
            "seq": self.seq,
            "at": self.at,
            "source": self.source,
            "step": self.event.to_json(),
            "kind": self.kind,
            "text": self.text,
            "reason": reason_of(self.event),
            "effects": [e.to_json() for e in self.effects],
            "score": self.score,
            "round": self.round,
            "undone": undone,
        }


@dataclass
class MatchLog:
    """The log of ``match``, built up step by step: entry ``i`` is ``match.events[i]``."""

    match: Match
    entries: list[LogEntry] = field(default_factory=list)

    def add(self, entry: LogEntry) -> None:
        """Record a step the match has just taken."""
        self.entries.append(entry)

    def undone(self, index: int) -> bool:
        """True when an undo took back the step of entry ``index``."""
        return self.match.taken_back(index)

    def last_standing(self) -> LogEntry | None:
        """The newest step no undo has taken back."""
        position = self.match.last_standing
        return None if position is None else self.entries[position]

    def taken_back_last(self) -> LogEntry | None:
        """The step the newest step took back, when the newest step is an undo (the TV says
        what was taken back, not "undo"). An undo takes back the newest step still standing
        before it; undos themselves are never taken back."""
        if not self.entries or not isinstance(self.entries[-1].event, Undo):
            return None
        standing: list[LogEntry] = []
        taken: LogEntry | None = None
        for entry in self.entries:
            if isinstance(entry.event, Undo):
                taken = standing.pop() if standing else None
            else:
                standing.append(entry)
        return taken

    def to_json(self, first: int = 0) -> list[dict[str, Any]]:
        """The entries from index ``first`` on, as sent."""
        return [e.to_json(undone=self.undone(i))
                for i, e in enumerate(self.entries[first:], first)]

    def tail(self, n: int) -> list[dict[str, Any]]:
        """The last ``n`` entries, as sent."""
        return self.to_json(max(0, len(self.entries) - n))

    def tail_entries(self, n: int) -> list[tuple[LogEntry, bool]]:
        """The last ``n`` entries, each with whether an undo took it back."""
        first = max(0, len(self.entries) - n)
        return [(e, self.undone(i)) for i, e in enumerate(self.entries[first:], first)]

    def __len__(self) -> int:
        return len(self.entries)


def reason_of(event: Event) -> str | None:
    """The referee's reason of a correction."""
    return event.reason if isinstance(event, Correction) else None


def amended_shot(shot: ShotEvent, extra: Mapping[str, Any]) -> ShotEvent:
    """The last shot with what a person adds; a key given as null is taken out again.

    ``extra`` comes from a page: a key that is not something sensors cannot see raises
    ``ValueError`` naming it, and the added values are checked as any shot's
    (:class:`~scorekeeper.errors.IllegalEventError` naming the key). Only the added values
    are parsed; the rest of the shot is kept as it is.
    """
    for key in extra:
        if key not in AMEND_KEYS:
            raise ValueError(
                f"{key}: not something to add to a shot (expected one of {', '.join(AMEND_KEYS)})"
            )
    taken_out = [k for k, v in extra.items() if v is None or v is False or v == 0 or v == []]
    added = {k: v for k, v in extra.items() if k not in taken_out}
    parsed = parse_shot({"by": shot.shot.by, **added})
    unset = Shot(shot.shot.by)
    return ShotEvent(replace(
        shot.shot,
        **{k: getattr(unset, k) for k in taken_out}, **{k: getattr(parsed, k) for k in added},
    ))


def log_entry(
    state: State, seq: int, at: float, source: str, event: Event,
    effects: Iterable[Effect] = (), words: str | None = None,
) -> LogEntry:
    """The entry of a step the match has just taken: ``state`` is the state after it,
    ``words`` its description when the caller already has it (a resume describes each
    distinct event once)."""
    return LogEntry(
        seq=seq, at=at, source=source, event=event,
        text=event.describe() if words is None else words,
        effects=tuple(effects),
        score=dict(state.score), round=state.round,
    )
