"""CSV for spreadsheets: one writer for every table skitter hands out as a file.

A spreadsheet runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` (and some also one
starting with a tab or a carriage return) as a formula: a player named
``=HYPERLINK("http://...")`` would put a link, or worse, into the referee's sheet. Every text
cell starting so gets a leading apostrophe, which spreadsheets show as text; numbers (a
negative score) are written as they are. The board's match log (``/api/match/log.csv``),
``skitter stats --export`` and the hub's results all write through :func:`csv_writer`.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import Any, Protocol

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a cell as a formula."""


class _Writable(Protocol):
    def write(self, text: str, /) -> Any: ...


def safe_cell(value: object) -> object:
    """``value`` as a spreadsheet shows it: text starting like a formula kept as text."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class CsvWriter:
    """``csv.writer`` whose every text cell goes through :func:`safe_cell`."""

    def __init__(self, out: _Writable) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[object]) -> None:
        self._writer.writerow([safe_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[object]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(out: _Writable) -> CsvWriter:
    """The writer every CSV of skitter is written with."""
    return CsvWriter(out)
