"""Long, valid match logs for the replay benchmark and the fault tests.

A real game ends after a few dozen shots; a tournament's log or a stress test needs far
more. :func:`random_steps` plays a seeded random classic game through the real
:class:`~scorekeeper.match.Match`, keeping only steps the rules accept, with the mix a
referee's log has: ordinary shots (most), big-skitt shots when they are due, misses, undos
and the odd correction. When the game is over it takes steps back with undo and plays on, so
a log can be as long as asked and still replays exactly.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from scorekeeper.errors import IllegalEventError
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup

RULES = Rules(points_to_win_round=10, rounds_to_win_game=1000, pot=10_000)
"""A long game (a real one is 5 round wins with a pot of 20): 100,000 steps fit in it."""
SETUP = Setup(first="black")
FIELDS = ("black.red", "black.yellow", "black.blue", "white.red", "white.yellow",
          "white.blue", "minus")


def candidate(rng: random.Random, match: Match) -> dict[str, Any]:
    """A plausible next step for the player due (it may still be refused)."""
    state = match.state
    roll = rng.random()
    if match.can_undo and (roll < 0.04 or state.is_game_over):
        return {"undo": True}
    if state.shootoff_due:
        return {"shootoff": {"black": rng.randint(-1, 9), "white": rng.randint(-1, 9)}}
    by = state.turn
    if state.must_place_big:
        return {"shot": {"by": by, "big": "placed" if rng.random() < 0.7 else "missed"}}
    if roll < 0.05:  # the turn given to the other player: a correction that changes something
        return {"correct": {"turn": "white" if by == "black" else "black",
                            "reason": "referee check"}}
    if roll < 0.20:
        return {"shot": {"by": by}}  # nothing changed on the board
    delta: dict[str, int] = {}
    for _ in range(rng.choice((1, 1, 1, 2))):
        name = rng.choice(FIELDS)
        delta[name] = delta.get(name, 0) + 1
    if rng.random() < 0.15:  # a skitt knocked off a field with something on it
        full = [f for f, n in state.board.items() if n > 0 and f not in delta]
        if full:
            delta[rng.choice(full)] = -1
    return {"shot": {"by": by, "delta": delta}}


def random_steps(
    count: int, seed: int = 6, *, rules: Rules = RULES, setup: Setup = SETUP,
    shots_only: bool = False,
) -> Iterator[dict[str, Any]]:
    """``count`` steps the rules accept, in order, from a fresh ``rules``/``setup`` match
    (the caller replays them with the same). ``shots_only`` counts only shots towards
    ``count`` (the undos, corrections and shoot-offs around them still come)."""
    rng = random.Random(seed)
    match = Match(rules, setup)
    made = refused = 0
    while made < count:
        step = candidate(rng, match)
        try:
            match.apply(step)
        except IllegalEventError:
            refused += 1
            if refused > 50 * (made + 100):
                raise RuntimeError(f"the generator is stuck at {match.state.summary()}") from None
            continue
        made += 1 if not shots_only or "shot" in step else 0
        yield step
