"""What the match log gives back: a stored step and a stored match, as frozen values."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

EXPORT_FORMAT = 1
"""``format`` of an export's header line (:meth:`StoredMatch.header`)."""


class StepSource(StrEnum):
    """Who made a step, as the log stores it (the same word): the sensors, or a person at
    the table. A stored log may hold others (``button``, ``hub``), kept as written."""

    SENSOR = "sensor"
    MANUAL = "manual"
    """Entered by a person (the tablet, the referee)."""


@dataclass(frozen=True)
class StoredEvent:
    """One line of a match log."""

    seq: int
    """Position in the match's log, from 1."""
    at: float
    """Wall-clock time (seconds since the epoch) when it was recorded."""
    source: str
    """Who made it: ``sensor``, ``manual`` (tablet), ``button``, ``hub``..."""
    body: Mapping[str, Any]
    """The event as a scenario-format step object."""

    def to_json(self) -> dict[str, Any]:
        return {"seq": self.seq, "at": self.at, "source": self.source, "event": self.body}


@dataclass(frozen=True)
class StoredMatch:
    """A match as stored: its header and every event in order."""

    id: int
    created_at: float
    rules: Mapping[str, Any]
    setup: Mapping[str, Any]
    names: Mapping[str, str]
    meta: Mapping[str, Any]
    events: tuple[StoredEvent, ...]

    def header(self) -> dict[str, Any]:
        return {
            "format": EXPORT_FORMAT,
            "id": self.id,
            "created_at": self.created_at,
            "rules": self.rules,
            "setup": self.setup,
            "names": self.names,
            "meta": self.meta,
        }
