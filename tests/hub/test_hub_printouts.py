"""The organiser's paper and spreadsheet (issue 27, item 7): printable pairings and
standings at their own addresses, and every result as CSV with headers a person reads."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hub_app_support import hub_app_client, tournament_of
from hub_support import game_steps, real_events
from web_helpers import PIN

from hub.printouts import CSV_HEADERS
from hub.tournament import Tournament


@pytest.fixture
def t(tmp_path: Path) -> Iterator[Tournament]:
    with tournament_of(tmp_path, ("Ann", "<b>Ben</b>", "=Cid", "Dee", "Eve")) as tournament:
        yield tournament


@pytest.fixture
def hub_client(t: Tournament, tmp_path: Path) -> Iterator[TestClient]:
    with hub_app_client(t, tmp_path, log_in=False) as client:
        yield client


def test_the_pairings_print_on_a4_black_on_white_with_names_as_text(
    t: Tournament, hub_client: TestClient
) -> None:
    assert "No round has been paired yet" in hub_client.get("/print/pairings").text
    t.pair_next_round(["b1", "b2"])
    page = hub_client.get("/print/pairings")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    assert "@page { size: A4" in html and "@media print" in html
    assert "background: #fff; color: #000" in html
    assert "Round 1 of" in html and "pairings" in html
    assert "&lt;b&gt;Ben&lt;/b&gt;" in html and "<b>Ben</b>" not in html
    bye = next(p.black for p in t.store.pairings(1) if p.is_bye)
    assert "has a bye this round" in html and bye.replace("<", "&lt;")[:3] in html
    assert hub_client.get("/print/pairings/1").text == html
    missing = hub_client.get("/print/pairings/7")
    assert missing.status_code == 404 and "round 7 is not paired" in missing.json()["detail"]


def test_the_standings_print_with_plain_figures_and_what_they_mean(
    t: Tournament, hub_client: TestClient
) -> None:
    first, *_ = t.pair_next_round(["b1", "b2"])
    for ev in real_events("b1", 1, (first.black, first.white or ""), game_steps(True)):
        t.receive(ev)
    html = hub_client.get("/print/standings").text
    for header in ("Place", "Player", "Won", "Rounds won–lost", "Points scored",
                   "Opponents' points", "Difference"):
        assert f">{header}</th>" in html or f">{header}</span>" in html
    assert "After 1 of" in html
    assert "a points figure can be negative" in html


def test_the_results_export_as_csv_with_headers_a_person_reads(
    t: Tournament, hub_client: TestClient
) -> None:
    first, second, *_ = t.pair_next_round(["b1", "b2"])
    for ev in real_events("b1", 1, (first.black, first.white or ""), game_steps(False)):
        t.receive(ev)
    referee = hub_client
    referee.post("/api/referee/login", json={"pin": PIN})
    entered = referee.post(f"/api/rounds/1/tables/{second.table}/result", json={
        "winner": second.black, "first_rounds": 2, "second_rounds": 1, "first_points": 9,
        "second_points": -1, "reason": "played on paper"})
    assert entered.status_code == 200, entered.text
    answer = hub_client.get("/export/results.csv")
    assert answer.headers["content-type"].startswith("text/csv")
    assert "attachment" in answer.headers["content-disposition"]
    rows = list(csv.reader(io.StringIO(answer.text)))
    assert tuple(rows[0]) == CSV_HEADERS
    assert len(rows) == 3
    by_table = {int(r[1]): dict(zip(CSV_HEADERS, r, strict=True)) for r in rows[1:]}
    board_game = by_table[first.table]
    assert (board_game["Board"], board_game["Winner"], board_game["Recorded by"]) == (
        "b1", first.white if not first.white.startswith("=") else "'" + first.white,
        "the board")
    paper = by_table[second.table]
    assert (paper["Board"], paper["Points of the second player"], paper["Recorded by"]) == (
        "", "-1", "the referee")
    # a name that starts like a formula stays text in a spreadsheet
    assert all(not cell.startswith("=") for r in rows for cell in r)


def test_the_printed_standings_show_buchholz_and_who_dropped_out(
    t: Tournament, hub_client: TestClient
) -> None:
    """Issue 43: the paper carries what the live standings rank by (the opponents' wins,
    Buchholz) and marks a player who dropped out, in both languages."""
    from hub.field_changes import drop_player

    t.set_system("swiss")
    first, second, *_ = t.pair_next_round(["b1", "b2"])
    for board, game in (("b1", first), ("b2", second)):
        for ev in real_events(board, 1, (game.black, game.white or ""), game_steps(True)):
            t.receive(ev)
    drop_player(t, second.black, reason="ill", seq=t.store.field_version())
    html = hub_client.get("/print/standings").text
    assert ">Opponents' wins</span>" in html and ">Bh.</span>" in html
    assert f"{second.black} (dropped out)".replace("<", "&lt;").replace(">", "&gt;") in html
    wins = [s.buchholz for s in t.standings()]
    assert any(wins)
    german = hub_client.get("/print/standings?lang=de").text
    assert ">Siege der Gegner</span>" in german and "(ausgeschieden)" in german
