"""The knockout bracket's rules: seeded by standing, winners advance, a third-place game."""

from __future__ import annotations

import pytest

from hub.knockout import (
    KnockoutError,
    better_seed_first,
    first_round,
    knockout_rounds,
    next_round,
    seed_order,
    stage_name,
)


def test_the_best_seed_meets_the_last_and_the_two_best_meet_only_in_the_final() -> None:
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    order16 = seed_order(16)
    assert order16[:2] == [1, 16] and sorted(order16) == list(range(1, 17))
    assert order16.index(2) >= 8  # seed 2 is in the other half of the bracket


def test_the_first_round_pairs_players_by_seed_better_seed_first() -> None:
    assert first_round(["A", "B", "C", "D"]) == [("A", "D"), ("B", "C")]
    assert first_round(list("ABCDEFGH")) == [("A", "H"), ("D", "E"), ("B", "G"), ("C", "F")]


def test_winners_of_neighbouring_tables_meet_next() -> None:
    assert next_round(["A", "E", "B", "C"]) == [("A", "E"), ("B", "C")]


def test_the_final_can_come_with_a_third_place_game_of_the_semi_finals_losers() -> None:
    assert next_round(["A", "B"], ["D", "C"], third_place=True) == [("A", "B"), ("D", "C")]
    assert next_round(["A", "B"], ["D", "C"]) == [("A", "B")]


def test_only_brackets_of_a_power_of_two_exist() -> None:
    with pytest.raises(KnockoutError, match="2, 4, 8 or 16"):
        seed_order(6)


def test_rounds_are_named_as_players_say_them() -> None:
    assert stage_name(4) == "Quarter-finals"
    assert stage_name(2) == "Semi-finals"
    assert stage_name(1) == "Final"
    assert stage_name(2, third_place_game=True) == "Final"
    assert stage_name(8) == "Last 16"
    assert [knockout_rounds(n) for n in (4, 8, 16)] == [2, 3, 4]


def test_the_better_seed_plays_first_in_every_round() -> None:
    seeds = ["A", "B", "C", "D"]
    assert better_seed_first(("D", "B"), seeds) == ("B", "D")
    assert better_seed_first(("A", "C"), seeds) == ("A", "C")


pytestmark = pytest.mark.unit
"""Pure functions: part of the fast lane."""
