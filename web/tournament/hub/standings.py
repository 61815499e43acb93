"""The standings table: games won, then round difference, then points difference.

A bye counts as a game played and won, with no rounds and no points, so it helps a player
who had to sit out without inflating the tie-breaks. Ties that survive every tie-break are
listed by name so the table never reorders itself between two refreshes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace

from web.tournament.hub.model import GameResult, Standing


def standings(
    players: Sequence[str], results: Iterable[GameResult], byes: Iterable[str] = ()
) -> list[Standing]:
    """Every player's line, best first.

    Results naming a player who is not in ``players`` are still counted for the known
    player (a typo at one board must not drop the opponent's win).
    """
    table = {p: Standing(p) for p in players}
    for r in results:
        for me, other, my_rounds, their_rounds, my_points, their_points in (
            (r.black, r.white, r.black_rounds, r.white_rounds, r.black_points, r.white_points),
            (r.white, r.black, r.white_rounds, r.black_rounds, r.white_points, r.black_points),
        ):
            if me not in table:
                continue
            s = table[me]
            table[me] = replace(
                s,
                played=s.played + 1,
                won=s.won + (r.winner == me),
                lost=s.lost + (r.winner == other),
                rounds_won=s.rounds_won + my_rounds,
                rounds_lost=s.rounds_lost + their_rounds,
                points_for=s.points_for + my_points,
                points_against=s.points_against + their_points,
            )
    for p in byes:
        if p in table:
            s = table[p]
            table[p] = replace(s, played=s.played + 1, won=s.won + 1, byes=s.byes + 1)
    return sorted(table.values(), key=rank_key)


def rank_key(s: Standing) -> tuple[int, int, int, int, str]:
    """Sort key: more games won, better round difference, better points difference,
    more rounds won, then the name."""
    return (-s.won, -s.round_difference, -s.points_difference, -s.rounds_won, s.player)
