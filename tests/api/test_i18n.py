"""Two languages: which one a page, a socket and an answer use, and the words in each."""

from __future__ import annotations

import re

from fastapi.testclient import TestClient
from web_helpers import place_bigs, state, step

from scorekeeper.effects import EffectKind
from scorekeeper.words import Moment, moment, restore_instruction, turn_prompt
from web.table.snapshot import alerts, worded
from web_common.i18n import available, choose, language

NAMES = {"black": "Ann", "white": "Bo"}
DE = language("de")


def test_both_languages_have_a_catalog_and_english_is_the_source():
    assert available()[0] == "en" and "de" in available()


def test_the_page_asks_first_then_the_browser_then_the_venue():
    assert choose("de", "en-GB,en;q=0.9", "en") == "de"
    assert choose(None, "de-AT,de;q=0.9,en;q=0.5", "en") == "de"
    assert choose(None, "fr-FR, en;q=0.3", "de") == "en"
    assert choose(None, "fr-FR", "de") == "de"
    assert choose(None, None, "de") == "de"
    # a language nobody has a catalog for is no choice: the next one decides
    assert choose("xx", "en;q=0.2, de;q=0.8", "en") == "de"
    assert choose(None, "de;q=0, en", "de") == "en"


def test_german_words_come_from_the_catalog_with_plurals_and_numbers():
    said = restore_instruction({"white.red": 3, "minus": 1}, {}, NAMES, t=DE)
    assert said == "Zurücklegen: 3 Skitts von Rot bei Bo nehmen, 1 von Feld Minus"
    one = restore_instruction({"white.red": 1}, {}, NAMES, t=DE)
    assert one == "Zurücklegen: 1 Skitt von Rot bei Bo nehmen"
    assert turn_prompt({"phase": "playing", "turn": "black"}, NAMES, DE) == "Ann ist dran"
    over = {"phase": "game_over", "winner": "black", "round_wins": {"black": 2, "white": 1},
            "rules": {"variant": "classic"}}
    assert moment(over, NAMES, DE) == Moment(EffectKind.GAME, "Ann gewinnt das Spiel",
                                             "Endstand: 2 Rundensiege zu 1")
    assert DE.number(1234) == "1.234" and language("en").number(1234) == "1,234"


def test_players_names_are_never_translated_and_an_unnamed_side_is_its_seat():
    assert turn_prompt({"phase": "playing", "turn": "white"}, {"white": "Red"}, DE) == \
        "Red ist dran"
    assert turn_prompt({"phase": "playing", "turn": "white"}, {}, DE) == \
        "Zweiter Spieler ist dran"


def test_the_page_is_served_in_the_language_asked_for(client: TestClient):
    german = client.get("/?lang=de").text
    assert '<html lang="de">' in german and "Anzeigetafel" in german
    assert '<html lang="en">' in client.get("/?lang=en").text
    by_browser = client.get("/tablet", headers={"Accept-Language": "de-DE,de;q=0.9"}).text
    assert '<html lang="de">' in by_browser
    words = re.search(r'<script id="skitter-words" type="application/json">(.*?)</script>',
                      german, re.S)
    assert words and '"lang": "de"' in words.group(1)


def test_the_state_follows_the_same_choice(referee: TestClient):
    client = referee
    place_bigs(client)
    english = state(client)
    german = client.get("/api/state?lang=de").json()
    assert english["words"]["turn"] == "First player to shoot"
    assert german["words"]["turn"].endswith("ist dran")
    assert german["seq"] == english["seq"] and german["state"] == english["state"]
    by_browser = client.get("/api/state", headers={"Accept-Language": "de"}).json()
    assert by_browser["words"] == german["words"]


def test_a_change_is_answered_in_the_language_of_the_page(referee: TestClient):
    place_bigs(referee)
    seq = state(referee)["seq"]
    answer = referee.post("/api/match/steps?lang=de",
                          json={"seq": seq, "step": {"shot": {"by": "black", "delta": {}}}})
    assert answer.status_code == 200, answer.text
    assert answer.json()["words"]["turn"].endswith("ist dran")


def test_a_refusal_reads_in_german(referee: TestClient):
    place_bigs(referee)
    seq = state(referee)["seq"]
    refused = referee.post("/api/match/steps?lang=de", json={
        "seq": seq, "step": {"shot": {"by": "white", "delta": {"black.red": 1}}}})
    assert refused.status_code == 422, refused.text
    assert refused.json()["message"].startswith("Nicht möglich: ")


def test_the_websocket_speaks_the_language_it_asked_for(referee: TestClient):
    client = referee
    place_bigs(client)
    with client.websocket_connect("/ws?lang=de") as german, \
            client.websocket_connect("/ws") as english:
        de, en = german.receive_json(), english.receive_json()
        assert de["words"]["turn"].endswith("ist dran")
        assert en["words"]["turn"].endswith("to shoot")
        step(client, {"shot": {"by": "black", "delta": {}}})
        de, en = german.receive_json(), english.receive_json()
        assert de["seq"] == en["seq"]
        assert de["words"]["turn"].endswith("ist dran") and en["words"]["turn"].endswith(
            "to shoot")


def test_a_restore_and_a_clearing_read_in_german():
    snapshot = {
        "given_names": NAMES, "state": {"phase": "playing", "turn": "black", "round": 2,
                                        "board": {}, "blocked": [], "last_effects": [
                                            {"kind": "round", "player": "white", "amount": 0,
                                             "reason": "R13", "text": "white wins round 1"}],
                                        "round_wins": {"white": 1}},
        "link": {"up": True}, "sensors": {}, "storage": {"ok": True, "message": ""},
        "tracker": {"mode": "restore", "message": "", "differences": {"white.red": 2},
                    "big_differences": {}},
        "log": [],
    }
    german = worded(snapshot, "de")
    assert german["alerts"][0]["message"] == "Brett für Runde 2 abräumen: alle Skitts herunter"
    assert german["words"]["moment"]["title"] == "Bo gewinnt Runde 1"


