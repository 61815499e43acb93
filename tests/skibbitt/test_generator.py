"""Every generated puzzle is valid, checked by a brute-force solver of the tests' own that
lists every chain: exactly one chain reaches the maximum; on it no round is a Ribbitt, each
round scores more than the one before and round 3 is a Skibbitt. Seeds are deterministic."""

from __future__ import annotations

import datetime

import pytest
from brute import all_chains, rating, score
from hypothesis import given, settings
from hypothesis import strategies as st
from lanes import examples

from skibbitt.generator import daily, generate
from skibbitt.puzzle import Difficulty, puzzle_of
from skibbitt.solver import solve
from skibbitt.tiles import parse_tiles

pytestmark = pytest.mark.unit


def codes(generated):  # type: ignore[no-untyped-def]
    return [[t.notation for t in r] for r in generated.puzzle.rounds]


def assert_valid(rounds: list[list[str]], difficulty: Difficulty) -> tuple:
    k = {Difficulty.EASY: 1, Difficulty.STANDARD: 2, Difficulty.EXPERT: 3}[difficulty]
    assert [len(r) for r in rounds] == [3 + k, k, k]
    every = [c for r in rounds for c in r]
    assert len(set(every)) == len(every), "a tile is dealt twice"
    chains = all_chains(rounds)
    top = max(total for total, _ in chains)
    best = [chain for total, chain in chains if total == top]
    assert len(best) == 1, f"{len(best)} chains reach {top}"
    (chain,) = best
    scores = [score(t) for t in chain]
    assert all(rating(t) > 0 for t in chain), "a Ribbitt on the best chain"
    assert scores[0] < scores[1] < scores[2]
    assert rating(chain[2]) == 3, "round 3 is not a Skibbitt"
    return top, chain


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(list(Difficulty)), st.integers(min_value=0, max_value=2**48))
def test_every_generated_puzzle_is_valid_and_its_best_chain_is_the_brute_forces(
        difficulty: Difficulty, seed: int) -> None:
    g = generate(difficulty, seed)
    top, chain = assert_valid(codes(g), difficulty)
    assert g.solution.max_score == top
    assert [frozenset(t.notation for t in x.tiles) for x in g.solution.chain] == list(chain)
    assert g.solution.scores == tuple(score(t) for t in chain)


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_many_consecutive_seeds_give_valid_puzzles(difficulty: Difficulty) -> None:
    for seed in range(20):
        assert_valid(codes(generate(difficulty, seed)), difficulty)


def test_the_same_seed_gives_the_same_puzzle_and_another_seed_another() -> None:
    for difficulty in Difficulty:
        assert codes(generate(difficulty, 7)) == codes(generate(difficulty, 7))
        assert codes(generate(difficulty, 7)) != codes(generate(difficulty, 8))


def test_the_daily_puzzle_is_one_per_date_and_difficulty() -> None:
    day = datetime.date(2026, 12, 3)
    assert codes(daily(day, Difficulty.EXPERT)) == codes(daily(day, Difficulty.EXPERT))
    assert codes(daily(day, Difficulty.EXPERT)) != codes(daily(day + datetime.timedelta(1),
                                                                 Difficulty.EXPERT))
    assert codes(daily(day, Difficulty.EASY)) != codes(daily(day, Difficulty.STANDARD))
    assert_valid(codes(daily(day, Difficulty.STANDARD)), Difficulty.STANDARD)


def test_the_solver_counts_ties_so_a_puzzle_with_two_best_chains_is_not_unique() -> None:
    # Two round-1 choices carry the same two tiles into the same best finish.
    rounds = [["O6F", "O2E", "P3E", "Y5D"], ["O1E"], ["P3D"]]
    puzzle = puzzle_of(tuple(parse_tiles(r) for r in rounds))
    solution = solve(puzzle)
    chains = all_chains(rounds)
    top = max(total for total, _ in chains)
    assert solution.max_score == top
    assert solution.best_chains == sum(total == top for total, _ in chains) > 1
    assert not solution.unique and not solution.valid
