"""Issue 29: the referee page's match log (``GET /api/match/log``) reads in the language of
the request, like its CSV: each step and effect in words, the players' names as given;
English without one."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import place_bigs, state, step


def _a_point(referee: TestClient) -> None:
    r = referee.post("/api/match/new", json={"seq": state(referee)["seq"],
                                             "names": {"black": "Annegret", "white": "Bo"},
                                             "first": "black"})
    assert r.status_code == 200, r.text
    place_bigs(referee)
    assert step(referee, {"correct": {"board": {"white.yellow": 2},
                                      "reason": "verrutscht"}}).status_code == 200
    assert step(referee, {"shot": {"by": "black", "delta": {"white.yellow": 1}}}).status_code == 200


def test_the_match_log_reads_in_german(referee: TestClient) -> None:
    _a_point(referee)
    entries = referee.get("/api/match/log?lang=de").json()["entries"]
    shot, correction = entries[-1], entries[-2]
    assert shot["words"] == "Schuss von Annegret", shot
    assert [e["text"] for e in shot["effects"]] == ["Annegret +1: Wertung, Gelb bei Bo"]
    assert "verrutscht" in correction["words"] and "correction" not in correction["words"]
    german = referee.get("/api/match/log", headers={"Accept-Language": "de-DE"}).json()
    assert german["entries"][-1]["words"] == "Schuss von Annegret"


def test_the_match_log_stays_english_without_a_language(referee: TestClient) -> None:
    _a_point(referee)
    shot = referee.get("/api/match/log").json()["entries"][-1]
    assert shot["words"] == "Annegret's shot", shot
    assert shot["effects"][0]["text"] == "Annegret +1: third skitt on Bo's yellow field"


def test_a_seat_without_a_name_is_named_in_german_in_the_log(referee: TestClient) -> None:
    assert referee.get("/api/match/log?lang=de").json()["names"] == {
        "black": "Erster Spieler", "white": "Zweiter Spieler"}
