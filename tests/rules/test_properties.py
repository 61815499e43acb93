"""Properties over random sequences of steps (hypothesis): whatever is played, the pot
adds up, nobody goes below −1, a finished game takes no shot, undo restores the exact
prior state, and replay reproduces the match."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from random_games import SEEDS, SETTINGS, conserved, games, play_randomly

from scorekeeper.errors import IllegalEventError
from scorekeeper.match import Match
from scorekeeper.state import State


@SETTINGS
@given(games(), SEEDS)
def test_skitts_are_conserved_and_nobody_goes_below_minus_one(game, seed):
    def check(before: State, step: dict[str, Any], m: Match) -> None:
        assert conserved(m.state)
        assert min(m.state.score.values()) >= -1
        assert min(m.state.board.values()) >= 0 and m.state.pot >= 0
        json.dumps(m.to_json())

    play_randomly(seed, Match(*game), 60, check)


@SETTINGS
@given(games(), SEEDS)
def test_finished_game_accepts_no_shot(game, seed):
    def check(before: State, step: dict[str, Any], m: Match) -> None:
        if m.state.phase == "game_over":
            for by in ("black", "white"):
                try:
                    m.apply({"shot": {"by": by, "delta": {}}})
                except IllegalEventError:
                    continue
                raise AssertionError("a finished game accepted a shot")

    play_randomly(seed, Match(*game), 60, check)


@SETTINGS
@given(games(), SEEDS)
def test_undo_of_any_step_restores_the_exact_prior_state(game, seed):
    def check(before: State, step: dict[str, Any], m: Match) -> None:
        if "undo" in step:
            return
        after = m.state
        m.apply({"undo": True})
        assert m.state == before
        m.apply(step)
        assert m.state == after

    play_randomly(seed, Match(*game), 60, check)


@SETTINGS
@given(games(), SEEDS)
def test_replay_of_the_events_reproduces_the_state(game, seed):
    match = Match(*game)
    play_randomly(seed, match, 80, lambda *a: None)
    again = Match.replay(match.rules, match.setup, [e.to_json() for e in match.events])
    assert again.state == match.state
    assert again.events == match.events
