"""Recording raw sensor events, and playing a recording back as a source.

A sensor log is JSON lines. The first line is a header, every other line one raw event::

    {"skitter_sensor_log": 1, "profile": "default", "cells": 48, "active": [16, 17]}
    {"t": 0.512, "cell": 18, "active": true}

``t`` is seconds since recording started, ``active`` in the header the cells already active
then. A shot review downloaded from the referee page (one JSON object with
``"skitter_review": 1``, see :mod:`firmware_bridge.timeline`) is read as a log too: its
cells at rest are the header's ``active``, each debounced change a raw event.

Logs are raw (before debouncing), so a replay goes through the same pipeline and gives
the same readings as the original session: a bug seen at the table can be replayed at a
desk. Bad lines are skipped and counted, never fatal (:meth:`ReplaySource.status`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from firmware_bridge.source import LinkStatus, SensorEvent, Source, SourceError
from firmware_bridge.timeline import Timeline
from scorekeeper.clock import Clock

LOG_VERSION = 1
REVIEW_VERSION = 1


@dataclass(frozen=True)
class LogHeader:
    """The first line of a sensor log."""

    profile: str
    cells: int
    active: frozenset[int] = frozenset()


@dataclass(frozen=True)
class LoggedEvent:
    """One recorded raw event, ``t`` seconds after the start of the recording."""

    t: float
    cell: int
    active: bool


@dataclass(frozen=True)
class SensorLog:
    """A parsed log: what could be read, and what could not."""

    header: LogHeader
    events: tuple[LoggedEvent, ...]
    bad_lines: tuple[str, ...] = ()
    """``line N: problem`` for each skipped line."""


def read_log(path: str | Path) -> SensorLog:
    """Parse a sensor log; raise :class:`SourceError` only when there is nothing to replay
    (no file, no header)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise SourceError(f"sensor log {p} cannot be read: {exc.strerror or exc}") from None
    review = _review(text, p)
    if review is not None:
        return review
    lines = text.splitlines()
    header: LogHeader | None = None
    events: list[LoggedEvent] = []
    bad: list[str] = []
    last_t = 0.0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except ValueError:
            bad.append(f"line {number}: not JSON")
            continue
        if header is None:
            header = _header(data, p)
            continue
        problem = _event_problem(data, header.cells, last_t)
        if problem:
            bad.append(f"line {number}: {problem}")
            continue
        last_t = float(data["t"])
        events.append(LoggedEvent(last_t, data["cell"], data["active"]))
    if header is None:
        raise SourceError(f"sensor log {p} is empty: no header line")
    return SensorLog(header, tuple(events), tuple(bad))


def _review(text: str, path: Path) -> SensorLog | None:
    """A shot review file as a log (None when ``text`` is not one).

    A debounced change is stamped with the moment it became certain; replayed as a raw event
    at that offset it is confirmed one debounce time later, like every other change, so the
    board goes through the same states and settles on the same reading."""
    if not text.lstrip().startswith("{") or '"skitter_review"' not in text[:4096]:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None  # a one-line sensor log header is not a whole review: read as lines
    if not isinstance(data, dict) or "skitter_review" not in data:
        return None
    if data.get("skitter_review") != REVIEW_VERSION:
        raise SourceError(f"{path}: unknown review version {data.get('skitter_review')!r}")
    try:
        timeline = Timeline.from_json(data.get("timeline"))
    except ValueError as exc:
        raise SourceError(f"{path}: {exc}") from None
    cells = data.get("cells")
    if isinstance(cells, bool) or not isinstance(cells, int) or cells < 1:
        raise SourceError(f"{path}: cells must be a positive integer, got {cells!r}")
    bad = [c for c in (*timeline.before, *(ch.cell for ch in timeline.changes)) if c >= cells]
    if bad:
        raise SourceError(f"{path}: cell {bad[0]} is outside the board's 0..{cells - 1}")
    header = LogHeader(str(data.get("profile", "")), cells, timeline.before)
    events = tuple(LoggedEvent(ch.ms / 1000, ch.cell, ch.active) for ch in timeline.changes)
    return SensorLog(header, events)


def _header(data: Any, path: Path) -> LogHeader:
    if not isinstance(data, dict) or data.get("skitter_sensor_log") != LOG_VERSION:
        raise SourceError(
            f"{path} is not a skitter sensor log (its first line must be a header with "
            f'"skitter_sensor_log": {LOG_VERSION})'
        )
    cells = data.get("cells")
    active = data.get("active", [])
    if isinstance(cells, bool) or not isinstance(cells, int) or cells < 1:
        raise SourceError(f"{path}: header: cells must be a positive integer, got {cells!r}")
    if not isinstance(active, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c < cells for c in active
    ):
        raise SourceError(f"{path}: header: active must list cells 0..{cells - 1}")
    return LogHeader(str(data.get("profile", "")), cells, frozenset(active))


