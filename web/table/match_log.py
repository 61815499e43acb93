"""The match log as the referee reads it: every step, with what it did and the score after.

The store keeps bare step objects; the referee page also wants each step's effects, the
score it left (for the chart), and which steps an undo took back (shown struck through,
never erased: R19). :class:`MatchLog` collects that as the table applies steps, and knows
the *standing* steps (those no undo has taken back), which amending the last shot needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.events import parse_event

AMEND_KEYS = (
    "off_board", "big", "knocked_big", "chain", "blockade", "red", "opponent_red", "unblock",
    "invalid",
)  # fmt: skip
"""What a person may add to the last shot: what the sensors cannot see (docs/scenarios.md)."""


@dataclass
class LogEntry:
    """One step of the match log."""

    seq: int
    at: float
    source: str
    step: Mapping[str, Any]
    text: str
    effects: list[dict[str, Any]]
    score: dict[str, int]
    round: int
    undone: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "at": self.at,
            "source": self.source,
            "step": dict(self.step),
            "kind": next(iter(self.step)),
            "text": self.text,
            "reason": reason_of(self.step),
            "effects": self.effects,
            "score": self.score,
            "round": self.round,
            "undone": self.undone,
        }


@dataclass
class MatchLog:
    """The log of the match being played, built up step by step."""

    entries: list[LogEntry] = field(default_factory=list)
    _standing: list[int] = field(default_factory=list)
    """Indexes into ``entries`` of the steps not taken back, oldest first."""

    def add(self, entry: LogEntry) -> None:
        """Record an applied step; an undo marks the newest standing step as taken back."""
        if "undo" in entry.step and self._standing:
            self.entries[self._standing.pop()].undone = True
        self.entries.append(entry)
        if "undo" not in entry.step:
            self._standing.append(len(self.entries) - 1)

    def last_standing(self) -> LogEntry | None:
        """The newest step no undo has taken back."""
        return self.entries[self._standing[-1]] if self._standing else None

    def steps(self) -> list[Mapping[str, Any]]:
        return [e.step for e in self.entries]

    def tail(self, n: int) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.entries[-n:]]

    def __len__(self) -> int:
        return len(self.entries)


def describe(step: Mapping[str, Any]) -> str:
    """Short words for a step, e.g. ``black's shot``; the step's own keys when it is odd."""
    try:
        return parse_event(step).describe()
    except Exception:  # noqa: BLE001 - a log line must always print
        return ", ".join(step)


def reason_of(step: Mapping[str, Any]) -> str | None:
    """The referee's reason of a correction, or the ``reason`` a web step carried."""
    body = next(iter(step.values()), None)
    if isinstance(body, Mapping):
        reason = body.get("reason")
        return reason if isinstance(reason, str) else None
    return None


def amended_shot(shot: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """The last shot with what a person adds; a key given as null is taken out again.

    Raises ``ValueError`` naming a key that is not something sensors cannot see.
    """
    out = dict(shot)
    for key, value in extra.items():
        if key not in AMEND_KEYS:
            raise ValueError(
                f"{key}: not something to add to a shot (expected one of {', '.join(AMEND_KEYS)})"
            )
        if value is None or value is False or value == 0 or value == []:
            out.pop(key, None)
        else:
            out[key] = value
    return out
