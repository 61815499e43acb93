"""Players' statistics and ratings: two matches played through the API, every figure checked
against values counted by hand from the rules' effects (R3-R7, R13, R15, R19)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from stats_matches import MATCH_1, MATCH_2, new_match, play

from scorekeeper.ratings import Result, rate


@pytest.fixture
def played(referee: TestClient) -> TestClient:
    """Ann and Bo's two finished matches, and an unfinished one that does not count."""
    new_match(referee, "Ann", "Bo")
    play(referee, MATCH_1)
    new_match(referee, "bo", "ANN ")
    play(referee, MATCH_2)
    new_match(referee, "Cy", "Ann")
    play(referee, MATCH_1[:2])
    return referee


def by_name(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {row["name"].casefold(): row for row in rows}


def test_each_statistic_matches_the_hand_count(played: TestClient) -> None:
    body = played.get("/api/stats").json()
    assert body["matches"] == 2  # the unfinished match and the default one do not count
    rows = by_name(body["players"])
    assert set(rows) == {"ann", "bo"}  # one person whatever the case or spaces typed
    ann, bo = rows["ann"], rows["bo"]
    # Ann: 5 shots + 7 shots; points 3 (red back, blue, chain) + 1; red: 1 back in match 1
    # (the chain point on red ended the game: advance); penalty in match 2.
    assert ann | {"rating": None} == {
        "name": "ANN", "matches": 2, "matches_won": 1, "rounds_won": 2, "rounds_played": 4,
        "shots": 12, "points": 4, "points_per_shot": 0.33, "red_advance": 1, "red_back": 1,
        "penalties": 1, "own_goals": 0, "clearings": 0, "chains": 1, "shots_per_round": 3.0,
        "rating": None,
    }
    # Bo: 4 shots + 8 shots; points 0 + 5 (the decided red point still counts, as back);
    # penalty and own goal in match 1, clearing in match 2.
    assert bo | {"rating": None} == {
        "name": "bo", "matches": 2, "matches_won": 1, "rounds_won": 2, "rounds_played": 4,
        "shots": 12, "points": 5, "points_per_shot": 0.42, "red_advance": 0, "red_back": 1,
        "penalties": 1, "own_goals": 1, "clearings": 1, "chains": 0, "shots_per_round": 3.0,
        "rating": None,
    }


def test_one_player_and_head_to_head(played: TestClient) -> None:
    one = played.get("/api/stats/player", params={"name": "  aNN"}).json()
    assert (one["matches"], one["points"], one["name"]) == (2, 4, "ANN")
    assert one["rating"]["matches"] == 2
    missing = played.get("/api/stats/player", params={"name": "Dee"})
    assert missing.status_code == 404 and "Dee" in missing.json()["detail"]
    h2h = played.get("/api/stats/head-to-head", params={"a": "ann", "b": "BO"}).json()
    assert h2h == {"names": ["ANN", "bo"], "matches": 2, "wins": [1, 1], "rounds": [2, 2]}
    # Known names, newest spelling (the unfinished match typed "Ann"), for the new-match form.
    assert played.get("/api/players").json() == ["Ann", "bo", "Cy"]


def test_ratings_come_from_openskill_in_match_order(played: TestClient) -> None:
    body = played.get("/api/stats").json()
    expected, _ = rate([Result("Ann", "Bo", "Ann"), Result("bo", "ANN ", "bo")])
    rows = by_name(body["players"])
    for key in ("ann", "bo"):
        assert rows[key]["rating"] == round(expected[key].ordinal, 2)
    # After match 1 Ann leads; after match 2 (Bo beat her) Bo's rating is the higher.
    names = body["ratings"]["names"]
    first, second = body["ratings"]["after_match"]
    assert first[names.index("Ann" if "Ann" in names else "ANN")] > first[names.index("bo")]
    assert second[names.index("bo")] > second[names.index("ANN")]


def test_ratings_update_after_each_finished_match(referee: TestClient) -> None:
    new_match(referee, "Ann", "Bo")
    play(referee, MATCH_1[:-1])
    assert referee.get("/api/stats").json()["players"] == []  # not finished yet
    play(referee, MATCH_1[-1:])
    rows = by_name(referee.get("/api/stats").json()["players"])
    assert rows["ann"]["rating"] > rows["bo"]["rating"]


def test_a_match_between_colours_is_nobodys(referee: TestClient) -> None:
    new_match(referee, "Black", "White")
    play(referee, MATCH_1)
    assert referee.get("/api/stats").json()["players"] == []


def test_stats_page_is_served(client: TestClient) -> None:
    response = client.get("/stats")
    assert response.status_code == 200 and "/static/vendor/uplot/uPlot.iife.min.js" in \
        response.text


def test_cli_prints_and_exports_the_same(played: TestClient, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    from skitter_cli.main import main

    db = tmp_path / "skitter.db"
    assert main(["stats", "--db", str(db), "--player", "ann"]) == 0
    out = capsys.readouterr().out
    assert "ANN" in out and "Points per shot: 0.33" in out and "Penalties: 1" in out
    assert "Head to head" in out and "bo" in out
    export = tmp_path / "stats.csv"
    assert main(["stats", "--db", str(db), "--export", str(export)]) == 0
    with export.open(newline="") as f:
        rows = {r["name"].casefold(): r for r in csv.DictReader(f)}
    assert rows["bo"]["points"] == "5" and rows["bo"]["clearings"] == "1"
    assert main(["stats", "--db", str(db), "--player", "Nobody"]) == 1
    assert "no finished match" in capsys.readouterr().err



def test_a_damaged_match_is_left_out_and_named(played: TestClient, tmp_path: Path) -> None:
    from scorekeeper.store import MatchStore

    with MatchStore(tmp_path / "skitter.db") as store:
        bad = store.create_match({}, {"first": "black"}, {"black": "Dee", "white": "Eve"},
                                 at=5.0)
        store.append(bad, {"shot": {"by": "white", "delta": {}}}, at=6.0)  # not white's turn
    body = played.get("/api/stats").json()
    assert body["matches"] == 2 and {r["name"] for r in body["players"]} == {"ANN", "bo"}
    assert len(body["problems"]) == 1
    assert f"match {bad} is left out of the statistics" in body["problems"][0]
    assert "step 1" in body["problems"][0]


def test_an_undone_decision_gives_the_red_point_back_its_advance() -> None:
    """R4 and R19, counted without the API: a red point changed to back, then the change
    taken back, counts as one advance; the shot's point stays one point throughout."""
    from scorekeeper.stats import match_record

    steps: list[dict[str, Any]] = [
        {"shot": {"by": "black", "big": "placed"}},
        {"shot": {"by": "white", "big": "placed"}},
        {"correct": {"board": {"white.red": 2}, "reason": "set up"}},
        {"shot": {"by": "black", "delta": {"white.red": 1}}},
        {"decide": {"by": "black", "red": ["back"]}},
    ]
    rules = {"points_to_win_round": 2, "rounds_to_win_game": 2}
    names = {"black": "Ann", "white": "Bo"}
    decided = match_record(1, 0.0, rules, {"first": "black"}, names, steps).tally["black"]
    undone = match_record(1, 0.0, rules, {"first": "black"}, names,
                          [*steps, {"undo": True}]).tally["black"]
    assert (decided.points, decided.red_advance, decided.red_back) == (1, 0, 1)
    assert (undone.points, undone.red_advance, undone.red_back) == (1, 1, 0)
    assert undone.shots == decided.shots == 2
