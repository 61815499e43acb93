"""The self-test's check sheet: pass or fail per cell, button and expander, with the date
and the board id, to print or keep (:meth:`firmware_bridge.selftest.SelfTest.sheet` fills
it at the end of the walk)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from firmware_bridge.selftest_words import summary_words
from scorekeeper.words import ENGLISH, Words


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
    kind: str = ""
    """``cell``, ``button`` or ``expander``: with ``label``, ``step``, ``code`` and ``count``
    the row's data, from which a reader words it again (:mod:`web.table.selftest_record`)."""
    label: str = ""
    """The cell's number, the button's, the expander's address (``0x21``)."""
    step: str = ""
    """The key of the step the part belongs to (empty: the profile's role, as ``part``)."""
    code: str = ""
    """A cell's result key (``answered``, ``never changed``...)."""
    count: int = 0
    """A button's presses, an expander's I2C errors."""


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

    def summary(self, t: Words = ENGLISH) -> str:
        return summary_words(self.passed, len(self.failures), len(self.rows), t)

    def to_json(self) -> dict[str, Any]:
        return {
            "board_id": self.board_id, "date": self.date, "profile": self.profile,
            "source": self.source, "complete": self.complete, "passed": self.passed,
            "summary": self.summary(),
            "rows": [{"item": r.item, "part": r.part, "where": r.where, "passed": r.passed,
                      "result": r.result, "changes": r.changes, "kind": r.kind,
                      "label": r.label, "step": r.step, "code": r.code, "count": r.count}
                     for r in self.rows],
        }

    def text(self, t: Words = ENGLISH) -> str:
        """The sheet as plain text, to print or keep (its headings in the language ``t``; its
        rows are in the language the sheet was made in: :meth:`SelfTest.sheet`)."""
        lines = [t.gettext("skitter board self-test: {board}").format(board=self.board_id),
                 t.gettext("date: {date}").format(date=self.date),
                 t.gettext("profile: {profile} · source: {source}").format(
                     profile=self.profile, source=self.source),
                 t.gettext("result: {summary}").format(summary=self.summary(t).upper()), ""]
        width = max((len(r.item) for r in self.rows), default=4)
        part_width = max((len(r.part) for r in self.rows), default=4)
        passed, failed = t.gettext("PASS"), t.gettext("FAIL")
        mark_width = max(len(passed), len(failed))
        for r in self.rows:
            mark = passed if r.passed else failed
            where = f" [{r.where}]" if r.where else ""
            lines.append(f"{mark:<{mark_width}}  {r.item:<{width}}  {r.part:<{part_width}}  "
                         f"{r.result}{where}")
        return "\n".join(lines) + "\n"
