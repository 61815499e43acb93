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
Per expander: I2C errors seen during the test. The end is a check sheet: pass or fail per
cell, button and expander, with the date and the board id.

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
from firmware_bridge.source import SensorEvent
from scorekeeper.words import SEATS, field_words

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
    kind: str
    """``field``, ``big``, ``launch``, ``bridge`` or ``button``."""
    cells: tuple[int, ...]
    what: str
    """The part in words (seats, never colours of players)."""

    def instruction(self) -> str:
        if self.kind == "field":
            return f"Place a skitt on each spot of {self.what} in turn, lifting it each time"
        if self.kind == "big":
            return f"Put a big skitt on {self.what}, then lift it"
        if self.kind == "launch":
            return f"Put a skitt on {self.what}, then lift it"
        if self.kind == "bridge":
            return f"Lay a skitt on {self.what}, then lift it"
        return f"Press {self.what}"


def seat(player: str) -> str:
    """``first player's`` for ``black``: a side in words, before a part of the board."""
    return SEATS.get(player, player).lower() + "'s"


def steps_for(profile: BoardProfile, buttons: Mapping[str, Iterable[str]] | None = None
              ) -> tuple[Step, ...]:
    """The walk for ``profile``: fields in board order (the minus field among them), then
    the big-skitt spots, the launch spots, the bridges, and ``buttons`` (role → names; by
    default the profile's GPIO buttons)."""
    seats = {p: f"the {SEATS[p].lower()}" for p in SEATS}
    out: list[Step] = []
    for name, fc in profile.fields.items():
        what = "the minus field" if name == "minus" else f"{field_words(name, seats)} field"
        out.append(Step(name, "field", fc.cells, what))
    for player, cells in profile.big.items():
        out.append(Step(f"big:{player}", "big", cells, f"the {seat(player)} big-skitt spot"))
    for player, cells in profile.launch.items():
        out.append(Step(f"launch:{player}", "launch", cells, f"the {seat(player)} launch spot"))
    for bridge in profile.bridges:
        a, b = bridge.fields
        colour = b.partition(".")[2] if a.partition(".")[0] == b.partition(".")[0] else b
        out.append(Step(f"bridge:{a}/{b}", "bridge", bridge.cells,
                        f"the bridge between {field_words(a, seats)} and {colour} fields"))
    if buttons is None:
        buttons = profile.gpio.buttons if profile.gpio is not None else {}
    for role, names in buttons.items():
        who = "the referee's" if role == "referee" else f"the {seat(role)}"
        for name in names:
            out.append(Step(f"button:{role}.{name}", "button", (),
                            f"{who} {name.replace('_', ' ')} button"))
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


@dataclass(frozen=True)
class SheetRow:
    """One line of the check sheet."""

    item: str
    """``cell 16``, ``button 2``, ``expander 0x21``."""
    part: str
    """What it senses or is, in words."""
    where: str
    """Expander and pin of a cell, when the board has expanders."""
    passed: bool
    result: str
    """``answered``, ``never changed``, ``stuck active``, ``chatter``, ``not reached``
    (``sensing a skitt``, ``waiting`` while the walk goes on),
    ``pressed``, ``no errors``, ``3 I2C errors``..."""
    changes: int = 0


