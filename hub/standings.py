"""The standings table, ranked as organisers of Swiss events expect.

1. **Games won** (a bye counts as a game played and won, with no rounds and no points, so
   it helps a player who had to sit out without inflating the tie-breaks below).
2. **Buchholz**: the sum of the games won by every opponent met. A win over strong players
   is worth more than one over weak players; a bye has no opponent and adds nothing. A
   dropped player's games still count: their wins raise their opponents' Buchholz.
3. **Head-to-head**: among the players still level, games won against each other (for two
   players: who beat whom).
4. **Round difference**, then 5. **points difference**, then rounds won.

Ties that survive every tie-break are listed by name so the table never reorders itself
between two refreshes.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from hub.model import GameResult, Standing


def standings(
    players: Sequence[str], results: Iterable[GameResult], byes: Iterable[str] = (),
    dropped: Iterable[str] = (),
) -> list[Standing]:
    """Every player's line, best first (``dropped``: players who left the tournament; they
    stay in the table, marked, and their games keep counting).

    Results naming a player who is not in ``players`` are still counted for the known
    player (a typo at one board must not drop the opponent's win).
    """
    results = list(results)
    gone = set(dropped)
    table = {p: Standing(p, dropped=p in gone) for p in players}
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
    wins = {p: s.won for p, s in table.items()}
    for p, s in table.items():
        table[p] = replace(s, buchholz=buchholz(p, results, wins))
    return rank(list(table.values()), results)


def buchholz(player: str, results: Iterable[GameResult], wins: dict[str, int]) -> int:
    """The sum of the games won by each opponent ``player`` met (once per game played)."""
    total = 0
    for r in results:
        if player == r.black:
            total += wins.get(r.white, 0)
        elif player == r.white:
            total += wins.get(r.black, 0)
    return total


def head_to_head(group: Iterable[str], results: Iterable[GameResult]) -> dict[str, int]:
    """Games each player of ``group`` won against the others of ``group``."""
    members = set(group)
    won: dict[str, int] = dict.fromkeys(members, 0)
    for r in results:
        if r.black in members and r.white in members and r.winner in members:
            won[r.winner] += 1
    return won


def rank(lines: Sequence[Standing], results: Iterable[GameResult]) -> list[Standing]:
    """``lines`` best first: games won, Buchholz, head-to-head among those still level,
    round difference, points difference, rounds won, then the name."""
    results = list(results)
    level: dict[tuple[int, int], list[str]] = defaultdict(list)
    for s in lines:
        level[(s.won, s.buchholz)].append(s.player)
    among: dict[str, int] = {}
    for group in level.values():
        among.update(head_to_head(group, results) if len(group) > 1 else {group[0]: 0})
    return sorted(lines, key=lambda s: (-s.won, -s.buchholz, -among[s.player],
                                        *rank_key(s)[1:]))


def rank_key(s: Standing) -> tuple[int, int, int, int, str]:
    """Sort key without the tie-breaks that need the other players (Buchholz and
    head-to-head): more games won, better round difference, better points difference,
    more rounds won, then the name."""
    return (-s.won, -s.round_difference, -s.points_difference, -s.rounds_won, s.player)
