"""The short path for everyday shots must give exactly what the full resolution gives: the
same state (score order included) and the same effects, and must decline every shot the
checks would refuse."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given
from matchgen import RULES, SETUP, random_steps
from rules_support import CENTER
from test_properties import SEEDS, SETTINGS, candidate, games, play_randomly

from scorekeeper.errors import IllegalEventError
from scorekeeper.events import ShotEvent, parse_event
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.rules.checks import check_shot, is_invalid
from scorekeeper.rules.classic import resolve_classic
from scorekeeper.rules.quick import quick_shot
from scorekeeper.rules.shots import invalid_shot
from scorekeeper.rules.tally import Transition
from scorekeeper.shot import Shot
from scorekeeper.state import State


def full(state: State, shot: Shot) -> Transition | IllegalEventError:
    """The full resolution of a classic shot, without the short path."""
    try:
        check_shot(state, shot)
    except IllegalEventError as err:
        return err
    why = is_invalid(state, shot)
    return invalid_shot(state, shot, why) if why is not None else resolve_classic(state, shot)


def agrees(state: State, step: dict[str, Any]) -> bool:
    """Check the two paths on ``step``; True when the short path took it."""
    event = parse_event(step)
    assert isinstance(event, ShotEvent)
    quick = quick_shot(state, event.shot)
    if quick is None:
        return False
    reference = full(state, event.shot)
    assert isinstance(reference, Transition), f"short path took a refused shot: {reference}"
    assert quick == reference.state
    assert quick.last_effects == reference.effects
    assert list(quick.score) == list(reference.state.score)
    assert list(quick.board) == list(reference.state.board)
    assert (quick.reopen is None) == (reference.state.reopen is None)
    if quick.reopen is not None:
        assert quick.reopen.base is state
    return True


def everyday_shots(rnd: random.Random, state: State) -> list[dict[str, Any]]:
    """Shots a referee's log is full of, for the player due."""
    by = state.turn or "black"
    fields = state.rules.fields
    red = [[], ["advance"], ["back"], ["back", "back"], ["advance", "back"]]
    shots = [{"by": by, "delta": {f: 1}, "red": rnd.choice(red),
              "opponent_red": rnd.choice(red)} for f in fields]
    full_fields = [f for f in fields if state.board[f] > 0]
    for f in fields:
        if full_fields:
            g = rnd.choice(full_fields)
            if g != f:
                shots.append({"by": by, "delta": {f: rnd.choice([1, 2]), g: -1},
                              "red": rnd.choice(red)})
    shots.append({"by": by, "delta": {rnd.choice(fields): 1}, "off_board": rnd.randint(0, 2)})
    shots.append({"by": by, "delta": {rnd.choice(fields): 1}, "invalid": True})
    return [{"shot": s} for s in shots]


@SETTINGS
@given(games(), SEEDS)
def test_short_path_equals_the_full_resolution_on_any_shot(game, seed):
    rnd = random.Random(seed)

    def check(_before: State, _step: dict[str, Any], m: Match) -> None:
        state = m.state
        if state.rules.is_trio:
            return
        for step in [candidate(rnd, state) for _ in range(6)] + everyday_shots(rnd, state):
            if "shot" in step:
                agrees(state, step)

    play_randomly(seed, Match(*game), 40, check)


def test_the_short_path_takes_nearly_every_shot_of_a_long_log():
    # Without this, a short path that declined everything would pass the tests above.
    steps = random_steps(3000, seed=5)
    m = Match(RULES, SETUP)
    shots = taken = 0
    for step in steps:
        if "shot" in step:
            shots += 1
            taken += agrees(m.state, step)
        m.apply(step)
    assert taken >= 0.9 * shots


def position(**setup: Any) -> State:
    return Match(Rules(), Setup(first="black", big=CENTER, **setup)).state


@pytest.mark.parametrize("step, kind", [
    ({"by": "black", "delta": {"white.yellow": 1}}, "clear"),  # R5
    ({"by": "black", "delta": {"white.red": 1}, "red": ["back"]}, "back"),  # R4
    ({"by": "black", "delta": {"black.blue": 1}, "opponent_red": ["back"]}, "point"),  # R7
    ({"by": "black", "delta": {"black.red": 1}, "opponent_red": ["back"]}, "back"),  # R7, R4
    ({"by": "black", "delta": {"minus": 1}, "off_board": 1}, "penalty"),  # R6 twice
    ({"by": "black", "delta": {"white.red": 2, "white.blue": -1}}, "point"),  # R3, R9
    ({"by": "black", "delta": {"black.blue": -1}}, "invalid"),  # R8
    ({"by": "black", "delta": {}, "invalid": True}, "invalid"),  # R8
])
def test_everyday_shot_kinds_take_the_short_path_exactly(step, kind):
    state = position(board={"white.yellow": 1, "black.yellow": 2, "white.red": 2,
                            "black.red": 3, "black.blue": 2, "white.blue": 1})
    assert agrees(state, {"shot": step})
    assert kind in {e.kind for e in quick_shot(state, parse_event({"shot": step}).shot)
                    .last_effects}


@pytest.mark.parametrize("step", [
    {"by": "white", "delta": {}},  # R1: out of turn
    {"by": "black", "delta": {"white.red": 1, "white.blue": 1}},  # R2: two skitts added
    {"by": "black", "delta": {"white.blue": -2}},  # R2: below 0
    {"by": "black", "delta": {"grey": 1}},  # unknown field
    {"by": "black", "delta": {"minus": 1}, "off_board": 3},  # R2: more than were in play
    {"by": "black", "big": "placed"},  # R11: the big skitt is in the centre
])
def test_the_short_path_declines_what_the_checks_refuse(step):
    state = position(board={"white.blue": 1})
    assert quick_shot(state, parse_event({"shot": step}).shot) is None
    assert isinstance(full(state, parse_event({"shot": step}).shot), IllegalEventError)


def test_the_short_path_declines_a_shot_that_ends_the_round():
    state = position(board={"white.blue": 2}, score={"black": 4})
    assert quick_shot(state, parse_event(
        {"shot": {"by": "black", "delta": {"white.blue": 1}}}).shot) is None


def test_a_clearing_with_flipping_takes_the_full_path():
    state = Match(Rules(flipping=True), Setup(first="black", big=CENTER, board={
        "white.yellow": 1, "black.yellow": 2})).state
    shot = parse_event({"shot": {"by": "black", "delta": {"white.yellow": 1}}}).shot
    assert quick_shot(state, shot) is None
    assert "block" in {e.kind for e in full(state, shot).effects}  # type: ignore[union-attr]
