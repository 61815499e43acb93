"""Issue 29, the board side: the API's ``detail`` messages, the self-test's step words and
the sensor audit's parts and flags in the language of the request (``Accept-Language`` or
``?lang=``); English stays as it was without one."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import PIN, place_bigs, run_for, state

from firmware_bridge.audit import MatchSensing, audit
from firmware_bridge.profile import load_profile
from firmware_bridge.selftest import SelfTest, steps_for
from scorekeeper.clock import FakeClock
from web_common.i18n import language

GERMAN = language("de")
DE = {"Accept-Language": "de-DE,de;q=0.9"}
PROFILE = load_profile()


def test_a_wrong_pin_and_a_missing_session_read_in_german(client: TestClient) -> None:
    wrong = client.post("/api/referee/login", json={"pin": "000000"}, headers=DE)
    assert wrong.status_code == 401
    assert wrong.json()["detail"].startswith("falsche PIN: nächster Versuch in ")
    english = client.post("/api/referee/login", json={"pin": "000001"})
    assert english.status_code == 429
    assert english.json()["detail"].startswith("too many wrong PINs: try again in ")
    waiting = client.post("/api/referee/login", json={"pin": "000001"}, headers=DE)
    assert waiting.json()["detail"].startswith("zu viele falsche PINs: in ")
    refused = client.post("/api/referee/selftest/start", json={"run": 0}, headers=DE)
    assert refused.status_code == 401
    assert refused.json()["detail"] == "Schiedsrichter-Anmeldung nötig: mit der PIN anmelden"


def test_a_change_from_another_site_is_refused_in_german(client: TestClient) -> None:
    r = client.post("/api/referee/login", json={"pin": PIN},
                    headers={**DE, "Origin": "http://elsewhere.example"})
    assert r.status_code == 403
    assert r.json()["detail"].startswith("abgelehnt: die Anfrage kam von einer Seite einer "
                                         "anderen Website")


def test_unknown_things_are_named_in_german(referee: TestClient) -> None:
    review = referee.get("/api/match/log/99/review?lang=de")
    assert review.status_code == 404
    assert review.json()["detail"] == ("Schritt 99: diesen Schritt gibt es im Protokoll "
                                       "dieser Partie nicht")
    player = referee.get("/api/stats/player", params={"name": "Nobody"}, headers=DE)
    assert player.status_code == 404
    assert player.json()["detail"] == "name: keine beendete Partie eines Spielers namens 'Nobody'"
    assert referee.get("/caller/audio/x.wav", headers=DE).json()["detail"] == (
        "diesen Satz gibt es nicht")


def test_a_stale_caller_change_reads_in_german(referee: TestClient) -> None:
    version = referee.get("/api/caller").json()["version"]
    stale = referee.post("/api/caller", json={"version": version + 5, "muted": True},
                         headers=DE)
    assert stale.status_code == 409
    assert stale.json()["detail"].startswith(
        "die Einstellungen des Ansagers haben sich seit Version")
    unknown = referee.post("/api/caller", json={"version": version, "language": "xx"},
                           headers=DE)
    assert unknown.status_code == 422
    assert unknown.json()["detail"].startswith("language: erwartet wird eine von ")


def test_the_self_test_walk_reads_in_german(referee: TestClient, fake_clock: FakeClock) -> None:
    started = referee.post("/api/referee/selftest/start", json={"run": 0}, headers=DE)
    assert started.status_code == 200, started.text
    step = started.json()["walk"]["step"]
    assert step["what"] == "Feld Rot des ersten Spielers"
    assert step["instruction"] == ("Nacheinander einen Skitt auf jeden Punkt legen und jedes "
                                   "Mal wieder abheben: Feld Rot des ersten Spielers")
    walk = referee.get("/api/selftest?lang=de").json()["walk"]
    assert "Feld Minus" in [s["what"] for s in walk["steps"]]
    assert walk["cells"][str(step["cells"][0])]["part"] == "Feld Rot des ersten Spielers"
    # each cell's result in words beside its key (the page shows the words, reads the key)
    first = walk["cells"][str(step["cells"][0])]
    assert (first["result"], first["said"]) == ("waiting", "wartet")
    far = walk["cells"][str(max(int(c) for c in walk["cells"]))]
    assert (far["result"], far["said"]) == ("not reached", "nicht erreicht")
    english = referee.get("/api/selftest").json()["walk"]["step"]
    assert english["instruction"] == ("Place a skitt on each spot of the first player's red "
                                      "field in turn, lifting it each time")
    run = started.json()["run"]
    assert referee.post("/api/referee/selftest/skip", json={"run": run, "step": 0}).is_success
    stale = referee.post("/api/referee/selftest/skip", json={"run": run, "step": 0}, headers=DE)
    assert stale.status_code == 409
    assert stale.json()["detail"] == (
        "der Selbsttest ist weiter, seit dieser Schritt angezeigt wurde")
    assert stale.json()["message"].startswith("Jemand anderes hat den Selbsttest schon")
    assert stale.json()["selftest"]["walk"]["step"]["what"] == "Feld Gelb des ersten Spielers"
    run_for(referee, fake_clock)
    referee.post("/api/referee/selftest/stop", json={"run": 1})


def test_every_kind_of_step_has_german_words() -> None:
    steps = {s.key: s for s in steps_for(PROFILE, {"referee": ["undo"], "black": ["shot"]},
                                         GERMAN)}
    assert steps["big:white"].instruction(GERMAN) == (
        "Einen großen Skitt daraufsetzen und wieder abheben: Platz des großen Skitts des "
        "zweiten Spielers")
    assert steps["launch:black"].what == "Abschussplatz des ersten Spielers"
    bridge = next(s for s in steps.values() if s.kind == "bridge")
    assert bridge.what.startswith("Brücke zwischen den Feldern ")
    assert bridge.instruction(GERMAN).startswith("Einen Skitt darauflegen und wieder abheben: ")
    assert steps["button:referee.undo"].instruction(GERMAN) == (
        "Drücken: Taste undo des Schiedsrichters")
    assert steps["button:black.shot"].what == "Taste shot des ersten Spielers"


def test_the_check_sheet_reads_in_german() -> None:
    test = SelfTest(PROFILE, 0.0)
    test.finish(1.0)
    sheet = test.sheet("board-7", "2026-12-02", GERMAN)
    text = sheet.text(GERMAN)
    assert text.startswith("skitter Selbsttest des Bretts: board-7\nDatum: 2026-12-02\n")
    assert "\nErgebnis: NICHT BESTANDEN: " in text and "PRÜFUNGEN FEHLGESCHLAGEN\n" in text
    assert "Zelle 0" in text and "Feld Rot des ersten Spielers" in text
    assert "nie gewechselt" in text and "nicht erreicht" in text
    english = test.sheet("board-7", "2026-12-02")  # the sheet kept: English
    assert english.rows[0].result == "never changed" and english.rows[0].item == "cell 0"


def test_the_audit_names_parts_and_flags_in_german(referee: TestClient) -> None:
    place_bigs(referee)
    assert state(referee)["log_length"] >= 1
    german = referee.get("/api/sensors/audit", headers=DE).json()
    parts = {c["part"] for c in german["cells"]}
    assert "Feld Minus" in parts and "Platz des großen Skitts des ersten Spielers" in parts
    assert {f["part"] for f in german["fields"]} >= {"Feld Rot des zweiten Spielers"}
    english = referee.get("/api/sensors/audit").json()
    assert "the minus field" in {c["part"] for c in english["cells"]}

    cell = PROFILE.fields["white.red"].cells[0]
    matches = [MatchSensing(i, flags={cell: frozenset({"stuck active", "jittery"})})
               for i in (1, 2, 3)]
    result = audit(PROFILE, matches, t=GERMAN)
    flagged = next(c for c in result.to_json(GERMAN)["cells"] if c["cell"] == cell)["flagged"]
    assert flagged == {"hängt aktiv": 3, "unruhig": 3}
    text = result.text(GERMAN)
    assert text.startswith("Sensorprüfung über die letzten 3 Partien · I2C-Fehler: 0\n")
    assert "seit 3 Partien oder länger nicht gewechselt: Feld Rot des ersten Spielers (alle " \
        in text
    assert "unruhig x3, hängt aktiv x3" in text
    assert "Nachträge je Feld" in text
    assert audit(PROFILE, matches).to_json()["cells"][0]["part"] == "the first player's red field"
