"""Issue 29: the board's last self-test is kept as made (English, with each row's data) and
read in the reader's language; a sheet kept before rows carried their data still shows."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from web_helpers import run_for

from scorekeeper.clock import FakeClock
from web.table import selftest_record

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}


def last(client: TestClient, headers: dict[str, str] | None = None) -> dict[str, Any]:
    answer = client.get("/api/selftest", headers=headers or {})
    assert answer.status_code == 200, answer.text
    return answer.json()["last"]  # type: ignore[no-any-return]


def test_the_kept_sheet_reads_in_the_readers_language(
    referee: TestClient, fake_clock: FakeClock, tmp_path: Path
) -> None:
    view = referee.post("/api/referee/selftest/start", json={"run": 0}).json()
    board = referee.app.state.table.sensing.simulator  # type: ignore[attr-defined]
    for cell in view["walk"]["step"]["cells"]:
        board.magnet_arrives(cell)
        run_for(referee, fake_clock, 0.1)
        board.magnet_leaves(cell)
        run_for(referee, fake_clock, 0.1)
    referee.post("/api/referee/selftest/stop", json={"run": 1})

    kept = json.loads(selftest_record.path_in(tmp_path).read_text(encoding="utf-8"))
    first = kept["rows"][0]
    assert (first["item"], first["result"]) == ("cell 0", "answered"), "kept in English"
    assert (first["kind"], first["label"], first["step"], first["code"]) == (
        "cell", "0", "black.red", "answered"), "with its data"

    english = last(referee)
    rows = {r["label"]: r for r in english["rows"] if r["kind"] == "cell"}
    assert rows["0"]["item"] == "cell 0" and rows["0"]["result"] == "answered"
    assert rows["0"]["part"] == "the first player's red field"
    assert rows["16"]["result"] == "not reached"
    assert english["summary"].startswith("failed: ") and "checks failed" in english["summary"]
    assert english["verdict"].startswith("FAILED (") and "failed: " not in english["verdict"]

    german = last(referee, GERMAN)
    rows = {r["label"]: r for r in german["rows"] if r["kind"] == "cell"}
    assert rows["0"]["item"] == "Zelle 0"
    assert rows["0"]["part"] == "Feld Rot des ersten Spielers"
    assert rows["4"]["result"] == "nie gewechselt"
    assert rows["16"]["result"] == "nicht erreicht"
    assert german["summary"].startswith("nicht bestanden: ")
    assert "Prüfungen fehlgeschlagen" in german["summary"]
    assert german["verdict"].startswith("NICHT BESTANDEN (")
    assert [r["passed"] for r in german["rows"]] == [r["passed"] for r in english["rows"]]
    assert (german["date"], german["board_id"]) == (english["date"], english["board_id"])
    assert last(referee, {"Accept-Language": "de"})["summary"] == german["summary"]
    assert referee.get("/api/selftest?lang=de").json()["last"]["verdict"] == german["verdict"]


OLD_SHEET = {  # as kept before rows carried their data: English sentences only
    "board_id": "board-7", "date": "2026-11-30T20:15:00+01:00", "profile": "standard",
    "source": "sim", "complete": True, "passed": False,
    "summary": "failed: 1 of 2 checks failed",
    "rows": [{"item": "cell 0", "part": "the first player's red field", "where": "",
              "passed": True, "result": "answered", "changes": 2},
             {"item": "cell 1", "part": "the first player's red field", "where": "",
              "passed": False, "result": "never changed", "changes": 0}],
}


def test_an_old_sheet_still_loads_and_shows(
    make_client: Callable[..., TestClient], tmp_path: Path
) -> None:
    selftest_record.path_in(tmp_path).write_text(json.dumps(OLD_SHEET), encoding="utf-8")
    client = make_client()
    english = last(client)
    assert english["rows"] == OLD_SHEET["rows"]
    assert english["summary"] == OLD_SHEET["summary"]
    assert english["verdict"] == "FAILED (1 of 2 checks failed)"
    german = last(client, GERMAN)
    assert german["rows"] == OLD_SHEET["rows"], "its rows as they were written"
    assert german["summary"] == "nicht bestanden: 1 von 2 Prüfungen fehlgeschlagen"
    assert german["verdict"] == "NICHT BESTANDEN (1 von 2 Prüfungen fehlgeschlagen)"
    assert (german["board_id"], german["date"]) == ("board-7", OLD_SHEET["date"])
