"""Issue 29: the organiser's paper and spreadsheet in German when asked for in German
(``?lang=de`` or Accept-Language): the pairings, the standings, the 404 of a round not paired,
and the CSV's header row and words; the players' names stay as given, the links keep the
language, and without a wish it stays English."""

from __future__ import annotations

import csv
import io
import re

from fastapi.testclient import TestClient
from hub_support import game_steps, real_events
from test_hub_printouts import hub_client, t  # noqa: F401  (a tournament of five and its app)
from web_helpers import PIN

from hub.printouts import CSV_HEADERS
from hub.tournament import Tournament

DE = {"Accept-Language": "de-DE,de;q=0.8,en;q=0.5"}


def test_the_pairings_print_in_german(t: Tournament, hub_client: TestClient) -> None:  # noqa: F811
    assert "Noch keine Runde ausgelost" in hub_client.get("/print/pairings", headers=DE).text
    first, *_ = t.pair_next_round(["b1", "b2"])
    for ev in real_events("b1", 1, (first.black, first.white or ""), game_steps(True)):
        t.receive(ev)
    html = hub_client.get("/print/pairings?lang=de").text
    assert '<html lang="de">' in html
    assert f"<h1>Runde 1 von {t.planned_rounds()}: Paarungen</h1>" in html
    assert ">Tisch</th>" in html and ">Erster Spieler</th>" in html and ">Ergebnis</th>" in html
    assert f"{first.black} hat gewonnen, Runden 1–0, Punkte 5 zu 2" in html
    assert "hat in dieser Runde ein Freilos (es zählt als gewonnenes Spiel)." in html
    assert "Gedruckt am " in html and '<a href="/print/standings?lang=de">Tabelle</a>' in html
    # the date as German writes it: "Gedruckt am 14. November 2023, 22:13" (not "14 November")
    assert re.search(r"Gedruckt am \d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4}, \d\d:\d\d", html), html
    assert "&lt;b&gt;Ben&lt;/b&gt;" in html  # names as given, still escaped
    missing = hub_client.get("/print/pairings/7", headers=DE)
    assert missing.status_code == 404 and missing.json()["detail"] == "Runde 7 ist nicht ausgelost"
    assert "Round 1 of" in hub_client.get("/print/pairings").text  # no wish: English


def test_the_standings_print_in_german(t: Tournament, hub_client: TestClient) -> None:  # noqa: F811
    t.pair_next_round(["b1", "b2"])
    html = hub_client.get("/print/standings", headers=DE).text
    for header in ("Platz", "Spieler", "Gewonnen", "Runden gewonnen–verloren", "Differenz"):
        assert f">{header}</th>" in html or f">{header}</span>" in html, header
    assert f"Nach 1 von {t.planned_rounds()} Runden." in html
    assert "daher kann eine Punktzahl negativ sein" in html
    assert "Opponents" not in html and "Printed" not in html


def test_the_results_csv_in_german(t: Tournament, hub_client: TestClient) -> None:  # noqa: F811
    first, second, *_ = t.pair_next_round(["b1", "b2"])
    for ev in real_events("b1", 1, (first.black, first.white or ""), game_steps(False)):
        t.receive(ev)
    hub_client.post("/api/referee/login", json={"pin": PIN})
    assert hub_client.post(f"/api/rounds/1/tables/{second.table}/result", json={
        "winner": None, "first_rounds": 1, "second_rounds": 1, "first_points": 3,
        "second_points": 3, "reason": "on paper"}).status_code == 200
    rows = list(csv.reader(io.StringIO(hub_client.get("/export/results.csv?lang=de").text)))
    assert rows[0] == ["Runde", "Tisch", "Brett", "Erster Spieler", "Zweiter Spieler", "Sieger",
                       "Gewonnene Runden des ersten Spielers",
                       "Gewonnene Runden des zweiten Spielers", "Punkte des ersten Spielers",
                       "Punkte des zweiten Spielers", "Beendet um", "Eingetragen von"]
    by_table = {int(r[1]): r for r in rows[1:]}
    assert by_table[first.table][-1] == "das Brett"
    assert by_table[second.table][5] == "kein Sieger"
    assert by_table[second.table][-1] == "der Schiedsrichter"
    english = list(csv.reader(io.StringIO(hub_client.get("/export/results.csv").text)))
    assert tuple(english[0]) == CSV_HEADERS
