"""Sensor audits across matches, as pinball machines keep switch audits.

Each match leaves what its sensors did: the cell changes of every sensed shot (its stored
timeline), the cells the referee had muted, the stuck and jittery flags and I2C errors the
board saw while it was played, and which sensed shots the referee amended. Folded over the
last matches this says, per cell, how often it changed, how often it was flagged or muted,
and how many matches in a row it has not changed at all (a cell silent for several matches
is named: a skitt lands on every field sooner or later); per field, how often a sensed shot
on it had to be amended.

Pure: the match log and the health record are read elsewhere (``web.table.audit_read``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.profile import BoardProfile
from firmware_bridge.selftest import steps_for
from scorekeeper.store.values import StepSource
from scorekeeper.words import ENGLISH, Words

SILENT_AFTER = 3
"""Matches in a row without a change after which a cell is named."""


@dataclass(frozen=True)
class MatchSensing:
    """What one match's sensors did."""

    match_id: int
    changes: Mapping[int, int] = field(default_factory=dict)
    """Cell → debounced changes over the match's sensed shots."""
    muted: frozenset[int] = frozenset()
    flags: Mapping[int, frozenset[str]] = field(default_factory=dict)
    """Cell → the kinds it was flagged (``stuck active``, ``jittery``...)."""
    i2c_errors: int = 0
    shots: Mapping[str, int] = field(default_factory=dict)
    """Field → sensed shots that changed it."""
    amended: Mapping[str, int] = field(default_factory=dict)
    """Field → of those, shots the referee amended."""


def match_sensing(
    match_id: int, steps: Sequence[tuple[str, Mapping[str, Any]]],
    timelines: Mapping[int, Mapping[str, Any]], health: Mapping[str, Any] | None = None,
) -> MatchSensing:
    """``steps``: (source, step object) in log order (seq = index + 1); ``timelines``: the
    stored timeline of each sensed shot by seq; ``health``: the board's health record of the
    match (``flags``: cell → kinds, ``i2c_errors``)."""
    changes: dict[int, int] = {}
    muted: set[int] = set()
    for timeline in timelines.values():
        for change in timeline.get("changes") or ():
            if isinstance(change, list | tuple) and len(change) == 3:
                cell = change[1]
                if isinstance(cell, int) and not isinstance(cell, bool):
                    changes[cell] = changes.get(cell, 0) + 1
        muted.update(c for c in timeline.get("muted") or () if isinstance(c, int))
    shots: dict[str, int] = {}
    amended: dict[str, int] = {}
    for i, (source, body) in enumerate(steps):
        shot = body.get("shot") if isinstance(body, Mapping) else None
        if source != StepSource.SENSOR or not isinstance(shot, Mapping):
            continue
        fields = [f for f in (shot.get("delta") or {}) if isinstance(f, str)]
        # an amend is logged as an undo of the shot and the shot again, entered by hand
        undo, again = (steps[i + 1] if i + 1 < len(steps) else None,
                       steps[i + 2] if i + 2 < len(steps) else None)
        was_amended = (undo is not None and "undo" in undo[1] and again is not None
                       and again[0] != StepSource.SENSOR and "shot" in again[1])
        for f in fields:
            shots[f] = shots.get(f, 0) + 1
            if was_amended:
                amended[f] = amended.get(f, 0) + 1
    flags: dict[int, frozenset[str]] = {}
    errors = 0
    if health:
        for cell, kinds in (health.get("flags") or {}).items():
            if str(cell).isdigit() and isinstance(kinds, list):
                flags[int(cell)] = frozenset(str(k) for k in kinds)
        errors = int(health.get("i2c_errors") or 0) if isinstance(
            health.get("i2c_errors"), int) else 0
    return MatchSensing(match_id, changes, frozenset(muted), flags, errors, shots, amended)


@dataclass(frozen=True)
class CellAudit:
    cell: int
    part: str
    """What it senses, in words."""
    changes: int
    matches_changed: int
    silent_for: int
    """Matches in a row, up to the newest, in which it did not change."""
    flagged: Mapping[str, int]
    """Kind → matches in which it was flagged so."""
    muted_in: int


@dataclass(frozen=True)
class FieldAudit:
    field: str
    part: str
    shots: int
    amended: int

    @property
    def rate(self) -> float:
        return self.amended / self.shots if self.shots else 0.0


