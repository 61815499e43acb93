"""Which results count at the hub, and the hub referee's say over the rest: accept or reject
a claim, enter a result, remove a wrong one; every decision kept with its reason."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hub_app_support import hub_app_client, tournament_of
from hub_support import game_steps, real_events, state

from hub.tournament import Tournament


@pytest.fixture
def t(tmp_path: Path) -> Iterator[Tournament]:
    with tournament_of(tmp_path, ("Ann", "Bob", "Cid", "Dee")) as tournament:
        tournament.pair_next_round(["b1", "b2"])
        yield tournament


@pytest.fixture
def hub_referee(t: Tournament, tmp_path: Path) -> Iterator[TestClient]:
    with hub_app_client(t, tmp_path, log_in=True) as client:
        yield client


def first_game(t: Tournament) -> tuple[str, str]:
    p = t.store.pairings(1)[0]
    return p.black, p.white or ""


def play(t: Tournament, board: str, names: tuple[str, str], match: int = 1,
         black_wins: bool = True) -> None:
    for ev in real_events(board, match, names, game_steps(black_wins)):
        t.receive(ev)


def test_the_paired_boards_replayed_game_counts_by_itself(t: Tournament) -> None:
    play(t, "b1", first_game(t))
    (game,) = t.store.games()
    assert (game.board, game.round, game.table, game.result.black_points) == ("b1", 1, 1, 5)
    assert t.store.claims() == []


def test_a_board_whose_steps_do_not_replay_to_its_result_waits_for_the_referee(
    t: Tournament,
) -> None:
    events = real_events("b1", 1, first_game(t), game_steps(black_wins=True))
    # the board says the second player won, 0-5: its own steps say otherwise
    lie = replace(events[-1], state=state("game_over", (0, 5), (0, 1), ["white"], "white"))
    for ev in [*events[:-1], lie]:
        t.receive(ev)
    assert t.store.games() == []
    (claim,) = t.store.claims()
    assert "does not end as the board says" in claim.why
    assert "winner" in claim.why


def test_a_board_that_sends_no_rules_cannot_have_its_result_believed(t: Tournament) -> None:
    for ev in real_events("b1", 1, first_game(t), game_steps(black_wins=True)):
        t.receive(replace(ev, rules=None, setup=None))
    (claim,) = t.store.claims()
    assert "did not send the match's rules" in claim.why
    assert t.store.games() == []


def test_a_game_on_another_board_than_its_pairings_waits(t: Tournament) -> None:
    play(t, "b2", first_game(t))
    (claim,) = t.store.claims()
    assert claim.why.endswith("is paired to board b1, not to board b2")
    assert t.store.pairings(1)[0].board == "b1"


def test_the_referee_accepts_a_claim_and_the_decision_is_logged(
    t: Tournament, hub_referee: TestClient
) -> None:
    play(t, "b2", first_game(t))
    (claim,) = t.store.claims()
    stale = hub_referee.post("/api/claims/b2/1/accept", json={"seq": claim.seq - 1})
    assert stale.status_code == 409 and "changed since" in stale.json()["detail"]
    answer = hub_referee.post("/api/claims/b2/1/accept",
                          json={"seq": claim.seq, "reason": "board b1 was broken"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["game"]["round"] == 1
    (game,) = t.store.games()
    assert (game.board, game.round, game.table) == ("b2", 1, 1)
    assert t.store.claims() == []
    (decision,) = hub_referee.get("/api/decisions").json()
    assert (decision["action"], decision["reason"], decision["board"]) == (
        "accepted", "board b1 was broken", "b2")
    assert hub_referee.get("/api/hub").json()["decisions"][0]["action"] == "accepted"


def test_the_referee_rejects_a_claim_with_a_reason(t: Tournament, hub_referee: TestClient) -> None:
    play(t, "b2", first_game(t))
    (claim,) = t.store.claims()
    no_reason = hub_referee.post("/api/claims/b2/1/reject", json={"seq": claim.seq, "reason": " "})
    assert no_reason.status_code == 422 and no_reason.json()["field"] == "reason"
    answer = hub_referee.post("/api/claims/b2/1/reject",
                          json={"seq": claim.seq, "reason": "not played here"})
    assert answer.status_code == 200
    assert t.store.claims() == [] and t.store.games() == []
    assert t.store.decisions()[-1]["action"] == "rejected"
    assert hub_referee.post("/api/claims/b2/1/reject",
                        json={"seq": claim.seq, "reason": "again"}).status_code == 404


def test_the_referee_enters_a_result_then_removes_it(
    t: Tournament, hub_referee: TestClient,
) -> None:
    body = {"winner": "Dee", "first_rounds": 1, "second_rounds": 3, "first_points": 12,
            "second_points": 20, "reason": "the board broke down"}
    bad = hub_referee.post("/api/rounds/1/tables/1/result", json={**body, "winner": "Zed"})
    assert bad.status_code == 422 and "winner must be" in bad.json()["detail"]
    answer = hub_referee.post("/api/rounds/1/tables/1/result", json=body)
    assert answer.status_code == 200, answer.text
    (game,) = t.store.games()
    assert (game.result.winner, game.round, game.table) == ("Dee", 1, 1)
    assert t.store.pairings(1)[0].board == "b1"  # an entered result moves no pairing
    assert [s.won for s in t.standings() if s.player == "Dee"] == [1]
    again = hub_referee.post("/api/rounds/1/tables/1/result", json=body)
    assert again.status_code == 409
    assert "changed since you looked" in again.json()["detail"]
    assert "Dee won, rounds 1–3, points 12 to 20" in again.json()["detail"]
    wrong = hub_referee.post("/api/rounds/1/tables/1/result/remove",
                         json={"version": "", "reason": "typo"})
    assert wrong.status_code == 409  # not the result the referee saw
    version = hub_referee.get("/api/hub").json()["rounds"][0]["pairings"][0]["version"]
    removed = hub_referee.post("/api/rounds/1/tables/1/result/remove",
                           json={"version": version, "reason": "typo in the points"})
    assert removed.status_code == 200, removed.text
    assert t.store.games() == [] and t.round_open(1)
    assert [d["action"] for d in t.store.decisions()] == ["entered", "removed"]
    assert t.store.decisions()[-1]["reason"] == "typo in the points"
    assert t.store.decisions()[-1]["result"]["winner"] == "Dee"


def test_a_wrong_result_from_a_board_is_removed_and_the_game_waits_again(
    t: Tournament, hub_referee: TestClient
) -> None:
    play(t, "b1", first_game(t))
    answer = hub_referee.post("/api/rounds/1/tables/1/result/remove",
                          json={"version": "b1/1/4/0", "reason": "played with the "
                                "wrong rules"})
    assert answer.status_code == 200
    assert t.store.games() == [] and t.round_open(1)


def test_deciding_needs_the_referee(t: Tournament, hub_referee: TestClient) -> None:
    hub_referee.post("/api/referee/logout")
    assert hub_referee.post("/api/claims/b2/1/reject",
                        json={"seq": 1, "reason": "x"}).status_code == 401
    assert hub_referee.post("/api/rounds/1/tables/1/result/remove",
                        json={"version": "", "reason": "x"}).status_code == 401