def test_the_log_download_has_german_headers(referee: TestClient):
    place_bigs(referee)
    german = referee.get("/api/match/log.csv?lang=de").text.splitlines()[0]
    assert german.startswith("seq,Zeit (UTC),Runde,Quelle,Schritt")
    assert "Punkte Erster Spieler" in german
    assert referee.get("/api/match/log.csv").text.startswith("seq,time (UTC),round")
    rows = referee.get("/api/match/log.csv?lang=de").text.splitlines()[1:]
    assert rows and all(",Schuss von " in row for row in rows)  # each step in German words


def test_the_stats_page_follows_the_choice(client: TestClient):
    assert '<html lang="de">' in client.get("/stats?lang=de").text


def test_a_late_change_hears_in_german_what_changed_meanwhile(referee: TestClient):
    place_bigs(referee)
    seen = state(referee)["seq"]
    assert step(referee, {"shot": {"by": "black", "delta": {}}}).status_code == 200
    assert referee.post("/api/match/undo", json={"seq": state(referee)["seq"]}).status_code \
        == 200
    late = referee.post("/api/match/steps?lang=de",
                        json={"seq": seen, "step": {"shot": {"by": "black", "delta": {}}}})
    assert late.status_code == 409, late.text
    said = late.json()
    assert said["meanwhile"][-1].startswith("jemand hat "), said["meanwhile"]
    assert said["state"]["words"]["turn"].endswith("ist dran")


def test_what_the_board_needs_reads_in_german_for_the_referee():
    from scorekeeper.words import board_status

    ready = {"phase": "playing", "turn": "white", "must_place_big": False}
    assert board_status({"mode": "ready"}, ready, NAMES, DE) == "Brett bereit: Bo ist dran"
    restore = {"mode": "restore", "differences": {"black.blue": -1}, "big_differences": {}}
    assert board_status(restore, ready, NAMES, DE) == \
        "Zurücklegen: 1 Skitt auf Blau bei Ann legen"



def test_a_chains_restore_names_the_bridge_in_german_for_the_tv_and_the_referee():
    """The TV's alert and the referee's board line after a chain (R15) both say which
    bridge to clear, by the fields it joins, in the player's name."""
    from scorekeeper.words import board_status

    snapshot = {
        "given_names": NAMES, "state": {"phase": "playing", "turn": "white", "round": 1,
                                        "board": {}, "blocked": [], "last_effects": []},
        "link": {"up": True}, "sensors": {}, "storage": {"ok": True, "message": ""},
        "tracker": {"mode": "restore", "message": "", "differences": {},
                    "big_differences": {}, "bridges": [["white.red", "white.yellow"]]},
        "log": [],
    }
    said = "Zurücklegen: den Skitt von der Brücke zwischen Rot und Gelb bei Bo nehmen"
    assert worded(snapshot, "de")["alerts"][0] == {"kind": "restore", "message": said}
    assert board_status(snapshot["tracker"], snapshot["state"], NAMES, DE) == said
    english = alerts(snapshot["state"], snapshot, NAMES)
    assert english[0]["message"] == (
        "Put back: take the skitt off the bridge between Bo's red and yellow")

def test_fields_handicaps_and_red_choices_are_worded_by_the_server_in_each_language(
    referee: TestClient,
) -> None:
    """The pages show a field ("Bo's red"), a handicap and a Hit on Red choice in the
    snapshot's words: the browser makes no sentence about a player (issue 26, item 5)."""
    response = referee.post("/api/match/new", json={
        "seq": state(referee)["seq"], "names": NAMES,
        "handicaps": {"white": {"line": "semicircle", "hand": "non-dominant"}},
    })
    assert response.status_code == 200, response.text
    english = state(referee)["words"]
    german = referee.get("/api/state?lang=de").json()["words"]
    assert english["fields"]["white.red"] == "Bo's red"
    assert english["fields"]["minus"] == "the minus field"
    assert german["fields"]["white.red"] == DE.gettext("{who}'s {colour}").format(
        who="Bo", colour=DE.gettext("red"))
    assert english["handicaps"] == {"white": "semicircle line · non-dominant hand", "black": ""}
    assert german["handicaps"]["white"] == " · ".join(
        (DE.gettext("semicircle line"), DE.gettext("non-dominant hand")))
    assert english["red_choices"]["black"] == {"advance": "Ann +1",
                                               "back": "Ann sets Bo back one"}
    assert german["red_choices"]["white"]["back"] == DE.gettext(
        "{who} sets {other} back one").format(who="Bo", other="Ann")


def test_the_log_says_each_step_in_german_and_a_reason_as_typed(referee: TestClient):
    place_bigs(referee)
    assert step(referee, {"correct": {"score": {"black": 1},
                                      "reason": "the white tile slipped"}}).is_success
    assert step(referee, {"undo": True}).is_success
    log = referee.get("/api/state?lang=de").json()["log"]
    said = [(e["words"], e["heading"]) for e in log]
    assert said[0][0] == said[0][1] and said[0][0].startswith("Schuss von ")
    assert said[-2][0] == "die Korrektur (the white tile slipped)"  # the reason as typed
    assert said[-1][0] == "die Rücknahme"
    english = state(referee)["log"]
    assert english[-2]["words"] == "the correction (the white tile slipped)"
    assert english[-1]["words"] == "undo"