@dataclass(frozen=True)
class Sheet:
    """The printable check sheet of one self-test."""

    board_id: str
    date: str
    profile: str
    source: str
    rows: tuple[SheetRow, ...]
    complete: bool
    """Every step was reached (False: the test was stopped early)."""

    @property
    def passed(self) -> bool:
        return self.complete and all(r.passed for r in self.rows)

    @property
    def failures(self) -> tuple[SheetRow, ...]:
        return tuple(r for r in self.rows if not r.passed)

    def summary(self) -> str:
        failed = len(self.failures)
        if self.passed:
            return f"passed: all {len(self.rows)} checks"
        what = f"{failed} of {len(self.rows)} checks failed" if failed else "stopped early"
        return f"failed: {what}"

    def to_json(self) -> dict[str, Any]:
        return {
            "board_id": self.board_id, "date": self.date, "profile": self.profile,
            "source": self.source, "complete": self.complete, "passed": self.passed,
            "summary": self.summary(),
            "rows": [{"item": r.item, "part": r.part, "where": r.where, "passed": r.passed,
                      "result": r.result, "changes": r.changes} for r in self.rows],
        }

    def text(self) -> str:
        """The sheet as plain text, to print or keep."""
        lines = [f"skitter board self-test: {self.board_id}", f"date: {self.date}",
                 f"profile: {self.profile} · source: {self.source}",
                 f"result: {self.summary().upper()}", ""]
        width = max((len(r.item) for r in self.rows), default=4)
        part_width = max((len(r.part) for r in self.rows), default=4)
        for r in self.rows:
            mark = "PASS" if r.passed else "FAIL"
            where = f" [{r.where}]" if r.where else ""
            lines.append(f"{mark}  {r.item:<{width}}  {r.part:<{part_width}}  {r.result}{where}")
        return "\n".join(lines) + "\n"


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
        self.steps = steps_for(profile, buttons)
        self.roles = profile.cell_roles()
        active = set(initial)
        self._cells = {c: _Cell(active=c in active, started_active=c in active)
                       for c in self.roles}
        self._pressed: dict[str, int] = {s.key: 0 for s in self.steps if s.kind == "button"}
        self._errors: dict[str, int] = {}
        self._chatter_toggles = chatter_toggles
        self._window = chatter_window_s
        self.index = 0
        """The step being walked; ``len(steps)`` once every step is behind."""
        self.reached = 1 if self.steps else 0
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
        """Move on from the current step, whatever has not answered."""
        if self.index < len(self.steps):
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
        return False, "never changed"

    def step_done(self, step: Step) -> bool:
        if step.kind == "button":
            return self._pressed.get(step.key, 0) > 0
        return all(self._cells[c].answered for c in step.cells if c in self._cells)

    def view(self) -> dict[str, Any]:
        """The walk as it stands, for the referee page and the command line."""
        step = self.current
        cells = {}
        for cell, c in sorted(self._cells.items()):
            ok, result = self.cell_result(cell)
            cells[str(cell)] = {"part": self._part(cell), "active": c.active,
                                "changes": c.changes, "answered": c.answered,
                                "passed": ok, "result": result}
        return {
            "finished": self.finished,
            "complete": self.complete,
            "step": None if step is None else {
                "index": self.index, "key": step.key, "kind": step.kind,
                "cells": list(step.cells), "what": step.what,
                "instruction": step.instruction(),
                "answered": [c for c in step.cells if self._cells[c].answered],
            },
            "steps": [{"key": s.key, "what": s.what, "done": self.step_done(s)}
                      for s in self.steps],
            "count": len(self.steps),
            "cells": cells,
            "buttons": dict(self._pressed),
            "expanders": dict(self._errors),
        }

    def sheet(self, board_id: str, date: str) -> Sheet:
        """The check sheet: a row per used cell, button and expander."""
        rows: list[SheetRow] = []
        mcp = self.profile.mcp23017
        for cell in sorted(self._cells):
            ok, result = self.cell_result(cell)
            where = ""
            if mcp is not None and cell < 16 * len(mcp.addresses):
                address, pin = mcp.locate(cell)
                where = f"0x{address:02X} {pin}"
            rows.append(SheetRow(f"cell {cell}", self._part(cell), where, ok, result,
                                 self._cells[cell].changes))
        buttons = [step for step in self.steps if step.kind == "button"]
        for number, step in enumerate(buttons, 1):
            presses = self._pressed[step.key]
            rows.append(SheetRow(f"button {number}", step.what, "",
                                 presses > 0, "pressed" if presses else "never pressed",
                                 presses))
        if mcp is not None:
            for address in mcp.addresses:
                label = f"0x{address:02X}"
                errors = self._errors.get(label, 0)
                rows.append(SheetRow(f"expander {label}", "MCP23017 on the I2C bus", "",
                                     errors == 0,
                                     "no errors" if errors == 0 else f"{errors} I2C errors"))
        return Sheet(board_id, date, self.profile.name, self.source, tuple(rows),
                     self.complete)

    # -- inside ----------------------------------------------------------------------------------

    def _part(self, cell: int) -> str:
        role = self.roles[cell]
        for step in self.steps:
            if cell in step.cells:
                return step.what
        return role

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