def _event_problem(data: Any, cells: int, last_t: float) -> str:
    if not isinstance(data, dict):
        return "not an object"
    t, cell, active = data.get("t"), data.get("cell"), data.get("active")
    if isinstance(t, bool) or not isinstance(t, int | float) or t != t:
        return f"t must be a number, got {t!r}"
    if t < last_t:
        return f"t goes backwards ({t} after {last_t})"
    if isinstance(cell, bool) or not isinstance(cell, int) or not 0 <= cell < cells:
        return f"cell must be 0..{cells - 1}, got {cell!r}"
    if not isinstance(active, bool):
        return f"active must be true or false, got {active!r}"
    return ""


class ReplaySource:
    """Plays a sensor log back as a source, at ``speed`` times real time.

    ``speed=1`` replays in real time on the injected clock; ``speed=2`` twice as fast.
    ``speed=0`` hands out every remaining event on the next poll, stamped with its
    recorded time offset (for offline analysis: drive the pipeline with a clock that you
    move to each event's time)."""

    name = "replay"

    def __init__(self, path: str | Path, clock: Clock, speed: float = 1.0) -> None:
        if speed < 0:
            raise SourceError(f"replay speed cannot be negative ({speed})")
        self.path = Path(path)
        self.clock = clock
        self.speed = speed
        self.log = read_log(self.path)
        self.cells = self.log.header.cells
        self._t0: float | None = None
        self._next = 0
        self._initial_sent = False
        self._active: set[int] = set(self.log.header.active)  # the board as it starts
        self._closed = False

    @property
    def finished(self) -> bool:
        """True once every recorded event has been handed out."""
        return self._initial_sent and self._next >= len(self.log.events)

    def start(self) -> None:
        self._t0 = self.clock.now()
        self._closed = False

    def poll(self) -> list[SensorEvent]:
        if self._closed:
            return []
        if self._t0 is None:
            self.start()
        t0 = self._t0 if self._t0 is not None else self.clock.now()
        out: list[SensorEvent] = []
        if not self._initial_sent:
            out += [SensorEvent(c, True, t0) for c in sorted(self.log.header.active)]
            self._initial_sent = True
        now = self.clock.now()
        events = self.log.events
        while self._next < len(events):
            event = events[self._next]
            at = t0 + (event.t if self.speed == 0 else event.t / self.speed)
            if self.speed != 0 and at > now:
                break
            out.append(SensorEvent(event.cell, event.active, at))
            self._next += 1
        for e in out:
            if e.active:
                self._active.add(e.cell)
            else:
                self._active.discard(e.cell)
        return out

    def snapshot(self) -> frozenset[int]:
        return frozenset(self._active)

    def status(self) -> LinkStatus:
        bad = self.log.bad_lines
        parts = []
        if bad:
            parts.append(f"skipped {len(bad)} bad line(s) in {self.path.name} ({bad[0]})")
        if self.finished:
            parts.append(f"replay finished ({len(self.log.events)} events)")
        return LinkStatus(up=not self._closed, message="; ".join(parts),
                          degraded=bool(bad), errors=len(bad))

    def close(self) -> None:
        self._closed = True


class Recorder:
    """Writes a sensor log: a header, then one line per raw event (flushed at once, so a
    crash loses nothing already seen)."""

    def __init__(
        self,
        path: str | Path,
        *,
        profile: str,
        cells: int,
        active: frozenset[int] = frozenset(),
        t0: float | None = None,
    ) -> None:
        """``t0``: the clock time the log starts at; None = the first event's time."""
        self.path = Path(path)
        self.t0 = t0
        try:
            self._file: IO[str] | None = self.path.open("w", encoding="utf-8")
        except OSError as exc:
            raise SourceError(f"cannot record to {self.path}: {exc.strerror or exc}") from None
        header = {"skitter_sensor_log": LOG_VERSION, "profile": profile, "cells": cells,
                  "active": sorted(active)}
        self._write(header)

    def write(self, event: SensorEvent) -> None:
        """Append one raw event."""
        if self.t0 is None:
            self.t0 = event.at
        self._write({"t": max(0.0, event.at - self.t0), "cell": event.cell,
                     "active": event.active})

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def _write(self, data: dict[str, Any]) -> None:
        if self._file is None:
            raise SourceError(f"recorder for {self.path} is closed")
        self._file.write(json.dumps(data) + "\n")
        self._file.flush()


class RecordingSource:
    """Wraps any source and records every event that passes through ``poll()``."""

    def __init__(
        self, inner: Source, path: str | Path, *, clock: Clock | None = None,
        profile: str = "",
    ) -> None:
        self.inner = inner
        self.path = Path(path)
        self.clock = clock
        self.profile = profile
        self.name = inner.name
        self.cells = inner.cells
        self.recorder: Recorder | None = None

    def start(self) -> None:
        self.inner.start()
        self.recorder = Recorder(
            self.path, profile=self.profile, cells=self.cells, active=self.inner.snapshot(),
            t0=self.clock.now() if self.clock is not None else None,
        )

    def poll(self) -> list[SensorEvent]:
        events = self.inner.poll()
        if self.recorder is not None:
            for event in events:
                self.recorder.write(event)
        return events

    def snapshot(self) -> frozenset[int]:
        return self.inner.snapshot()

    def status(self) -> LinkStatus:
        return self.inner.status()

    def close(self) -> None:
        self.inner.close()
        if self.recorder is not None:
            self.recorder.close()
