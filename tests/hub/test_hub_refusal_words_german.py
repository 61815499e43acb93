"""Issue 29: every refusal of the hub's API (a 409, a 422, a 404) is worded in the request's
language (``?lang=``, else Accept-Language), while the error's ``str`` stays the English
sentence; the field's log says each change in the page's language too, and a row an older hub
logged (no catalog entry kept) still reads as written."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from test_hub_app import pins  # noqa: F401  (the module's PIN fixture)
from test_hub_field_api import field_seq, hub, referee, six_players_paired  # noqa: F401

from hub.app import Hub
from hub.model import Claim, GameResult
from hub.said import Sentence
from hub.store import HubStore
from hub.tournament import TournamentError
from web_common.i18n import language

DE = {"Accept-Language": "de-DE,de;q=0.9"}


def paired_unplayed(c: TestClient) -> None:
    assert c.post("/api/system", json={"system": "swiss", "seq": field_seq(c)}).status_code == 200
    for name in ("Ann", "Ben", "Cat", "Dan"):
        assert c.post("/api/players", json={"name": name}).status_code == 200
    assert c.post("/api/rounds", json={"seq": field_seq(c)}).status_code == 200


def test_pairing_while_games_are_open_is_refused_in_german(referee: TestClient) -> None:  # noqa: F811
    paired_unplayed(referee)
    body = {"seq": field_seq(referee)}
    r = referee.post("/api/rounds", json=body, headers=DE)
    assert r.status_code == 409
    assert r.json()["detail"] == ("die nächste Runde kann nicht ausgelost werden: in Runde 1 "
                                  "haben noch Spiele kein Ergebnis")
    r = referee.post("/api/rounds", json=body)
    assert r.json()["detail"] == ("cannot pair the next round: round 1 still has games "
                                  "without a result")
    # the page words the same reason from the view's catalog entry
    view = referee.get("/api/hub").json()
    assert view["next_round_blocked"] == "round 1 still has games without a result"
    assert view["next_round_blocked_said"] == {
        "id": "round {round} still has games without a result", "args": {"round": 1}}


def test_a_refused_registration_is_in_german(referee: TestClient) -> None:  # noqa: F811
    assert referee.post("/api/players", json={"name": "Ann"}).status_code == 200
    r = referee.post("/api/players?lang=de", json={"name": "ann"})
    assert r.status_code == 422
    assert r.json()["detail"] == "Spieler „Ann“ ist schon angemeldet"
    assert referee.delete("/api/players/Ann").status_code == 200
    paired_unplayed(referee)
    r = referee.post("/api/players", json={"name": "Gus"}, headers=DE)
    assert r.json()["detail"] == ("Spieler können sich nicht mehr anmelden, sobald die erste "
                                  "Runde ausgelost ist: als Nachmeldung eintragen")


def test_every_problem_of_a_refused_swap_is_in_german(referee: TestClient, hub: Hub) -> None:  # noqa: F811
    six_players_paired(referee, hub)
    r = referee.post("/api/rounds/1/swap", json={"first": "Yan", "second": "Zed",
                                                  "reason": "asked", "seq": field_seq(referee)},
                     headers=DE)
    assert r.status_code == 422
    assert r.json()["detail"] == ("Yan ist in dieser Runde nicht gepaart; Zed ist in dieser "
                                  "Runde nicht gepaart")


def test_a_result_that_changed_and_one_that_is_missing_in_german(
        referee: TestClient, hub: Hub) -> None:  # noqa: F811
    six_players_paired(referee, hub)
    game = next(g for g in hub.tournament.store.games() if (g.round, g.table) == (1, 1))
    entered = {"winner": None, "first_rounds": 1, "second_rounds": 1, "first_points": 3,
               "second_points": 3, "reason": "by hand", "version": ""}
    r = referee.post("/api/rounds/1/tables/1/result", json=entered, headers=DE)
    assert r.status_code == 409
    r1 = game.result
    assert r.json()["detail"] == (
        f"das Ergebnis von Tisch 1 in Runde 1 hat sich geändert, seit du es angesehen hast "
        f"(sein Ergebnis ist jetzt: {r1.winner} hat gewonnen, Runden "
        f"{r1.black_rounds}–{r1.white_rounds}, Punkte {r1.black_points} zu {r1.white_points}); "
        "bitte noch einmal ansehen")
    r = referee.post("/api/rounds/1/tables/9/result/remove?lang=de",
                     json={"version": "", "reason": "wrong"})
    assert r.status_code == 404
    assert r.json()["detail"] == "kein Tisch 9 in Turnierrunde 1"


def test_the_field_log_speaks_german(referee: TestClient, hub: Hub) -> None:  # noqa: F811
    six_players_paired(referee, hub)
    seen = field_seq(referee)
    r = referee.post("/api/players/Fay/drop", json={"reason": "ill", "seq": seen}, headers=DE)
    assert r.json()["done"] == "Fay ist nach Runde 1 ausgeschieden"
    row = referee.get("/api/field-changes").json()[-1]
    assert row["words"] == "Fay dropped out after round 1"
    assert row["said"] == {"id": "{player} dropped out after round {round}",
                           "args": {"player": "Fay", "round": 1}}
    r = referee.post("/api/players/Eve/drop", json={"reason": "ill", "seq": seen}, headers=DE)
    assert r.status_code == 409
    assert "(Fay ist nach Runde 1 ausgeschieden)" in r.json()["detail"]


def test_an_error_keeps_english_and_words_any_language() -> None:
    err = TournamentError([Sentence("{player} has dropped out already", player="Ann"),
                           "as the engine said it"])
    assert str(err) == "Ann has dropped out already; as the engine said it"
    assert err.worded(language("de")) == "Ann ist schon ausgeschieden; as the engine said it"
    for kept in (Sentence("Last {n}", n=16), Sentence(("{n} game", "{n} games"), n=2),
                 Sentence("{words} ({reason})", words=Sentence("Final"), reason="asked")):
        again = Sentence.from_json(kept.to_json())
        assert again == kept and again.to_json() == kept.to_json()
    with pytest.raises(TournamentError, match="round 3 still"):
        raise TournamentError("round {round} still has games without a result", round=3)


def test_why_a_claim_waits_is_kept_to_be_worded_in_german(tmp_path: Path) -> None:
    store = HubStore(tmp_path / "hub.db")
    try:
        why = Sentence("the game of {first} and {second} is paired to board {paired}, not to "
                       "board {board}", first="Ann", second="Ben", paired="b1", board="b2")
        store.save_claim(Claim("b2", 1, 9, GameResult("Ann", "Ben", "Ann", 1, 0, 5, 2), 1.0,
                               1, 1, why))
        kept = store.claims()[0].why
        assert kept == "the game of Ann and Ben is paired to board b1, not to board b2"
        assert isinstance(kept, Sentence)
        assert kept.worded(language("de")) == ("das Spiel von Ann und Ben ist Brett b1 "
                                               "zugeteilt, nicht Brett b2")
    finally:
        store.close()


def test_the_file_of_an_older_hub_reads_as_written(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE field_changes (seq INTEGER PRIMARY KEY, at REAL NOT NULL, kind "
               "TEXT NOT NULL, player TEXT, round INTEGER, words TEXT NOT NULL, reason TEXT "
               "NOT NULL)")
    db.execute("INSERT INTO field_changes (at, kind, player, round, words, reason) VALUES "
               "(1.0, 'dropped', 'Ann', 1, 'Ann dropped out after round 1', 'ill')")
    db.execute("CREATE TABLE claims (board TEXT NOT NULL, match_id INTEGER NOT NULL, seq "
               "INTEGER NOT NULL, black TEXT NOT NULL, white TEXT NOT NULL, winner TEXT, "
               "black_rounds INTEGER NOT NULL, white_rounds INTEGER NOT NULL, black_points "
               "INTEGER NOT NULL, white_points INTEGER NOT NULL, finished_at REAL NOT NULL, "
               "round INTEGER, tbl INTEGER, why TEXT NOT NULL, PRIMARY KEY (board, match_id))")
    db.execute("INSERT INTO claims VALUES ('b1', 1, 9, 'Ann', 'Ben', 'Ann', 1, 0, 5, 2, 1.0, "
               "1, 1, 'the referee decides')")
    db.commit()
    db.close()
    store = HubStore(path)
    try:
        assert store.claims()[0].why == "the referee decides"
        old = store.field_changes()[0]
        assert old.said_as is None and old.said() == "Ann dropped out after round 1"
        store.log_field_change("dropped", Sentence("{player} dropped out after round {round}",
                                                   player="Ben", round=1), at=2.0)
        new = store.field_changes()[1]
        assert new.said().worded(language("de")) == "Ben ist nach Runde 1 ausgeschieden"
    finally:
        store.close()
