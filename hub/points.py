"""The points each player scored over a game, from the states after each of its steps."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.effects import EffectKind
from scorekeeper.state import Phase

PLAYERS = ("black", "white")


def points_of(states: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Points each player scored over a whole game, from the states after each of its events.

    A round's points are the scores when it ended: on the step that ends a round the board
    already shows the next round at 0–0, so they are the scores before that step plus the
    point changes the step made before its ``round`` effect (R10: the rest of a deciding
    shot is void). An undo that takes a round back takes its points back. The last round of
    a game keeps its scores (R20); a game lost otherwise (R16) or a Trio game counts the
    scores it ended with.
    """
    finished: list[Mapping[str, int]] = []
    prev: Mapping[str, Any] | None = None
    grew = False
    for st in states:
        rounds = st.get("rounds") or []
        while len(finished) > len(rounds):
            finished.pop()
        grew = len(rounds) > len(finished)
        if grew:
            while len(finished) < len(rounds) - 1:
                finished.append({})
            if st.get("phase") == Phase.GAME_OVER:
                finished.append(_scores(st))
            else:
                finished.append(_scores_at_round_end(prev, st))
        prev = st
    totals = dict.fromkeys(PLAYERS, 0)
    for scores in finished:
        for p in PLAYERS:
            totals[p] += int(scores.get(p, 0))
    if prev is not None and prev.get("phase") == Phase.GAME_OVER and not grew:
        for p, v in _scores(prev).items():
            totals[p] += v
    return totals


def _scores(state: Mapping[str, Any]) -> dict[str, int]:
    score = state.get("score") or {}
    return {p: int(score.get(p, 0)) for p in PLAYERS}


def _scores_at_round_end(
    prev: Mapping[str, Any] | None, state: Mapping[str, Any]
) -> dict[str, int]:
    totals = _scores(prev) if prev is not None else dict.fromkeys(PLAYERS, 0)
    for effect in state.get("last_effects") or []:
        if effect.get("kind") in (EffectKind.ROUND, EffectKind.GAME):
            break
        player, amount = effect.get("player"), effect.get("amount")
        if player in totals and isinstance(amount, int):
            totals[player] += amount
    return totals
