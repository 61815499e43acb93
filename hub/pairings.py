"""Who plays whom: round robin for small fields, Swiss pairing for larger ones.

Round robin uses the circle method: one player stays, the others rotate, so after
``n - 1`` rounds (``n`` when odd, one bye each) everybody has met everybody exactly once.

Swiss pairing is a maximum-weight matching (networkx) over every possible pair, rather than
a hand-made heuristic: a pair is worth a lot, less the square of the difference of the two
players' scores and a little for their distance in the standings; a pair that already met is
worth almost nothing, so a rematch happens only when no complete pairing without one exists.
With an odd field a virtual "bye" player sits below the last place and may be matched only
with players who have not had a bye yet (again, unless no other way exists).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import networkx as nx

from hub.model import ROUND_ROBIN, ROUND_ROBIN_MAX_PLAYERS, SWISS
from hub.said import MARK, Refusal

PAIR_WORTH = 1_000_000
"""Worth of any acceptable pair; dwarfs every penalty below."""
SCORE_PENALTY = 1_000
"""Times the squared score difference."""
FALLBACK_WORTH = 1
"""Worth of a rematch or of a second bye: used only when nothing else completes the round."""

FIRST_WINDOW = 12
"""Places apart in the standings the first matching graph spans; doubled until every player
is paired without a rematch or a second bye (or the graph spans the whole field). A full
graph of 256 players has 32,640 edges and took seconds to match; a window has a few
thousand."""

_BYE = object()


class PairingError(Refusal, ValueError):
    """The players cannot be paired (fewer than two, duplicate names)."""


def system_for(player_count: int) -> str:
    """``round_robin`` up to eight players, ``swiss`` beyond."""
    return ROUND_ROBIN if player_count <= ROUND_ROBIN_MAX_PLAYERS else SWISS


def swiss_round_count(player_count: int) -> int:
    """The usual number of Swiss rounds: enough for one unbeaten player (ceil log2 n)."""
    return max(1, math.ceil(math.log2(max(2, player_count))))


def round_robin_rounds(players: Sequence[str]) -> int:
    """Number of rounds of a complete round robin."""
    n = len(players)
    return n - 1 if n % 2 == 0 else n


def round_robin(players: Sequence[str], round_number: int) -> list[tuple[str, str | None]]:
    """The pairs of round ``round_number`` (from 1) of a round robin, ``(black, white)``.

    A ``white`` of None is a bye. Colours alternate so nobody plays black in every round.
    """
    _check_players(players)
    total = round_robin_rounds(players)
    if not 1 <= round_number <= total:
        raise PairingError(MARK.gettext("a round robin of {players} players has rounds 1 to "
                                        "{total}"), players=len(players), total=total)
    ring: list[str | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    for _ in range(round_number - 1):
        ring = [ring[0], ring[-1], *ring[1:-1]]
    pairs: list[tuple[str, str | None]] = []
    byes: list[tuple[str, str | None]] = []
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        if i == 0 and round_number % 2 == 0 or i > 0 and i % 2 == 1:
            a, b = b, a
        if a is None or b is None:
            sitting = a if a is not None else b
            assert sitting is not None
            byes.append((sitting, None))
        else:
            pairs.append((a, b))
    return pairs + byes


def swiss(
    ranked: Sequence[str],
    scores: Mapping[str, float],
    played: Collection[frozenset[str]] = (),
    had_bye: Collection[str] = (),
    blacks: Mapping[str, int] | None = None,
) -> list[tuple[str, str | None]]:
    """The pairs of the next Swiss round, ``(black, white)``, best-placed pair first.

    ``ranked`` lists the players best first (the standings); ``scores`` their games won;
    ``played`` the pairs that already met; ``had_bye`` who already sat out; ``blacks`` how
    often each played black (the one who had black less often gets it, else the better
    placed). A ``white`` of None is the bye, listed last.
    """
    _check_players(ranked)
    blacks = blacks or {}
    window = FIRST_WINDOW
    while True:
        matching, fallback = _match(ranked, scores, played, had_bye, window)
        if window >= len(ranked) or (not fallback and _complete(matching, ranked)):
            break
        window *= 2
    rank = {p: i for i, p in enumerate(ranked)}
    pairs: list[tuple[str, str | None]] = []
    bye: list[tuple[str, str | None]] = []
    for a, b in matching:
        if a is _BYE or b is _BYE:
            bye.append((b if a is _BYE else a, None))
            continue
        first, second = sorted((a, b), key=lambda p: (blacks.get(p, 0), rank[p]))
        pairs.append((first, second))
    pairs.sort(key=lambda pair: min(rank[p] for p in pair if p is not None))
    return pairs + bye


def _complete(matching: Collection[tuple[Any, Any]], ranked: Sequence[str]) -> bool:
    return 2 * len(matching) >= len(ranked)


def _match(
    ranked: Sequence[str],
    scores: Mapping[str, float],
    played: Collection[frozenset[str]],
    had_bye: Collection[str],
    window: int,
) -> tuple[set[tuple[Any, Any]], bool]:
    """A maximum matching over the pairs at most ``window`` places apart in the standings
    (and at most one game won apart, unless the window already spans everyone), and whether
    it needed a rematch or a second bye."""
    rank = {p: i for i, p in enumerate(ranked)}
    everyone = window >= len(ranked)
    graph = nx.Graph()
    graph.add_nodes_from(ranked)
    for i, a in enumerate(ranked):
        for b in ranked[i + 1 : i + 1 + window]:
            diff = scores.get(a, 0) - scores.get(b, 0)
            if not everyone and abs(diff) > 1:
                continue
            if frozenset((a, b)) in played:
                worth = FALLBACK_WORTH
            else:
                worth = PAIR_WORTH - SCORE_PENALTY * diff * diff - abs(rank[a] - rank[b])
            graph.add_edge(a, b, weight=worth)
    if len(ranked) % 2:
        lowest = min(scores.get(p, 0) for p in ranked)
        for p in ranked:
            if p in had_bye:
                worth = FALLBACK_WORTH
            else:
                diff = scores.get(p, 0) - lowest + 1
                worth = PAIR_WORTH - SCORE_PENALTY * diff * diff - (len(ranked) - rank[p])
            graph.add_edge(p, _BYE, weight=worth)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    fallback = any(graph[a][b]["weight"] == FALLBACK_WORTH for a, b in matching)
    return matching, fallback


def _check_players(players: Sequence[str]) -> None:
    if len(players) < 2:
        raise PairingError(MARK.gettext("a tournament needs at least two players, got "
                                        "{players}"), players=len(players))
    if len(set(players)) != len(players):
        dupes = sorted({p for p in players if list(players).count(p) > 1})
        raise PairingError(MARK.gettext("player names must be unique; repeated: {names}"),
                           names=", ".join(dupes))
