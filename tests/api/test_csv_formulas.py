"""No cell of a CSV skitter hands out starts like a spreadsheet formula.

A player named ``=HYPERLINK(...)`` (or ``+1``, ``-x``, ``@SUM``) and a reason starting so are
written with a leading apostrophe in the board's match log CSV (English and German),
``skitter stats --export`` and the hub's results (tests/hub/test_hub_printouts.py), all
through one writer; negative numbers stay numbers.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from fastapi.testclient import TestClient
from stats_matches import MATCH_1, new_match, play

from web_common.spreadsheet_csv import FORMULA_STARTS, safe_cell

EVIL = '=HYPERLINK("http://x.invalid")'
OTHER = "@SUM(1+1)"


def formula_cells(text: str) -> list[str]:
    """The text cells of ``text`` a spreadsheet would run (a negative number is a number)."""
    return [cell for row in csv.reader(io.StringIO(text)) for cell in row
            if cell.startswith(FORMULA_STARTS) and not is_number(cell)]


def is_number(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True


def test_a_cell_starting_like_a_formula_is_kept_as_text() -> None:
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert safe_cell(start + "1") == "'" + start + "1"
    assert safe_cell("Ann") == "Ann" and safe_cell(-3) == -3 and safe_cell("") == ""


def test_the_match_log_csv_has_no_formula_cells(referee: TestClient) -> None:
    new_match(referee, EVIL, OTHER)
    play(referee, MATCH_1)
    for lang in ("en", "de"):
        answer = referee.get(f"/api/match/log.csv?lang={lang}")
        assert answer.status_code == 200
        assert formula_cells(answer.text) == [], lang
        cells = [cell for row in csv.reader(io.StringIO(answer.text)) for cell in row]
        assert any(EVIL in cell for cell in cells)  # the name is there, as text
        if lang == "en":
            assert any(cell.startswith("'" + EVIL) for cell in cells)  # "'=HY...'s shot"


def test_the_stats_export_has_no_formula_cells(referee: TestClient, tmp_path: Path) -> None:
    from skitter_cli.main import main

    new_match(referee, EVIL, OTHER)
    play(referee, MATCH_1)
    export = tmp_path / "stats.csv"
    assert main(["stats", "--db", str(tmp_path / "skitter.db"), "--export", str(export)]) == 0
    text = export.read_text(encoding="utf-8")
    assert formula_cells(text) == []
    names = {row["name"] for row in csv.DictReader(io.StringIO(text))}
    assert names == {"'" + EVIL, "'" + OTHER}
