"""The knockout stage as the hub stores it: the bracket the referee started and its next stage.

The tournament pairs a knockout round from here (the winners of the last one, and the
losers for a third-place game); :mod:`hub.bracket` starts the stage and draws it. Both read
the store, so neither imports the other's owner.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from hub.knockout import KnockoutError, better_seed_first, next_round
from hub.model import StoredGame
from hub.pairings import PairingError
from hub.said import MARK, Sentence
from hub.store import HubStore

META = "knockout"


@dataclass(frozen=True)
class Knockout:
    """The bracket as the referee started it."""

    size: int
    third_place: bool
    first_round: int
    """The tournament round its first stage is."""
    seeds: tuple[str, ...]
    """The players, best seed first."""


def knockout_of(store: HubStore) -> Knockout | None:
    """The bracket the referee started, or None before the knockout stage."""
    raw = store.get_meta(META)
    if not raw:
        return None
    d = json.loads(raw)
    return Knockout(int(d["size"]), bool(d["third_place"]), int(d["first_round"]),
                    tuple(d["seeds"]))


def stage_results(store: HubStore, number: int) -> dict[int, StoredGame]:
    """Round ``number``'s games with a result, by table."""
    return {g.table: g for g in store.games() if g.round == number and g.table is not None}


def main_games(k: Knockout, number: int) -> int:
    """Games of round ``number`` that are part of the bracket (not the third-place game)."""
    return k.size >> (number - k.first_round + 1)


def next_stage_blocked(store: HubStore) -> Sentence | None:
    """Why the next knockout stage cannot be paired (its last round's games all have a
    result: the caller checked)."""
    k = knockout_of(store)
    if k is None:
        return Sentence(MARK.gettext("all rounds have been played"))
    number = store.round_numbers()[-1][0]
    results = stage_results(store, number)
    for table, g in sorted(results.items()):
        if g.result.winner is None:
            return Sentence(MARK.gettext(
                "the game at table {table} of round {round} ended without a winner: a "
                "knockout game must have one (remove the result; the players play again)"),
                table=table, round=number)
    if main_games(k, number) <= 1:
        champion = results[1].result.winner if 1 in results else None
        return Sentence(MARK.gettext("the knockout is over: {champion} won the tournament"),
                        champion=champion)
    return None


def next_stage_pairs(store: HubStore) -> list[tuple[str, str | None]]:
    """The next stage's games from the winners (and for a third-place game, the losers)."""
    k = knockout_of(store)
    blocked = next_stage_blocked(store)
    if k is None or blocked:
        raise PairingError(blocked or MARK.gettext("no knockout stage"))
    number = store.round_numbers()[-1][0]
    results = stage_results(store, number)
    main = main_games(k, number)
    winners, losers = [], []
    for table in range(1, main + 1):
        r = results[table].result
        winners.append(r.winner or "")
        losers.append(r.white if r.winner == r.black else r.black)
    try:
        games = next_round(winners, losers, third_place=k.third_place and main == 2)
    except KnockoutError as exc:
        raise PairingError(exc) from None
    return [better_seed_first(g, k.seeds) for g in games]
