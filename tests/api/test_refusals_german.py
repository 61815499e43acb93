"""Issue 29: a refusal reads in the language of the person who tried (``?lang=``, else the
browser's Accept-Language), made from the refusal's data (issue 26): the sentence, the
players' names, the numbers and the ruling; ``detail`` stays the rules' English message and
``rule`` names the ruling that refused."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import place_bigs, state


def _named(referee: TestClient, *, bigs: bool = True) -> None:
    r = referee.post("/api/match/new", json={"seq": state(referee)["seq"],
                                             "names": {"black": "Ann", "white": "Bo"},
                                             "first": "black"})
    assert r.status_code == 200, r.text
    if bigs:
        place_bigs(referee)


def _step(referee: TestClient, body: dict, **kw: object) -> object:
    return referee.post("/api/match/steps", json={"seq": state(referee)["seq"], "step": body},
                        **kw)


def test_a_correction_over_r19s_limits_is_refused_in_german(referee: TestClient) -> None:
    _named(referee)
    over = {"correct": {"score": {"white": 7}, "reason": "miscounted"}}
    r = _step(referee, over, params={"lang": "de"})
    assert r.status_code == 422, r.text
    answer = r.json()
    assert answer["rule"] == "R19" and answer["field"] == "correct.score.white"
    assert answer["message"] == ("Nicht möglich: der Stand 7 von Bo liegt außerhalb von -1..4 "
                                 "(ein Stand von 5 beendet die Runde) (R19)")
    assert answer["plain"] == ("Nicht möglich: der Stand 7 von Bo liegt außerhalb von -1..4 "
                               "(ein Stand von 5 beendet die Runde)")
    assert answer["detail"].startswith(
        "correct.score.white: white's score 7 is outside -1..4 (a score of 5 ends the round) (R19)")
    r = _step(referee, over, headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"})
    assert r.json()["message"].startswith("Nicht möglich: der Stand 7 von Bo")
    r = _step(referee, over)
    assert r.json()["message"] == ("Not possible: Bo's score 7 is outside -1..4 (a score of 5 "
                                   "ends the round) (R19)")


def test_a_shot_out_of_turn_is_refused_in_german_in_names(referee: TestClient) -> None:
    _named(referee)
    r = _step(referee, {"shot": {"by": "white", "delta": {"black.red": 1}}},
              params={"lang": "de"})
    assert r.status_code == 422, r.text
    assert r.json()["rule"] == "R1"
    assert r.json()["message"] == (
        "Nicht möglich: Bo hat außer der Reihe geschossen, Ann ist dran (R1)")


def test_a_refusal_of_the_table_itself_names_no_ruling(referee: TestClient) -> None:
    _named(referee, bigs=False)
    r = referee.post("/api/match/amend", json={"seq": state(referee)["seq"], "off_board": 1},
                     params={"lang": "de"})
    assert r.status_code == 422, r.text
    assert r.json()["rule"] is None
    assert r.json()["message"] == ("Nicht möglich: es gibt keinen Schuss zum Ergänzen: der "
                                   "letzte Schritt ist kein Schuss")
