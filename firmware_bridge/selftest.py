"""The board self-test: every cell proven before play, as a pinball machine's switch test.

A builder or the referee is walked through the board one part at a time (each field, the
minus field, the big-skitt spots, the launch spots, the bridges, the buttons): put a skitt
on each cell of the part, lift it. A cell *answers* when it was seen active and then
inactive again. The walk moves on by itself once every cell of the part has answered, or
when told to (a cell that never answers is what the test is for).

What is flagged, per cell: never changed (a dead sensor or a broken wire), stuck active
(active at the start or when lifted, and never inactive again; a cell active at the start
that goes inactive has answered), chatter (more than ``chatter_toggles`` changes within
``chatter_window_s``: a failing switch, not a hand).
Per expander: I2C errors seen during the test. The end is a check sheet
(:mod:`firmware_bridge.selftest_sheet`): pass or fail per cell, button and expander, with the
date and the board id.

Pure: fed the source's events (each with its time), button presses and expander error
counts; the clock is whatever those times are. ``skitter selftest`` and the referee page
share this walk.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from firmware_bridge.profile import BoardProfile
from firmware_bridge.selftest_sheet import Sheet, SheetRow
from firmware_bridge.selftest_words import (
    PartKind,
    RowKind,
    expander_part,
    item_words,
    outcome_words,
    part_words,
    result_words,
)
from firmware_bridge.source import SensorEvent
from scorekeeper.words import ENGLISH, Words

CHATTER_TOGGLES = 6
"""Changes of one cell within the window that make it chatter (placing and lifting a skitt
is two; sliding one over a cell a few more)."""
CHATTER_WINDOW_S = 1.0


@dataclass(frozen=True)
class Step:
    """One part of the board to prove."""

    key: str
    """``black.red``, ``minus``, ``big:black``, ``launch:white``, ``bridge:a/b``,
    ``button:black.undo``."""
    kind: PartKind
    cells: tuple[int, ...]
    what: str
    """The part in words (seats, never colours of players)."""

    def instruction(self, t: Words = ENGLISH) -> str:
        """What to do, in the language ``t`` (``what`` is in it when the steps were made
        with it: :func:`steps_for`)."""
        if self.kind is PartKind.FIELD:
            text = t.gettext("Place a skitt on each spot of {what} in turn, lifting it each time")
        elif self.kind is PartKind.BIG:
            text = t.gettext("Put a big skitt on {what}, then lift it")
        elif self.kind is PartKind.LAUNCH:
            text = t.gettext("Put a skitt on {what}, then lift it")
        elif self.kind is PartKind.BRIDGE:
            text = t.gettext("Lay a skitt on {what}, then lift it")
        else:
            text = t.gettext("Press {what}")
        return text.format(what=self.what)


def steps_for(profile: BoardProfile, buttons: Mapping[str, Iterable[str]] | None = None,
              t: Words = ENGLISH) -> tuple[Step, ...]:
    """The walk for ``profile``: fields in board order (the minus field among them), then
    the big-skitt spots, the launch spots, the bridges, and ``buttons`` (role → names; by
    default the profile's GPIO buttons); each part in words in the language ``t``."""
    out: list[Step] = []
    for name, fc in profile.fields.items():
        out.append(Step(name, PartKind.FIELD, fc.cells, part_words(name, t)))
    for player, cells in profile.big.items():
        out.append(Step(f"big:{player}", PartKind.BIG, cells, part_words(f"big:{player}", t)))
    for player, cells in profile.launch.items():
        key = f"launch:{player}"
        out.append(Step(key, PartKind.LAUNCH, cells, part_words(key, t)))
    for bridge in profile.bridges:
        key = "bridge:{}/{}".format(*bridge.fields)
        out.append(Step(key, PartKind.BRIDGE, bridge.cells, part_words(key, t)))
    if buttons is None:
        buttons = profile.gpio.buttons if profile.gpio is not None else {}
    for role, names in buttons.items():
        for name in names:
            key = f"button:{role}.{name}"
            out.append(Step(key, PartKind.BUTTON, (), part_words(key, t)))
    return tuple(out)


@dataclass
class _Cell:
    """What one cell did during the test."""

    active: bool
    started_active: bool
    changes: int = 0
    went_on: bool = False
    answered: bool = False
    chatter_at: float | None = None
    recent: deque[float] = field(default_factory=deque)


class SelfTest:
    """One walk through the board. Feed it with :meth:`feed`, :meth:`press` and
    :meth:`expander_errors`; read it with :meth:`view` and, at the end, :meth:`sheet`."""

    def __init__(
        self, profile: BoardProfile, now: float, *, initial: Iterable[int] = (),
        buttons: Mapping[str, Iterable[str]] | None = None, source: str = "",
        chatter_toggles: int = CHATTER_TOGGLES, chatter_window_s: float = CHATTER_WINDOW_S,
    ) -> None:
        self.profile = profile
        self.source = source
        self.started = now
        self.buttons = buttons
        self.steps = steps_for(profile, buttons)
        self.roles = profile.cell_roles()
        active = set(initial)
        self._cells = {c: _Cell(active=c in active, started_active=c in active)
                       for c in self.roles}
        self._pressed: dict[str, int] = {s.key: 0 for s in self.steps if s.kind is PartKind.BUTTON}
        self._errors: dict[str, int] = {}
        self._chatter_toggles = chatter_toggles
        self._window = chatter_window_s
        self.index = 0
        """The step being walked; ``len(steps)`` once every step is behind."""
        self.reached = 1 if self.steps else 0
        self._skipped: set[int] = set()
        """Cells of the steps the referee skipped."""
        self.finished = False
        self.now = now

    # -- input ---------------------------------------------------------------------------------

    def feed(self, events: Iterable[SensorEvent]) -> None:
        """Raw cell changes from the source (before any debounce: chatter is what we seek)."""
        for ev in events:
            cell = self._cells.get(ev.cell)
            self.now = max(self.now, ev.at)
            if cell is None or self.finished or ev.active == cell.active:
                continue
            cell.active = ev.active
            cell.changes += 1
            cell.recent.append(ev.at)
            while cell.recent and ev.at - cell.recent[0] > self._window:
                cell.recent.popleft()
            if len(cell.recent) >= self._chatter_toggles and cell.chatter_at is None:
                cell.chatter_at = ev.at
            if ev.active:
                cell.went_on = True
            elif cell.went_on or cell.started_active:
                cell.answered = True
        self._advance_if_done()

    def press(self, role: str, name: str, at: float) -> None:
        """A button was pressed."""
        key = f"button:{role}.{name}"
        self.now = max(self.now, at)
        if key in self._pressed and not self.finished:
            self._pressed[key] += 1
            self._advance_if_done()

    def expander_errors(self, errors: Mapping[str, int]) -> None:
        """I2C errors per expander (``0x21`` → count) since the test began."""
        for label, count in errors.items():
            self._errors[label] = max(self._errors.get(label, 0), int(count))

    def skip(self) -> None:
        """Move on from the current step, whatever has not answered. A step left before any
        of its cells changed was not tried: its cells are ``skipped``, not faults. Where some
        answered, a silent one was tried and is ``never changed``."""
        if self.index < len(self.steps):
            cells = [c for c in self.steps[self.index].cells if c in self._cells]
            if not any(self._cells[c].changes for c in cells):
                self._skipped.update(cells)
            self._go_to(self.index + 1)

    def finish(self, now: float) -> None:
        """End the walk (every step done, or stopped early)."""
        self.now = max(self.now, now)
        self.finished = True

    # -- output --------------------------------------------------------------------------------

    @property
    def current(self) -> Step | None:
        return self.steps[self.index] if self.index < len(self.steps) else None

    @property
    def complete(self) -> bool:
        return self.reached >= len(self.steps) and self.index >= len(self.steps)

    def cell_result(self, cell: int) -> tuple[bool, str]:
        c = self._cells[cell]
        if c.chatter_at is not None:
            return False, "chatter"
        if c.answered:
            return True, "answered"
        if c.active and not self.finished:
            return False, "sensing a skitt"  # the walk goes on: it may yet be lifted
        if c.active:
            return False, "stuck active"
        step = self.current
        if not self.finished and step is not None and cell in step.cells:
            return False, "waiting"  # the step to do now
        if not self._reached_cell(cell) and c.changes == 0:
            return False, "not reached"
        if cell in self._skipped and c.changes == 0:
            return False, "skipped"
        return False, "never changed"

    def step_done(self, step: Step) -> bool:
        if step.kind is PartKind.BUTTON:
            return self._pressed.get(step.key, 0) > 0
        return all(self._cells[c].answered for c in step.cells if c in self._cells)

    def view(self, t: Words = ENGLISH) -> dict[str, Any]:
        """The walk as it stands, for the referee page and the command line: its words (the
        instruction, each part, each cell's result as ``said``) in the language ``t``;
        ``result`` stays the result's key."""
        steps = steps_for(self.profile, self.buttons, t)
        step = self.current
        cells = {}
        for cell, c in sorted(self._cells.items()):
            ok, result = self.cell_result(cell)
            cells[str(cell)] = {"part": self._part(cell, steps), "active": c.active,
                                "changes": c.changes, "answered": c.answered,
                                "passed": ok, "result": result,
                                "said": result_words(result, t)}
        return {
            "finished": self.finished,
            "complete": self.complete,
            "step": None if step is None else {
                "index": self.index, "key": step.key, "kind": step.kind,
                "cells": list(step.cells), "what": steps[self.index].what,
                "instruction": steps[self.index].instruction(t),
                "answered": [c for c in step.cells if self._cells[c].answered],
            },
            "steps": [{"key": s.key, "what": w.what, "done": self.step_done(s)}
                      for s, w in zip(self.steps, steps, strict=True)],
            "count": len(self.steps),
            "cells": cells,
            "buttons": dict(self._pressed),
            "expanders": dict(self._errors),
        }

    def sheet(self, board_id: str, date: str, t: Words = ENGLISH) -> Sheet:
        """The check sheet: a row per used cell, button and expander, in the language ``t``
        (the sheet kept and sent to the hub is made in English, the source language)."""
        steps = steps_for(self.profile, self.buttons, t)
        rows: list[SheetRow] = []
        mcp = self.profile.mcp23017
        for cell in sorted(self._cells):
            ok, result = self.cell_result(cell)
            where = ""
            if mcp is not None and cell < 16 * len(mcp.addresses):
                address, pin = mcp.locate(cell)
                where = f"0x{address:02X} {pin}"
            changes = self._cells[cell].changes
            outcome = outcome_words(RowKind.CELL, result, changes, t)
            rows.append(SheetRow(item_words(RowKind.CELL, str(cell), t), self._part(cell, steps),
                                 where, ok, outcome, changes,
                                 RowKind.CELL, str(cell), self._step_of(cell), result))
        buttons = [(step, w) for step, w in zip(self.steps, steps, strict=True)
                   if step.kind is PartKind.BUTTON]
        for number, (step, w) in enumerate(buttons, 1):
            presses = self._pressed[step.key]
            outcome = outcome_words(RowKind.BUTTON, "", presses, t)
            rows.append(SheetRow(item_words(RowKind.BUTTON, str(number), t), w.what, "",
                                 presses > 0, outcome, presses,
                                 RowKind.BUTTON, str(number), step.key, count=presses))
        if mcp is not None:
            for address in mcp.addresses:
                label = f"0x{address:02X}"
                errors = self._errors.get(label, 0)
                rows.append(SheetRow(item_words(RowKind.EXPANDER, label, t), expander_part(t), "",
                                     errors == 0, outcome_words(RowKind.EXPANDER, "", errors, t),
                                     kind=RowKind.EXPANDER, label=label, count=errors))
        return Sheet(board_id, date, self.profile.name, self.source, tuple(rows),
                     self.complete)

    # -- inside ----------------------------------------------------------------------------------

    def _part(self, cell: int, steps: Iterable[Step]) -> str:
        role = self.roles[cell]
        for step in steps:
            if cell in step.cells:
                return step.what
        return role

    def _step_of(self, cell: int) -> str:
        return next((step.key for step in self.steps if cell in step.cells), "")

    def _reached_cell(self, cell: int) -> bool:
        return any(cell in s.cells for s in self.steps[: self.reached])

    def _advance_if_done(self) -> None:
        while not self.finished and self.current is not None and self.step_done(self.current):
            self._go_to(self.index + 1)

    def _go_to(self, index: int) -> None:
        self.index = index
        self.reached = max(self.reached, min(index + 1, len(self.steps)))
        if index >= len(self.steps):
            self.reached = len(self.steps)
        self._advance_if_done()
