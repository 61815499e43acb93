"""Issue 29: the review's sentences made on the server (what a step did, where a cell is, what
happened to the step later, why it has no timeline) in the language of the request."""

from __future__ import annotations

from fastapi.testclient import TestClient
from test_review_words import NAMES, shot
from web_helpers import place_bigs, state

from scorekeeper.events import Correction, Undo
from web.table.match_log import LogEntry
from web.table.review import later_changes, place_words, step_words
from web_common.i18n import language

GERMAN = language("de")


def test_a_shot_reads_in_german_with_the_players_names_as_given() -> None:
    event = shot(delta={"white.red": -1, "white.yellow": 2}, off_board=1,
                 chain=["black.red", "white.blue"], invalid=True)
    assert step_words(event, NAMES, GERMAN) == (
        "Ann: +2 Skitts auf Gelb bei Bo, 1 Skitt weg von Rot bei Bo, 1 Skitt vom Brett, "
        "Kette von Rot bei Ann nach Blau bei Bo, für ungültig erklärt")
    assert step_words(shot(delta={"minus": 1, "black.red": -1}), NAMES, GERMAN) == (
        "Ann: +1 Skitt auf Feld Minus, 1 Skitt weg von Rot bei Ann")
    assert place_words("minus", NAMES, GERMAN) == "Feld Minus"
    assert step_words(shot(delta={}), NAMES, GERMAN) == "Ann: nichts geändert"
    assert step_words(shot(delta={}), NAMES) == "Ann: nothing changed"  # English by default


def test_where_a_cell_is_reads_in_german() -> None:
    assert place_words("big:white", NAMES, GERMAN) == "Platz des großen Skitts von Bo"
    assert place_words("bridge:black.red/black.blue", NAMES, GERMAN) == (
        "die Brücke zwischen Rot bei Ann und Blau bei Ann")
    assert place_words("", NAMES, GERMAN) == "eine Zelle, die nicht zählt"


def step(seq: int, event: object) -> LogEntry:
    return LogEntry(seq, 0.0, "referee", event, "", [], {"black": 0, "white": 0}, 1)  # type: ignore[arg-type]


def test_what_happened_later_reads_in_german() -> None:
    entries = [step(1, shot(delta={"white.red": 1})), step(2, Undo()),
               step(3, shot(delta={"white.blue": 1}))]
    assert later_changes(entries, 0, True, NAMES, GERMAN) == [
        "Schritt 2: zurückgenommen", "Schritt 3: geändert zu Ann: +1 Skitt auf Blau bei Bo"]
    fixed = [entries[0], step(2, Correction(score={"black": 1}, reason="Zählfehler"))]
    assert later_changes(fixed, 0, False, NAMES, GERMAN) == [
        "Schritt 2: korrigiert (Zählfehler)"]


def test_the_review_api_follows_the_pages_language(referee: TestClient) -> None:
    place_bigs(referee)
    seq = state(referee)["last_step"]["seq"]
    german = referee.get(f"/api/match/log/{seq}/review?lang=de").json()
    assert german["note"].startswith("von Hand eingegeben: kein Sensorverlauf")
    english = referee.get(f"/api/match/log/{seq}/review").json()
    assert "no sensor timeline" in english["note"]
