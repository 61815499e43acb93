"""Issues 26 and 29: what the board needs after the rules refused a sensed shot is made from
the refusal's data, in names and in the page's language (never the engine's keys or its
bracketed state); and the moment before the first settled reading is no fault."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import run_for, state, two_skitts_sensed_at_once

from scorekeeper.clock import FakeClock
from scorekeeper.errors import Field, Fields, Player, Why, because
from scorekeeper.tracker import Tracker
from scorekeeper.words import board_status
from web.table.snapshot import alerts
from web_common.i18n import language

DE = language("de")
NAMES = {"black": "Ann", "white": "Bo"}
INTERNALS = ("shot.delta", "[round", "white", "black", "{")


def _two_skitts_at_once(referee: TestClient, fake_clock: FakeClock) -> dict:
    run_for(referee, fake_clock, 0.5)
    r = referee.post("/api/match/new", json={"seq": state(referee)["seq"], "names": NAMES,
                                             "first": "black"})
    assert r.status_code == 200, r.text
    run_for(referee, fake_clock, 0.5)
    return two_skitts_sensed_at_once(referee, fake_clock)


def test_a_refused_sensed_shot_reads_in_names_in_english_and_german(
    referee: TestClient, fake_clock: FakeClock
) -> None:
    body = _two_skitts_at_once(referee, fake_clock)
    tracker = body["tracker"]
    assert tracker["mode"] == "review"
    assert tracker["message"].startswith("the rules refused the sensed shot: shot.delta: ")
    assert tracker["refusal"]["rules"] == ["R2"]
    english = body["words"]["board"]
    assert english.startswith("The rules refused the sensed shot: "), english
    assert "(R2)" in english and "Bo's red" in english
    german = referee.get("/api/state?lang=de").json()["words"]["board"]
    assert german.startswith("Die Regeln haben den erkannten Schuss abgelehnt: "), german
    assert "(R2)" in german and DE.gettext("{who}'s {colour}").format(
        who="Bo", colour=DE.gettext("red")) in german
    for said in (english, german):
        for inner in INTERNALS:
            assert inner not in said, (inner, said)
    assert any(a["kind"] == "review" for a in body["alerts"])


def test_a_refusal_goes_through_the_status_json_as_data():
    why = because("{who} put {n} on {where} and {fields}", rule=("R2", "R19"), who=Player("white"),
                  n=2, where=Field("black.red"), fields=Fields(("minus", "white.blue")),
                  inner=Why("said"))
    assert Why.from_json(why.to_json()) == why
    t = Tracker()
    t.refused("shot.delta: ...", why)
    assert t.status().to_json()["refusal"] == why.to_json()
    t.restore_board()  # a new note ends the refusal's
    assert t.status().to_json()["refusal"] is None


def test_waiting_for_the_first_reading_is_no_fault():
    """Before the board first comes to rest the tracker judges nothing: the TV shows no
    alert that the board does not match, and the referee reads that it waits."""
    tracker = Tracker().status().to_json()
    assert tracker["mode"] == "review" and tracker["settled"] is False
    view = {"link": {"up": True}, "sensors": {}, "tracker": tracker}
    said = alerts({"phase": "playing", "turn": "black"}, view, NAMES)
    assert [a["kind"] for a in said] == []
    assert board_status(tracker, {"turn": "black"}, NAMES, DE) == DE.gettext(
        "Waiting for the board to come to rest")


def test_right_after_opening_the_tv_shows_no_review_alert(client: TestClient) -> None:
    body = state(client)
    assert body["tracker"]["mode"] == "review"  # not judged yet
    assert not any(a["kind"] == "review" for a in body["alerts"]), body["alerts"]
    assert body["tracker"]["settled"] is False
