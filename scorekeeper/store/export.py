"""A match as JSON lines and back: ``skitter log --export`` / ``--import``.

An import is checked whole (through the same JSON parser every step takes) before anything is
written, so a bad file adds nothing; it becomes a new match with its timelines.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import IO, Any

from scorekeeper import checks
from scorekeeper.checks import decode_json
from scorekeeper.errors import MalformedEventError
from scorekeeper.store.logfile import StoreError, dump_json
from scorekeeper.store.reading import LogReading
from scorekeeper.store.timelines import LogTimelines
from scorekeeper.store.values import EXPORT_FORMAT, StoredEvent
from scorekeeper.store.writing import LogWriting


class LogExport(LogWriting, LogReading, LogTimelines):
    """Export to and import from JSON lines (reads and writes through the other parts)."""

    def export_jsonl(self, match_id: int, out: IO[str]) -> int:
        """Write the match as JSON lines (a header line, then one line per event)."""
        stored = self.load(match_id)
        timelines = self.timelines(match_id)
        out.write(json.dumps({"match": stored.header()}) + "\n")
        for ev in stored.events:
            line = ev.to_json()
            if ev.seq in timelines:
                line["timeline"] = timelines[ev.seq]
            out.write(json.dumps(line) + "\n")
        return len(stored.events)

    def import_jsonl(self, lines: Iterable[str]) -> int:
        """Read an export back as a new match and return its id.

        The whole file is checked before anything is written, so a bad file adds nothing.
        """
        header: Mapping[str, Any] | None = None
        events: list[StoredEvent] = []
        timelines: dict[int, str] = {}
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:  # the parser every step takes: bounded depth, no NaN, no RecursionError
                obj = decode_json(line, f"line {number}")
            except MalformedEventError as exc:
                raise StoreError(str(exc)) from exc
            if header is None:
                if not isinstance(obj, dict) or not isinstance(obj.get("match"), dict):
                    raise StoreError(f"line {number}: expected the header {{\"match\": ...}}")
                header = obj["match"]
                fmt = header.get("format")
                if fmt != EXPORT_FORMAT:
                    raise StoreError(f"line {number}: unknown export format {fmt!r}")
                continue
            events.append(_parse_export_event(obj, number, expected_seq=len(events) + 1))
            if "timeline" in obj:
                timelines[obj["seq"]] = _timeline(obj["timeline"], number)
        if header is None:
            raise StoreError("empty file: no match header")
        created_at, parts = _parse_header(header)
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO matches (created_at, rules, setup, names, meta) VALUES (?,?,?,?,?)",
                (created_at, *(dump_json(p) for p in parts)),
            )
            match_id = int(cur.lastrowid or 0)
            for e in events:
                self._insert(match_id, e.seq, e.at, e.source, dump_json(e.body))
            self._db.executemany(
                "INSERT INTO timelines (match_id, seq, version, body) VALUES (?, ?, ?, ?)",
                [(match_id, seq, int(json.loads(body).get("v", 1)), body)
                 for seq, body in timelines.items()],
            )
        return match_id


MAX_SOURCE = 32
"""Characters of a step's ``source`` (``sensor``, ``manual``, ``hub``...)."""


def _parse_header(header: Mapping[str, Any]) -> tuple[float, tuple[Mapping[str, Any], ...]]:
    """``created_at`` and the rules, setup, names and meta objects of an export's header
    (what each holds is checked by the rules and by the caller's name check)."""
    try:
        created_at = checks.timestamp(header.get("created_at", 0.0), "line 1: created_at")
        parts = tuple(checks.mapping(header.get(k, {}), f"line 1: {k}")
                      for k in ("rules", "setup", "names", "meta"))
    except MalformedEventError as exc:
        raise StoreError(str(exc)) from None
    return created_at, parts


def _timeline(value: Any, number: int) -> str:
    if not isinstance(value, dict):
        raise StoreError(f"line {number}: timeline: expected an object")
    version = value.get("v", 1)
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= 100:
        raise StoreError(f"line {number}: timeline.v: expected a version number")
    return dump_json(value)


def _parse_export_event(obj: Any, number: int, *, expected_seq: int) -> StoredEvent:
    if not isinstance(obj, dict):
        raise StoreError(f"line {number}: expected an object")
    for key, kind in (("seq", int), ("at", (int, float)), ("source", str), ("event", dict)):
        if not isinstance(obj.get(key), kind) or isinstance(obj.get(key), bool):
            raise StoreError(f"line {number}: key {key!r} missing or of the wrong type")
    if obj["seq"] != expected_seq:
        raise StoreError(f"line {number}: seq {obj['seq']} out of order, expected {expected_seq}")
    if len(obj["source"]) > MAX_SOURCE:
        raise StoreError(f"line {number}: source: longer than {MAX_SOURCE} characters")
    try:
        at = checks.timestamp(obj["at"], f"line {number}: at")
    except MalformedEventError as exc:
        raise StoreError(str(exc)) from None
    return StoredEvent(seq=obj["seq"], at=at, source=obj["source"], body=obj["event"])
