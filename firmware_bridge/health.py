"""Stuck and jittery cells: found, reported, and kept from scoring.

A sensor that is stuck or chatters must never score ghost points. The monitor flags:

- *jittery*: more than ``jitter_toggles`` raw toggles within ``jitter_window_s`` while the
  rest of the board is at rest (a sliding skitt toggles a cell a few times; a failing
  switch keeps going). The flag clears after a quiet window.
- *stuck active*: when the match states what it expects (:meth:`HealthMonitor.set_expected`,
  after a clearing, a restore or at a round start), a cell that is active although its field
  is expected empty and does not go inactive within ``restore_timeout_s`` of the players
  working on that field.
- *stuck inactive*: likewise a cell that stays inactive although its field is expected full
  (every cell covered). A field expected partly covered says nothing about single cells.

A pending restore excuses only what it explains. A cell that a skitt reached during play and
that is in conflict when the restore begins, on a field whose count the restore asks to
change, waits for the players however long they take: flagging it told players to mute
working sensors after every round end. Its clock starts at the first debounced change on its
field (the players are working on it); a cell still in conflict ``restore_timeout_s`` after
that is stuck. A cell that *goes* into conflict while the restore is pending (a shot onto an
empty field while skitts are being taken off) has changed, so it is not stuck: the change
is a shot that the tracker scores or asks the referee about. Stuck means a cell that never
changed back while nothing explains it. A cell that has not changed once since the monitor
started (stuck from power on) is not explained by any shot, so its clock starts with the
expectation.

A flag on an unmuted cell holds play (the pipeline withholds readings, see
:mod:`firmware_bridge.pipeline`). The referee mutes the cell with one tap; counts are then
taken from the field's other cells and the reading lists the field in ``muted``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from firmware_bridge.counts import field_counts
from firmware_bridge.profile import BoardProfile


class FlagKind(StrEnum):
    """Why a cell is flagged."""

    STUCK_ACTIVE = "stuck active"
    """Active while its field is expected empty, past the restore timeout."""
    STUCK_INACTIVE = "stuck inactive"
    """Inactive while its field is expected covered, past the restore timeout."""
    JITTERY = "jittery"
    """Toggling on its own while the board is at rest."""


@dataclass(frozen=True)
class CellFlag:
    """A cell the referee should look at."""

    cell: int
    field: str | None
    """What the cell senses (a field name, ``big:black``, ``bridge:a/b``, ``launch:white``)."""
    kind: FlagKind
    since: float
    muted: bool = False
    """True once the referee has muted the cell (it no longer holds play)."""

    def message(self) -> str:
        """Plain words for the scoreboard."""
        where = f" on {self.field}" if self.field else ""
        tail = " (muted)" if self.muted else ": check it or mute it"
        return f"sensor cell {self.cell}{where} is {self.kind}{tail}"


class HealthMonitor:
    """Watches cells for stuck and jittery behaviour; keeps the referee's mutes."""

    def __init__(
        self,
        profile: BoardProfile,
        *,
        jitter_toggles: int = 6,
        jitter_window_s: float = 3.0,
        restore_timeout_s: float = 10.0,
    ) -> None:
        if jitter_toggles < 1 or jitter_window_s <= 0 or restore_timeout_s < 0:
            raise ValueError("jitter_toggles >= 1, jitter_window_s > 0, restore_timeout_s >= 0")
        self.profile = profile
        self.jitter_toggles = jitter_toggles
        self.jitter_window_s = jitter_window_s
        self.restore_timeout_s = restore_timeout_s
        self._roles = profile.cell_roles()
        self._toggles: dict[int, deque[float]] = {}
        self._flags: dict[int, CellFlag] = {}
        self._muted: set[int] = set()
        self._watch: dict[int, tuple[FlagKind, float | None]] = {}
        """cell → (kind, deadline); no deadline while the conflict is explained by the
        pending restore and nobody has worked on its field yet. An unmuted cell watched is a
        restore in progress."""
        self._expected: dict[str, int] = {}
        self._moved: set[int] = set()
        """Cells that have changed at least once (a skitt reached or left them)."""

    # -- inputs from the pipeline ----------------------------------------------------------

    def toggle(self, cell: int, at: float, *, at_rest: bool) -> None:
        """A raw toggle of ``cell``; only toggles while the board is at rest count."""
        if not at_rest:
            return
        times = self._toggles.setdefault(cell, deque())
        times.append(at)
        while times and times[0] < at - self.jitter_window_s:
            times.popleft()
        if len(times) > self.jitter_toggles and cell not in self._flags:
            self._flag(cell, FlagKind.JITTERY, at)

    def cell_changed(self, cell: int, active: bool, at: float) -> None:
        """A debounced change: a watched cell that moved has been restored; a stuck flag
        clears because the cell is evidently not stuck. The players are working on the
        cell's field: the other cells of that field still in conflict now have a deadline.
        A cell that goes into conflict while a restore is in progress gets none: a cell that
        changed is not stuck, and the change is a shot the tracker scores or asks about."""
        self._watch.pop(cell, None)
        self._moved.add(cell)
        field = self._roles.get(cell)
        if field is not None and field in self._expected:
            for other, (kind, _) in list(self._watch.items()):
                if self._roles.get(other) == field:
                    self._watch[other] = (kind, at + self.restore_timeout_s)
        flag = self._flags.get(cell)
        if flag is not None and flag.kind is not FlagKind.JITTERY:
            del self._flags[cell]

    def set_expected(self, counts: Mapping[str, int], at: float, active: frozenset[int]) -> None:
        """The match expects these counts from now on (``active``: the debounced cells now).

        Cells in conflict (active on a field expected empty, inactive on one expected full)
        must be restored within the restore timeout once their field has been worked on, or
        they are flagged stuck. Saying the same again does not restart a running timeout, so
        callers may repeat it freely."""
        for name in counts:
            if name not in self.profile.fields:
                raise ValueError(f"unknown field {name!r} in expected counts")
        self._expected = dict(counts)
        conflicts = self._conflicts(active)
        for cell, flag in list(self._flags.items()):
            if flag.kind is not FlagKind.JITTERY and cell not in conflicts:
                del self._flags[cell]
        held = field_counts(self.profile, active, frozenset(self._muted))
        old = self._watch
        self._watch = {}
        for cell, kind in conflicts.items():
            if cell in self._flags:
                continue
            kept = old.get(cell)
            field = self._roles[cell]
            deadline: float | None
            if kept and kept[0] is kind:
                deadline = kept[1]
            elif cell in self._moved and held[field] != self._expected[field]:
                deadline = None  # explained by the pending restore
            else:
                deadline = at + self.restore_timeout_s
            self._watch[cell] = (kind, deadline)
        self.check(at)

    def check(self, now: float) -> None:
        """Flag watched cells past the restore timeout; clear jitter flags after quiet."""
        for cell, (kind, deadline) in sorted(self._watch.items()):
            if deadline is not None and now >= deadline:
                self._flag(cell, kind, deadline)
                del self._watch[cell]
        for cell, flag in list(self._flags.items()):
            if flag.kind is FlagKind.JITTERY:
                times = self._toggles.get(cell)
                if not times or times[-1] <= now - self.jitter_window_s:
                    del self._flags[cell]
                    self._toggles.pop(cell, None)

    # -- the referee ---------------------------------------------------------------------

    def mute(self, cell: int) -> None:
        """Leave ``cell`` out of every count until unmuted."""
        self._check_cell(cell)
        self._muted.add(cell)

    def unmute(self, cell: int) -> None:
        """Count ``cell`` again."""
        self._check_cell(cell)
        self._muted.discard(cell)

    # -- what others read ------------------------------------------------------------------

    @property
    def muted(self) -> frozenset[int]:
        return frozenset(self._muted)

    @property
    def expected(self) -> Mapping[str, int]:
        return dict(self._expected)

    def flags(self) -> list[CellFlag]:
        """Every flagged cell, muted or not, by cell number."""
        return [
            CellFlag(f.cell, f.field, f.kind, f.since, f.cell in self._muted)
            for _, f in sorted(self._flags.items())
        ]

    def holding(self) -> list[CellFlag]:
        """The flags that hold play: those on unmuted cells."""
        return [f for f in self.flags() if not f.muted]

    def unrestored(self) -> frozenset[int]:
        """Unmuted cells still to be restored within the running restore window."""
        return frozenset(c for c in self._watch if c not in self._muted)

    # -- helpers ---------------------------------------------------------------------------

    def _conflicts(self, active: frozenset[int]) -> dict[int, FlagKind]:
        conflicts: dict[int, FlagKind] = {}
        for name in self._expected:
            for cell in self.profile.fields[name].cells:
                kind = self._conflict(name, cell, cell in active)
                if kind is not None:
                    conflicts[cell] = kind
        return conflicts

    def _conflict(self, field: str, cell: int, active: bool) -> FlagKind | None:
        """How ``cell`` disagrees with what its field is expected to hold, if it does."""
        expected = self._expected[field]
        if expected <= 0 and active:
            return FlagKind.STUCK_ACTIVE
        # Only a field expected to hold what covers every cell says each cell must be on
        # (not its trusted capacity, which a calibration may set lower).
        if expected >= self.profile.fields[field].counts[-1] and not active:
            return FlagKind.STUCK_INACTIVE
        return None

    def _flag(self, cell: int, kind: FlagKind, since: float) -> None:
        self._flags[cell] = CellFlag(cell, self._roles.get(cell), kind, since)

    def _check_cell(self, cell: int) -> None:
        if cell not in self._roles:
            raise ValueError(
                f"cell {cell} is not used by board profile {self.profile.name!r}"
            )
