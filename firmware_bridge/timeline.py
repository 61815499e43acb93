"""A shot's sensor timeline: what the board sensed between leaving rest and coming to rest.

The pipeline hands every debounced change of a counted cell to a :class:`TimelineRecorder`;
when a settled reading is emitted the recorder closes a :class:`Timeline`: the cells active
at rest before the shot, each change with its offset in ms from the first one, and the
settled reading. It is stored with the step the tracker made of that reading, so a referee
can replay a disputed shot later (``web/static/review.js``) and a review file can be played
back through the pipeline (:func:`firmware_bridge.replay.read_log` accepts it).

Bounded: at most :data:`MAX_CHANGES` changes are kept; further ones are counted in ``cut``.
The JSON is compact (``[ms, cell, 0|1]`` per change) so a shot costs a few hundred bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.reading import BoardReading

TIMELINE_VERSION = 1
MAX_CHANGES = 2000


@dataclass(frozen=True)
class Change:
    """One debounced cell change, ``ms`` after the board left rest."""

    ms: int
    cell: int
    active: bool


@dataclass(frozen=True)
class Timeline:
    """The sensed course of one shot, and the settled reading it ended in."""

    before: frozenset[int]
    """Debounced active cells while the board was at rest before the shot."""
    changes: tuple[Change, ...]
    settled_ms: int
    """When the reading was taken, ms after the first change (0 without changes)."""
    reading: Mapping[str, Any]
    """The settled reading as JSON (counts, big, bridges, launched, muted)."""
    cut: int = 0
    """Changes left out beyond :data:`MAX_CHANGES`."""
    muted: frozenset[int] = frozenset()
    """Cells the referee had muted: left out of the counts and of ``changes``."""

    def note(self) -> str:
        """Plain words for a cut timeline, empty otherwise."""
        if not self.cut:
            return ""
        return (f"the board changed {len(self.changes) + self.cut} times; only the first "
                f"{len(self.changes)} changes were kept")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "v": TIMELINE_VERSION,
            "before": sorted(self.before),
            "changes": [[c.ms, c.cell, int(c.active)] for c in self.changes],
            "settled_ms": self.settled_ms,
            "reading": dict(self.reading),
        }
        if self.cut:
            out["cut"] = self.cut
            out["note"] = self.note()
        if self.muted:
            out["muted"] = sorted(self.muted)
        return out

    @classmethod
    def from_json(cls, data: Any) -> Timeline:
        """Parse a stored or downloaded timeline; ``ValueError`` names what is wrong."""
        if not isinstance(data, Mapping):
            raise ValueError("timeline: expected an object")
        if data.get("v") != TIMELINE_VERSION:
            raise ValueError(f"timeline.v: unknown version {data.get('v')!r}")
        before = _cells(data.get("before"), "timeline.before")
        raw = data.get("changes")
        if not isinstance(raw, list):
            raise ValueError("timeline.changes: expected a list")
        changes: list[Change] = []
        last = 0
        for i, item in enumerate(raw):
            if (not isinstance(item, list) or len(item) != 3
                    or not all(_is_int(x) for x in item) or item[2] not in (0, 1)):
                raise ValueError(f"timeline.changes[{i}]: expected [ms, cell, 0 or 1]")
            ms, cell, active = item
            if ms < last or cell < 0:
                raise ValueError(f"timeline.changes[{i}]: time goes backwards or bad cell")
            last = ms
            changes.append(Change(ms, cell, bool(active)))
        settled = data.get("settled_ms", last)
        reading = data.get("reading")
        if not _is_int(settled) or not isinstance(reading, Mapping):
            raise ValueError("timeline.settled_ms/reading: missing or of the wrong type")
        cut = data.get("cut", 0)
        if not _is_int(cut) or cut < 0:
            raise ValueError("timeline.cut: expected a count")
        muted = _cells(data.get("muted", []), "timeline.muted")
        return cls(before, tuple(changes), settled, dict(reading), cut, muted)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _cells(value: Any, name: str) -> frozenset[int]:
    if not isinstance(value, list) or not all(_is_int(c) and c >= 0 for c in value):
        raise ValueError(f"{name}: expected a list of cell numbers")
    return frozenset(value)


def reading_json(reading: BoardReading) -> dict[str, Any]:
    """A settled reading as JSON (the same keys a review shows)."""
    return {
        "counts": {k: int(v) for k, v in reading.counts.items()},
        "big": {str(p): bool(v) for p, v in reading.big.items()},
        "bridges": sorted(list(b) for b in reading.bridges),
        "launched": sorted(str(p) for p in reading.launched),
        "muted": sorted(reading.muted),
    }


class TimelineRecorder:
    """Collects the debounced changes of the shot in progress (owned by the pipeline)."""

    def __init__(self, initial: Iterable[int] = (), limit: int = MAX_CHANGES) -> None:
        self.limit = limit
        self._before = frozenset(initial)
        self._start: float | None = None
        self._changes: list[Change] = []
        self._cut = 0

    def change(self, cell: int, active: bool, at: float) -> None:
        """A debounced change of a counted, unmuted cell at clock time ``at``."""
        if self._start is None:
            self._start = at
        if len(self._changes) >= self.limit:
            self._cut += 1
            return
        ms = max(0, round((at - self._start) * 1000))
        if self._changes and ms < self._changes[-1].ms:
            ms = self._changes[-1].ms
        self._changes.append(Change(ms, cell, active))

    def finish(
        self, reading: BoardReading, active: frozenset[int], muted: frozenset[int]
    ) -> Timeline:
        """The board came to rest with ``reading``: close this timeline, start the next."""
        start = self._start if self._start is not None else reading.at
        timeline = Timeline(
            before=self._before - muted,
            changes=tuple(self._changes),
            settled_ms=max(0, round((reading.at - start) * 1000)),
            reading=reading_json(reading),
            cut=self._cut,
            muted=muted,
        )
        self._before = frozenset(active)
        self._start = None
        self._changes = []
        self._cut = 0
        return timeline
