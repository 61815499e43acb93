"""Standings: games won first, then Buchholz, head-to-head, round and points difference."""

from __future__ import annotations

import pytest

from hub.model import GameResult
from hub.standings import standings

pytestmark = pytest.mark.unit


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


# Tie-breaks organisers expect: games won, then Buchholz (the sum of the opponents' games
# won), then head-to-head, then round difference, then points difference.


def test_buchholz_is_the_sum_of_the_opponents_games_won() -> None:
    results = [
        game("A", "B", "A", (3, 0), (15, 0)),
        game("C", "D", "C", (3, 0), (15, 0)),
        game("A", "C", "A", (3, 0), (15, 0)),
        game("B", "D", "B", (3, 0), (15, 0)),
    ]
    table = {s.player: s for s in standings(["A", "B", "C", "D"], results)}
    # A met B (1 win) and C (1 win); D met C (1 win) and B (1 win)
    assert table["A"].buchholz == 2
    assert table["D"].buchholz == 2
    assert table["B"].buchholz == 2 + 0
    assert table["A"].to_json()["buchholz"] == 2


def test_buchholz_breaks_a_tie_in_games_won_before_round_difference() -> None:
    results = [
        game("A", "C", "A", (3, 2), (15, 14)),  # C goes on to win a game: A's opponent is better
        game("B", "D", "B", (3, 0), (15, 0)),   # D wins nothing: B's win came easier
        game("C", "E", "C", (3, 0), (15, 0)),
    ]
    order = [s.player for s in standings(["A", "B", "C", "D", "E"], results)]
    assert order.index("A") < order.index("B")


def test_head_to_head_breaks_a_tie_in_games_won_and_buchholz() -> None:
    results = [
        game("B", "A", "B", (3, 2), (15, 14)),  # B beat A
        game("A", "C", "A", (3, 0), (15, 0)),
        game("D", "B", "D", (3, 0), (15, 0)),
        game("D", "C", "D", (3, 0), (15, 0)),
        game("C", "E", "C", (3, 0), (15, 0)),
        game("C", "F", "C", (3, 0), (15, 0)),
    ]
    table = {s.player: s for s in standings(list("ABCDEF"), results)}
    assert (table["A"].won, table["B"].won) == (1, 1)
    assert table["A"].buchholz == table["B"].buchholz == 3
    assert table["A"].round_difference > table["B"].round_difference  # A better on rounds...
    order = [s.player for s in standings(list("ABCDEF"), results)]
    assert order.index("B") < order.index("A")  # ...but B beat A


def test_head_to_head_among_three_tied_players_counts_their_games_with_each_other() -> None:
    # A, B and C each won one game, all against each other: nobody is ahead among them, so
    # round difference decides.
    results = [
        game("A", "B", "A", (3, 0), (15, 0)),
        game("B", "C", "B", (3, 2), (15, 14)),
        game("C", "A", "C", (3, 2), (15, 14)),
    ]
    assert [s.player for s in standings(["A", "B", "C"], results)] == ["A", "C", "B"]


def test_a_dropped_players_results_still_count_for_their_opponents_buchholz() -> None:
    results = [game("A", "X", "A", (3, 0), (15, 0)), game("X", "B", "X", (3, 0), (15, 0))]
    table = {s.player: s for s in standings(["A", "B", "X"], results, dropped=["X"])}
    assert table["A"].buchholz == 1  # X's win over B counts for A
    assert table["X"].dropped and not table["A"].dropped
    assert table["X"].to_json()["dropped"] is True


def test_a_bye_adds_nothing_to_buchholz() -> None:
    table = {s.player: s for s in standings(["A", "B"], [], byes=["A"])}
    assert table["A"].buchholz == 0 and table["B"].buchholz == 0
