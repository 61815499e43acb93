"""Tournament pairings: round robin meets everyone once, Swiss never rematches, byes rotate."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lanes import examples

from hub.pairings import (
    PairingError,
    round_robin,
    round_robin_rounds,
    swiss,
    swiss_round_count,
    system_for,
)

pytestmark = pytest.mark.unit


def names(n: int) -> list[str]:
    return [f"P{i:02d}" for i in range(1, n + 1)]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_round_robin_meets_everyone_exactly_once(n: int) -> None:
    players = names(n)
    met: list[frozenset[str]] = []
    byes: list[str] = []
    for r in range(1, round_robin_rounds(players) + 1):
        pairs = round_robin(players, r)
        seated = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seated) == sorted(players), f"round {r}: everyone once"
        for black, white in pairs:
            if white is None:
                byes.append(black)
            else:
                met.append(frozenset((black, white)))
    assert sorted(met, key=sorted) == sorted(
        (frozenset(c) for c in itertools.combinations(players, 2)), key=sorted
    )
    # With an odd field each player sits out exactly once.
    assert sorted(byes) == (sorted(players) if n % 2 else [])


def test_round_robin_alternates_colours_fairly() -> None:
    players = names(6)
    blacks = dict.fromkeys(players, 0)
    for r in range(1, 6):
        for black, _ in round_robin(players, r):
            blacks[black] += 1
    assert all(1 <= b <= 4 for b in blacks.values()), blacks


def test_round_robin_refuses_a_round_beyond_the_last() -> None:
    with pytest.raises(PairingError, match="rounds 1 to 3"):
        round_robin(names(4), 4)


def test_small_fields_play_round_robin_larger_ones_swiss() -> None:
    assert system_for(8) == "round_robin"
    assert system_for(9) == "swiss"
    assert swiss_round_count(16) == 4


def test_duplicate_player_names_are_refused() -> None:
    with pytest.raises(PairingError, match="repeated: Ann"):
        swiss(["Ann", "Bob", "Ann"], {})


def test_swiss_first_round_pairs_neighbours_in_the_seeding() -> None:
    pairs = swiss(names(4), {})
    assert [frozenset(p) for p in pairs] == [
        frozenset(("P01", "P02")),
        frozenset(("P03", "P04")),
    ]


def test_swiss_pairs_players_with_equal_scores() -> None:
    ranked = ["A", "B", "C", "D"]
    scores = {"A": 1, "B": 1, "C": 0, "D": 0}
    played = {frozenset(("A", "C")), frozenset(("B", "D"))}
    pairs = {frozenset(p) for p in swiss(ranked, scores, played)}
    assert pairs == {frozenset(("A", "B")), frozenset(("C", "D"))}


def test_swiss_avoids_a_rematch_even_across_score_groups() -> None:
    ranked = ["A", "B", "C", "D"]
    scores = {"A": 2, "B": 2, "C": 0, "D": 0}
    played = {frozenset(("A", "B")), frozenset(("C", "D"))}
    pairs = {frozenset(p) for p in swiss(ranked, scores, played)}
    assert not pairs & played


def test_swiss_gives_the_bye_to_the_lowest_placed_player_without_one() -> None:
    ranked = ["A", "B", "C", "D", "E"]
    scores = {"A": 2, "B": 1, "C": 1, "D": 0, "E": 0}
    pairs = swiss(ranked, scores, had_bye={"E"})
    assert pairs[-1] == ("D", None)
    assert sum(1 for _, w in pairs if w is None) == 1


def test_swiss_gives_black_to_who_had_it_less() -> None:
    pairs = swiss(["A", "B"], {}, blacks={"A": 2, "B": 1})
    assert pairs == [("B", "A")]


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(min_value=9, max_value=17), st.randoms(use_true_random=False))
def test_swiss_tournament_has_no_rematch_and_at_most_one_bye_each(n: int, rnd) -> None:
    players = names(n)
    scores = dict.fromkeys(players, 0)
    played: set[frozenset[str]] = set()
    had_bye: list[str] = []
    for _ in range(swiss_round_count(n)):
        ranked = sorted(players, key=lambda p: (-scores[p], p))
        pairs = swiss(ranked, scores, played, set(had_bye))
        seated = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seated) == sorted(players)
        for black, white in pairs:
            if white is None:
                had_bye.append(black)
                scores[black] += 1
                continue
            pair = frozenset((black, white))
            assert pair not in played, f"rematch {sorted(pair)}"
            played.add(pair)
            scores[rnd.choice((black, white))] += 1
    assert len(had_bye) == len(set(had_bye))
