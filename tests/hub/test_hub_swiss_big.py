"""Swiss pairing of a big field (the matching graph spans close scores only, widened when
needed): every player paired once, nobody meets twice, the bye rule holds."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from hub import pairings
from hub.pairings import swiss


@pytest.mark.parametrize("count", [256, 255])
def test_a_big_swiss_field_pairs_everyone_without_rematch_and_keeps_the_bye_rule(
    count: int,
) -> None:
    rng = random.Random(count)
    players = [f"P{i:03d}" for i in range(count)]
    seed = {p: i for i, p in enumerate(players)}
    won: Counter[str] = Counter()
    played: set[frozenset[str]] = set()
    had_bye: set[str] = set()
    for _ in range(7):
        ranked = sorted(players, key=lambda p: (-won[p], seed[p]))
        pairs = swiss(ranked, dict(won), played, had_bye)
        seated = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seated) == sorted(players), "everyone plays or sits out exactly once"
        byes = [b for b, w in pairs if w is None]
        assert len(byes) == count % 2
        for bye in byes:
            assert bye not in had_bye, "nobody sits out twice"
            lowest = min(won[p] for p in players if p not in had_bye)
            assert won[bye] <= lowest + 1, "the bye goes to the bottom of the field"
            had_bye.add(bye)
            won[bye] += 1
        for black, white in pairs:
            if white is None:
                continue
            assert frozenset((black, white)) not in played, f"{black} and {white} met before"
            played.add(frozenset((black, white)))
            won[black if rng.random() < 0.6 else white] += 1


def test_when_close_scores_cannot_pair_everyone_the_graph_widens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Four players, a first graph of neighbours only: the two leaders already met, and so did
    # the last two, so each leader must meet a player two wins behind.
    monkeypatch.setattr(pairings, "FIRST_WINDOW", 1)
    ranked = ["A", "B", "C", "D"]
    pairs = swiss(ranked, {"A": 2, "B": 2, "C": 0, "D": 0},
                  played={frozenset("AB"), frozenset("CD")})
    assert {frozenset(p) for p in pairs} & {frozenset("AB"), frozenset("CD")} == set()
    assert len(pairs) == 2
