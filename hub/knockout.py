"""The rules of the knockout stage, as plain functions.

After the Swiss rounds the best 4, 8 or 16 players by standing (dropped players left out)
play a single-elimination bracket seeded by standing: 1 v N, and the seeds spread so that
the two best players can meet only in the final (for 8: 1 v 8, 4 v 5, 2 v 7, 3 v 6). The
better seed plays first (black). The winners of tables 1 and 2 meet at table 1 of the next
round, the winners of tables 3 and 4 at table 2, and so on; the losers of the semi-finals
may play a third-place game (the last table of the final round).

A knockout game must have a winner. A board's game always ends with one (a game is won by
rounds; a round drawn is played again); a result without a winner (a game cut short,
entered by hand) does not count: the next knockout round waits until the referee removes it
and the players play the game again.
"""

from __future__ import annotations

from collections.abc import Sequence

from hub.said import MARK, Refusal, Sentence

SIZES = (4, 8, 16)
"""Bracket sizes the referee can start."""


class KnockoutError(Refusal, ValueError):
    """The bracket cannot be made or advanced; the message says why."""


def seed_order(size: int) -> list[int]:
    """Seeds (from 1) in bracket order: neighbours meet in the first round, and the two best
    seeds only in the final."""
    if size < 2 or size & (size - 1):
        raise KnockoutError(MARK.gettext("a bracket has 2, 4, 8 or 16 players, not {size}"),
                            size=size)
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def first_round(seeded: Sequence[str]) -> list[tuple[str, str]]:
    """The first knockout round's games for players listed best seed first."""
    order = seed_order(len(seeded))
    return [(seeded[order[i] - 1], seeded[order[i + 1] - 1]) for i in range(0, len(order), 2)]


def next_round(winners: Sequence[str], losers: Sequence[str] = (), *,
               third_place: bool = False) -> list[tuple[str, str]]:
    """The next round's games from the previous round's winners (and losers, by table):
    winners of tables 1 and 2 meet, then 3 and 4 ...; a third-place game of the two
    semi-finals' losers after the final when asked for."""
    if len(winners) < 2 or len(winners) % 2:
        raise KnockoutError(MARK.gettext("the previous knockout round has no pairs of winners"))
    games = [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]
    if third_place and len(winners) == 2:
        if len(losers) != 2:
            raise KnockoutError(MARK.gettext("a third-place game needs both semi-finals' losers"))
        games.append((losers[0], losers[1]))
    return games


def stage_name(games: int, *, third_place_game: bool = False) -> Sentence:
    """The round's name as players say it, from its number of games (a final with a
    third-place game has two)."""
    if third_place_game:
        games -= 1
    if games == 1:
        return Sentence(MARK.gettext("Final"))
    if games == 2:
        return Sentence(MARK.gettext("Semi-finals"))
    if games == 4:
        return Sentence(MARK.gettext("Quarter-finals"))
    return Sentence(MARK.gettext("Last {n}"), n=2 * games)


def knockout_rounds(size: int) -> int:
    """Rounds a bracket of ``size`` takes to a winner."""
    return len(seed_order(size)).bit_length() - 1


def better_seed_first(game: tuple[str, str], seeds: Sequence[str]) -> tuple[str, str]:
    """``game`` with the better seed of ``seeds`` (best first) as the first player."""
    a, b = game
    rank = {name: i for i, name in enumerate(seeds)}
    return (a, b) if rank.get(a, len(seeds)) <= rank.get(b, len(seeds)) else (b, a)
