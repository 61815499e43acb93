"""The rules of a changing field: swaps and drops, as plain functions."""

from __future__ import annotations

import pytest

from hub.field import drop_problems, swap_problems, swapped
from hub.model import Pairing

ROUND = [Pairing(2, 1, "Ann", "Ben"), Pairing(2, 2, "Cat", "Dan"), Pairing(2, 3, "Eve", None)]


def test_a_swap_puts_two_players_in_each_others_seats() -> None:
    after = swapped(ROUND, "Ben", "Dan")
    assert [(p.black, p.white) for p in after] == [("Ann", "Dan"), ("Cat", "Ben"), ("Eve", None)]


def test_a_swap_is_allowed_when_nobody_meets_again_and_nobody_gets_a_second_bye() -> None:
    assert swap_problems(ROUND, "Ben", "Dan", met={}, had_bye={}, dropped=()) == []


def test_a_swap_making_a_rematch_is_refused_unless_the_rematch_is_accepted() -> None:
    met = {frozenset({"Ann", "Dan"}): 1}
    (problem,) = swap_problems(ROUND, "Ben", "Dan", met=met, had_bye={}, dropped=())
    assert problem == ("Ann and Dan met in round 1 already: accept the rematch explicitly "
                       "to pair them again")
    assert swap_problems(ROUND, "Ben", "Dan", met=met, had_bye={}, dropped=(),
                         accept_rematch=True) == []


def test_a_swap_giving_a_second_bye_is_refused_even_when_rematches_are_accepted() -> None:
    (problem,) = swap_problems(ROUND, "Eve", "Ann", met={}, had_bye={"Ann": 1}, dropped=(),
                               accept_rematch=True)
    assert problem == "Ann had a bye in round 1 already: a player gets at most one bye"


def test_a_dropped_player_cannot_be_swapped_in() -> None:
    (problem,) = swap_problems(ROUND, "Ben", "Zed", met={}, had_bye={}, dropped=("Zed",))
    assert problem == "Zed has dropped out and cannot be paired again"


def test_a_player_not_in_the_round_cannot_be_swapped_in() -> None:
    assert swap_problems(ROUND, "Ben", "Zed", met={}, had_bye={}, dropped=()) == [
        "Zed is not paired in this round"]


def test_two_opponents_swapping_is_refused_as_changing_nothing() -> None:
    (problem,) = swap_problems(ROUND, "Ann", "Ben", met={}, had_bye={}, dropped=())
    assert "changes nothing" in problem


def test_a_player_drops_only_between_rounds() -> None:
    open_seat = ROUND[0]
    (problem,) = drop_problems("Ann", ["Ann", "Ben"], [], open_seat)
    assert problem.startswith("Ann's game at table 1 of round 2 has no result yet")
    assert drop_problems("Ann", ["Ann", "Ben"], [], None) == []


def test_a_player_drops_once() -> None:
    assert drop_problems("Ann", ["Ann"], ["Ann"], None) == ["Ann has dropped out already"]
    assert drop_problems("Zed", ["Ann"], [], None) == ["no player 'Zed' is registered"]


pytestmark = pytest.mark.unit
"""Pure functions: part of the fast lane."""