@dataclass(frozen=True)
class Audit:
    matches: int
    cells: tuple[CellAudit, ...]
    fields: tuple[FieldAudit, ...]
    i2c_errors: int
    silent_after: int

    @property
    def silent(self) -> tuple[CellAudit, ...]:
        """Cells that have not changed in the last ``silent_after`` matches (or more)."""
        if self.matches < self.silent_after:
            return ()
        return tuple(c for c in self.cells if c.silent_for >= self.silent_after)

    def to_json(self, t: Words = ENGLISH) -> dict[str, Any]:
        """The audit for the referee page; the kinds a cell was flagged in the language
        ``t`` (the parts are in the language :func:`audit` was given)."""
        return {
            "matches": self.matches, "i2c_errors": self.i2c_errors,
            "silent_after": self.silent_after,
            "silent": [c.cell for c in self.silent],
            "silent_words": grouped(self.silent, self.cells, t),
            "cells": [{"cell": c.cell, "part": c.part, "changes": c.changes,
                       "matches_changed": c.matches_changed, "silent_for": c.silent_for,
                       "flagged": {flag_words(k, t): n for k, n in c.flagged.items()},
                       "muted_in": c.muted_in} for c in self.cells],
            "fields": [{"field": f.field, "part": f.part, "shots": f.shots,
                        "amended": f.amended, "rate": round(f.rate, 3)} for f in self.fields],
        }

    def text(self, t: Words = ENGLISH) -> str:
        """The audit as a table for the command line, in the language ``t``."""
        lines = [t.ngettext("sensor audit over the last {n} match · I2C errors: {errors}",
                            "sensor audit over the last {n} matches · I2C errors: {errors}",
                            self.matches).format(n=self.matches, errors=self.i2c_errors)]
        silent = self.silent
        if silent:
            lines.append(t.ngettext("not changed in the last {n} match or more: {cells}",
                                    "not changed in the last {n} matches or more: {cells}",
                                    self.silent_after).format(
                n=self.silent_after, cells=grouped(silent, self.cells, t)))
        lines.append(t.gettext("cell  changes  matches  silent  flagged / muted  part"))
        for c in self.cells:
            flags = ", ".join(f"{flag_words(k, t)} x{n}" for k, n in sorted(c.flagged.items()))
            if c.muted_in:
                muted = t.gettext("muted x{n}").format(n=c.muted_in)
                flags = ", ".join(x for x in (flags, muted) if x)
            lines.append(f"{c.cell:>4}  {c.changes:>7}  {c.matches_changed:>7}  "
                         f"{c.silent_for:>6}  {flags or '-':<15}  {c.part}")
        lines.append(t.gettext("field amendments (sensed shots the referee amended)"))
        for f in self.fields:
            lines.append("  " + t.gettext("{part}: {amended} of {shots} ({rate})").format(
                part=f.part, amended=f.amended, shots=f.shots, rate=f"{f.rate:.0%}"))
        return "\n".join(lines) + "\n"


def flag_words(kind: str, t: Words = ENGLISH) -> str:
    """A kind of flag (:class:`firmware_bridge.health.FlagKind`) in the language ``t``."""
    known = {"stuck active": t.gettext("stuck active"),
             "stuck inactive": t.gettext("stuck inactive"), "jittery": t.gettext("jittery")}
    return known.get(kind, kind)


def grouped(cells: Iterable[CellAudit], every: Iterable[CellAudit] = (),
            t: Words = ENGLISH) -> str:
    """``cells 0, 1 (the first player's red field); cell 36 (...)``: cells by the part; a
    part of several cells, all of them among ``cells`` (``every``: all the board's), is
    named whole (``the minus field (all 20 cells)``), not as a row of twenty numbers."""
    parts: dict[str, list[int]] = {}
    for c in cells:
        parts.setdefault(c.part, []).append(c.cell)
    sizes: dict[str, int] = {}
    for c in every:
        sizes[c.part] = sizes.get(c.part, 0) + 1
    return "; ".join(
        t.gettext("{part} (all {n} cells)").format(part=part, n=len(n))
        if len(n) > 1 and sizes.get(part) == len(n)
        else t.ngettext("cell {cells} ({part})", "cells {cells} ({part})", len(n)).format(
            cells=", ".join(map(str, n)), part=part)
        for part, n in parts.items())


def audit(profile: BoardProfile, matches: Iterable[MatchSensing], *,
          silent_after: int = SILENT_AFTER, t: Words = ENGLISH) -> Audit:
    """The audit of ``matches`` (oldest first), each part of the board in the language
    ``t``."""
    ordered = list(matches)
    steps = steps_for(profile, {}, t)
    parts = {c: s.what for s in steps for c in s.cells}
    cells = []
    for cell in sorted(profile.cell_roles()):
        silent = 0
        for m in reversed(ordered):
            if m.changes.get(cell):
                break
            silent += 1
        flagged: dict[str, int] = {}
        for m in ordered:
            for kind in m.flags.get(cell, ()):
                flagged[kind] = flagged.get(kind, 0) + 1
        cells.append(CellAudit(
            cell, parts.get(cell, ""), sum(m.changes.get(cell, 0) for m in ordered),
            sum(1 for m in ordered if m.changes.get(cell)), silent, flagged,
            sum(1 for m in ordered if cell in m.muted)))
    fields = []
    words = {s.key: s.what for s in steps}
    for name in profile.fields:
        fields.append(FieldAudit(name, words.get(name, name),
                                 sum(m.shots.get(name, 0) for m in ordered),
                                 sum(m.amended.get(name, 0) for m in ordered)))
    return Audit(len(ordered), tuple(cells), tuple(fields),
                 sum(m.i2c_errors for m in ordered), silent_after)
