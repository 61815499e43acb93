"""Results put right at the hub (issue 27, item 2): a game typed under another name is
attached to its pairing, a result is corrected, and every change carries the version of the
table's result its referee saw; standings follow at once and the log keeps each reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hub_app_support import hub_app_client, tournament_of
from hub_support import game_steps, real_events

from hub.tournament import Tournament


@pytest.fixture
def t(tmp_path: Path) -> Iterator[Tournament]:
    with tournament_of(tmp_path, ("Ann", "Ben", "Cid", "Dee")) as tournament:
        tournament.pair_next_round(["b1", "b2"])
        yield tournament


@pytest.fixture
def hub_referee(t: Tournament, tmp_path: Path) -> Iterator[TestClient]:
    with hub_app_client(t, tmp_path, log_in=True) as client:
        yield client


def table_of(t: Tournament, name: str) -> tuple[int, str, str]:
    p = next(p for p in t.store.pairings(1) if name in p.players())
    return p.table, p.black, p.white or ""


def version(client: TestClient, table: int) -> str:
    rows = client.get("/api/hub").json()["rounds"][0]["pairings"]
    return str(next(r for r in rows if r["table"] == table)["version"])


def won(t: Tournament, name: str) -> int:
    return next(s.won for s in t.standings() if s.player == name)


def test_a_game_typed_as_benn_is_attached_to_bens_pairing_with_a_reason(
    t: Tournament, hub_referee: TestClient
) -> None:
    table, black, white = table_of(t, "Ben")
    typed = (black, "Benn") if white == "Ben" else ("Benn", white)
    for ev in real_events(f"b{table}", 1, typed, game_steps(black_wins=typed[0] == "Benn")):
        t.receive(ev)
    (claim,) = t.store.claims()
    assert claim.round is None  # no open pairing has "Benn"
    assert won(t, "Ben") == 0
    path = f"/api/claims/b{table}/1/accept"
    no_reason = hub_referee.post(path, json={"seq": claim.seq, "round": 1, "table": table})
    assert no_reason.status_code == 422
    assert "say why it is the game of" in no_reason.json()["detail"]
    answer = hub_referee.post(path, json={"seq": claim.seq, "round": 1, "table": table,
                                      "reason": "Ben's name was mistyped on the board"})
    assert answer.status_code == 200, answer.text
    (game,) = t.store.games()
    assert {game.result.black, game.result.white} == {"Ben", black if white == "Ben" else white}
    assert game.result.winner == "Ben"
    assert won(t, "Ben") == 1  # the standings follow at once
    decision = t.store.decisions()[-1]
    assert (decision["action"], decision["reason"]) == (
        "accepted", "Ben's name was mistyped on the board")


def test_a_game_under_two_unknown_names_needs_the_referee_to_say_who_played_first(
    t: Tournament, hub_referee: TestClient
) -> None:
    table, black, white = table_of(t, "Ann")
    for ev in real_events(f"b{table}", 1, ("Player 1", "Player 2"), game_steps(True)):
        t.receive(ev)
    (claim,) = t.store.claims()
    body = {"seq": claim.seq, "round": 1, "table": table, "reason": "names never typed"}
    unsure = hub_referee.post(f"/api/claims/b{table}/1/accept", json=body)
    assert unsure.status_code == 422 and "played first" in unsure.json()["detail"]
    answer = hub_referee.post(f"/api/claims/b{table}/1/accept",
                          json={**body, "first_player": white})
    assert answer.status_code == 200, answer.text
    (game,) = t.store.games()
    assert (game.result.black, game.result.winner) == (white, white)


def test_a_result_is_corrected_against_the_version_seen_and_the_log_keeps_both(
    t: Tournament, hub_referee: TestClient
) -> None:
    table, black, white = table_of(t, "Ann")
    entered = {"winner": black, "first_rounds": 2, "second_rounds": 1, "first_points": 12,
               "second_points": 9, "reason": "played on paper"}
    assert hub_referee.post(f"/api/rounds/1/tables/{table}/result", json=entered).status_code == 200
    seen = version(hub_referee, table)
    assert won(t, black) == 1
    fixed = {**entered, "winner": white, "first_rounds": 1, "second_rounds": 2,
             "reason": "the score sheet was read the wrong way round", "version": seen}
    answer = hub_referee.post(f"/api/rounds/1/tables/{table}/result/correct", json=fixed)
    assert answer.status_code == 200, answer.text
    assert (won(t, black), won(t, white)) == (0, 1)  # standings follow at once
    (game,) = t.store.games()
    assert (game.result.winner, game.result.black_rounds) == (white, 1)
    decision = t.store.decisions()[-1]
    assert decision["action"] == "corrected"
    assert decision["result"]["before"]["winner"] == black
    # a second referee who saw the first result is refused, told what it is now
    late = hub_referee.post(f"/api/rounds/1/tables/{table}/result/correct",
                        json={**fixed, "winner": black, "reason": "no, the other way"})
    assert late.status_code == 409
    assert f"{white} won, rounds 1–2" in late.json()["detail"]
    assert (won(t, black), won(t, white)) == (0, 1)  # nothing changed


def test_two_referees_entering_the_same_result_one_is_refused(
    t: Tournament, hub_referee: TestClient
) -> None:
    table, black, _ = table_of(t, "Ann")
    seen = version(hub_referee, table)
    body = {"winner": black, "first_rounds": 2, "second_rounds": 0, "first_points": 8,
            "second_points": -1, "reason": "board broke", "version": seen}
    assert hub_referee.post(f"/api/rounds/1/tables/{table}/result", json=body).status_code == 200
    second = hub_referee.post(f"/api/rounds/1/tables/{table}/result", json=body)
    assert second.status_code == 409
    assert "points 8 to −1" in second.json()["detail"]
    assert len(t.store.games()) == 1


def test_a_result_removed_by_one_referee_cannot_be_corrected_by_another(
    t: Tournament, hub_referee: TestClient
) -> None:
    table, black, _ = table_of(t, "Ann")
    body = {"winner": black, "first_rounds": 2, "second_rounds": 0, "first_points": 8,
            "second_points": 1, "reason": "board broke"}
    hub_referee.post(f"/api/rounds/1/tables/{table}/result", json=body)
    seen = version(hub_referee, table)
    assert hub_referee.post(f"/api/rounds/1/tables/{table}/result/remove",
                        json={"version": seen, "reason": "wrong table"}).status_code == 200
    late = hub_referee.post(f"/api/rounds/1/tables/{table}/result/correct",
                        json={**body, "version": seen})
    assert late.status_code == 409 and "it has no result now" in late.json()["detail"]
