"""Standings: games won first, then round difference, then points difference."""

from __future__ import annotations

from web.tournament.hub.model import GameResult
from web.tournament.hub.standings import standings


def game(black: str, white: str, winner: str, rounds: tuple[int, int], points: tuple[int, int]):
    return GameResult(black, white, winner, rounds[0], rounds[1], points[0], points[1])


def test_a_win_counts_for_the_winner_and_a_loss_for_the_other() -> None:
    table = standings(["Ann", "Bob"], [game("Ann", "Bob", "Bob", (1, 3), (12, 18))])
    bob, ann = table
    assert (bob.player, bob.played, bob.won, bob.lost) == ("Bob", 1, 1, 0)
    assert (ann.player, ann.played, ann.won, ann.lost) == ("Ann", 1, 0, 1)
    assert (bob.rounds_won, bob.rounds_lost, bob.round_difference) == (3, 1, 2)
    assert (ann.points_for, ann.points_against, ann.points_difference) == (12, 18, -6)


def test_round_difference_breaks_a_tie_in_games_won() -> None:
    results = [
        game("A", "C", "A", (3, 2), (20, 19)),
        game("B", "D", "B", (3, 0), (15, 4)),
    ]
    assert [s.player for s in standings(["A", "B", "C", "D"], results)] == ["B", "A", "C", "D"]


def test_points_difference_breaks_a_tie_in_round_difference() -> None:
    results = [
        game("A", "C", "A", (3, 1), (17, 16)),
        game("B", "D", "B", (3, 1), (17, 9)),
    ]
    assert [s.player for s in standings(["A", "B", "C", "D"], results)][:2] == ["B", "A"]


def test_a_bye_is_a_game_won_without_rounds_or_points() -> None:
    (ann,) = standings(["Ann"], [], byes=["Ann"])
    assert (ann.played, ann.won, ann.byes, ann.rounds_won, ann.points_for) == (1, 1, 1, 0, 0)


def test_equal_players_are_listed_by_name() -> None:
    assert [s.player for s in standings(["Zoe", "Al", "Mo"], [])] == ["Al", "Mo", "Zoe"]


def test_sums_over_several_games() -> None:
    results = [
        game("A", "B", "A", (3, 1), (18, 10)),
        game("C", "A", "C", (3, 2), (21, 20)),
        game("B", "C", "B", (3, 0), (15, 3)),
    ]
    table = {s.player: s for s in standings(["A", "B", "C"], results)}
    a = table["A"]
    assert (a.played, a.won, a.lost) == (2, 1, 1)
    assert (a.rounds_won, a.rounds_lost) == (5, 4)
    assert (a.points_for, a.points_against) == (38, 31)
    assert table["A"].to_json()["points_difference"] == 7
