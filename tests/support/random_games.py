"""Random legal games for the property tests: hypothesis strategies and a seeded random player."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from lanes import examples

from scorekeeper.errors import IllegalEventError
from scorekeeper.fields import opponent
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.state import State

SETTINGS = settings(max_examples=examples(100), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


SEEDS = st.integers(0, 2**32 - 1)


"""Each example plays a game from a random seed; hypothesis picks and shrinks the seed."""


@st.composite
def games(draw: st.DrawFn) -> tuple[Rules, Setup]:
    variant = draw(st.sampled_from(["classic", "classic", "trio"]))
    flipping = variant == "classic" and draw(st.booleans())
    rules = Rules(variant=variant, flipping=flipping,
                  points_to_win_round=draw(st.integers(1, 5)),
                  rounds_to_win_game=draw(st.integers(1, 3)),
                  pot=draw(st.integers(6, 20)))
    first = draw(st.sampled_from([None, "black", "white"]))
    big = None if variant == "trio" else draw(st.sampled_from(
        [None, {"black": "center", "white": "center"}]))
    board = {}
    for name in draw(st.lists(st.sampled_from(rules.fields), max_size=4)):
        board[name] = board.get(name, 0) + 1
    return rules, Setup(first=first, big=big, board=board)


def choices(rnd: random.Random, items: Any, most: int, least: int = 0,
            unique: bool = False) -> list[Any]:
    items = list(items)
    n = rnd.randint(least, most)
    return rnd.sample(items, n) if unique else [rnd.choice(items) for _ in range(n)]


def candidate(rnd: random.Random, state: State) -> dict[str, Any]:
    """A step that is often legal and sometimes not."""
    rules = state.rules
    kind = rnd.choice(["shot"] * 14 + ["undo", "decide", "decide", "correct", "shootoff"])
    if state.phase == "shootoff" and kind == "shot":
        kind = "shootoff"
    elif state.phase == "game_over" and rnd.random() < 0.5:
        kind = "undo"
    elif (kind == "shootoff" or kind == "decide" and state.reopen is None) \
            and rnd.random() < 0.8:
        kind = "shot"  # mostly offer steps that can be taken
    if kind == "shootoff":
        return {"shootoff": {"black": rnd.randint(-1, 9), "white": rnd.randint(-1, 9)}}
    if kind == "undo":
        return {"undo": True}
    by = state.turn or rnd.choice(["black", "white"])
    if kind == "decide":
        decider = opponent(by)
        red, unblock = state.pending_red, state.pending_unblock
        if red and rnd.random() < 0.8:
            open_red = rnd.choice(red)
            return {"decide": {"by": open_red.player, "red": ["back"] * len(open_red.choices)}}
        if unblock is not None and rnd.random() < 0.8:
            return {"decide": {"by": unblock.player, "unblock": rnd.choice(unblock.fields)}}
        if rnd.random() < 0.5:
            return {"decide": {"by": decider, "red": choices(rnd, ["advance", "back"], 3)}}
        return {"decide": {"by": decider, "unblock": rnd.choice(rules.opposite(decider))}}
    if kind == "correct":
        c: dict[str, Any] = {"reason": "property"}
        if rnd.random() < 0.5:
            c["score"] = {by: rnd.randint(-1, rules.points_to_win_round - 1)}
        if rnd.random() < 0.5:
            c["board"] = {rnd.choice(rules.fields): rnd.randint(0, 3)}
        if rules.flipping and rnd.random() < 0.5:
            c["blocked"] = choices(rnd, rules.fields[:-1], 2, unique=True)
        if rnd.random() < 0.5:
            c["turn"] = by
        return {"correct": c}
    s: dict[str, Any] = {"by": by}
    if state.must_place_big and rnd.random() < 0.9:
        s["big"] = rnd.choice(["placed", "placed", "missed", *rules.fields[:-1]])
        if rnd.random() < 0.8:
            return {"shot": s}
    roll = rnd.random()
    if roll < 0.55:  # the everyday shot: one skitt, mostly on a field the shooter aims at
        target = rnd.choice([*rules.opposite(by), *rules.opposite(by), *rules.fields])
        s["delta"] = {target: 1}
    elif roll < 0.7:
        s["delta"] = {}
    else:
        s["delta"] = {name: rnd.randint(-2, 2) for name in choices(rnd, rules.fields, 3)}
    if rnd.random() < 0.15:
        s["off_board"] = rnd.randint(0, 2)
    if rules.variant == "classic":
        if rnd.random() < 0.2:
            s["red"] = choices(rnd, ["advance", "back"], 3)
        if rnd.random() < 0.15:
            s["opponent_red"] = ["back"]
        if rnd.random() < 0.15:
            s["chain"] = choices(rnd, rules.opposite(by), 2, 2, unique=True)
        if rnd.random() < 0.1:
            s["knocked_big"] = rnd.choice(["loose", *rules.fields[:-1]])
            if rnd.random() < 0.3:  # both big skitts knocked loose (R12)
                s["knocked_big"] = [s["knocked_big"], rnd.choice(["loose", *rules.fields[:-1]])]
        if state.blocked and rnd.random() < 0.25:
            s["blockade"] = {"from": rnd.choice(sorted(state.blocked)),
                             "to": rnd.choice([*rules.fields, "off"])}
        if rules.flipping and rnd.random() < 0.25:
            s["unblock"] = rnd.choice(rules.opposite(by))
    if rnd.random() < 0.07:
        s["invalid"] = True
    return {"shot": s}


def conserved(state: State) -> bool:
    """R2: pot + board + blockades + round counters == the starting pot."""
    return (state.pot + sum(state.board.values()) + len(state.blocked)
            + sum(state.round_wins.values())) == state.rules.pot


def play_randomly(seed: int, match: Match, steps: int, check: Any) -> None:
    """Offer ``steps`` candidate steps; ``check(before, step, match)`` after each accepted."""
    rnd = random.Random(seed)
    for _ in range(steps):
        step = candidate(rnd, match.state)
        before = match.state
        try:
            match.apply(step)
        except IllegalEventError:
            assert match.state is before
            continue
        check(before, step, match)
