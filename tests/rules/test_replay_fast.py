"""The restart path: the log read back as text and replayed with each distinct text parsed
once must give exactly the match that applying the steps one by one gave, and a damaged
log must still be refused at the step that is wrong."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from matchgen import RULES, SETUP, random_steps
from random_games import SEEDS, SETTINGS, candidate, games
from rules_support import CENTER, shot

from scorekeeper.errors import IllegalEventError, MalformedEventError, NothingToUndoError
from scorekeeper.events import Undo
from scorekeeper.match import CHECKPOINT_EVERY, Match
from scorekeeper.options import Rules, Setup
from scorekeeper.store import MatchStore
from scorekeeper.store import reading as store_reading

PLAIN = Setup(first="black", big=CENTER)


def text(step: dict[str, Any]) -> str:
    """The step as JSON text, keys in the order played (an effect's words may follow the
    order of a shot's or a correction's keys)."""
    return json.dumps(step, separators=(",", ":"))


def played(rules: Rules, setup: Setup, steps: list[dict[str, Any]]) -> tuple[Match, list]:
    """Each step through ``apply``; returns the match and (state, effects) after each."""
    match = Match(rules, setup)
    seen = []
    for step in steps:
        effects = match.apply(step)
        seen.append((match.state, effects))
    return match, seen


@pytest.fixture(scope="module")
def long_log() -> list[dict[str, Any]]:
    return list(random_steps(6000, seed=11))


@pytest.fixture
def store(tmp_path):
    s = MatchStore(tmp_path / "log.db")
    try:
        yield s
    finally:
        s.close()


def test_replay_of_json_text_equals_applying_each_step(long_log):
    match, seen = played(RULES, SETUP, long_log)
    steps: list = []
    fast = Match.replay_json(RULES, SETUP, [text(s) for s in long_log],
                             on_step=lambda *step: steps.append(step))
    assert fast.state == match.state
    assert fast.events == match.events
    assert [(state, effects) for _, _, state, effects in steps] == seen
    assert [i for i, *_ in steps] == list(range(1, len(long_log) + 1))


def test_undo_after_a_json_replay_goes_back_like_the_played_match(long_log):
    match, _ = played(RULES, SETUP, long_log)
    fast = Match.replay_json(RULES, SETUP, [text(s) for s in long_log])
    for _ in range(3 * CHECKPOINT_EVERY + 7):
        match.apply({"undo": True})
        fast.apply({"undo": True})
        assert fast.state == match.state
    assert fast.can_undo == match.can_undo


def test_equal_texts_share_one_event():
    body = text(shot("black", delta={}))
    other = text(shot("white", delta={}))
    m = Match.replay_json(Rules(), PLAIN, [body, other] * 50)
    assert m.events[0] is m.events[2] is m.events[98]


def test_a_repeated_text_is_still_judged_by_the_rules_at_its_step():
    body = text(shot("black", delta={}))
    with pytest.raises(IllegalEventError, match="step 2: .*out of turn"):
        Match.replay_json(Rules(), PLAIN, [body, body])


def test_text_that_is_not_json_is_refused_naming_its_step():
    good = [text(shot("black", delta={})), text(shot("white", delta={}))]
    with pytest.raises(MalformedEventError, match="step 3: step: not JSON"):
        Match.replay_json(Rules(), PLAIN, [*good, '{"shot": {"by": "bl'])


def test_json_that_is_not_a_step_is_refused_naming_its_step():
    with pytest.raises(MalformedEventError, match="step 2: shot: unknown key 'colour'"):
        Match.replay_json(Rules(), PLAIN, [text(shot("black", delta={})),
                                           text(shot("white", colour="red"))])
    with pytest.raises(MalformedEventError, match="step 1: step: expected an object"):
        Match.replay_json(Rules(), PLAIN, ["[1, 2]"])


def test_an_undo_with_nothing_to_undo_in_text_is_refused_naming_its_step():
    with pytest.raises(NothingToUndoError, match="step 3"):
        Match.replay_json(Rules(), PLAIN, [text(shot("black", delta={})), '{"undo":true}',
                                           '{"undo":true}'])


def test_on_step_gives_the_undo_effect_apply_gives():
    seen: list = []
    Match.replay_json(Rules(), PLAIN, [text(shot("black", delta={})), '{"undo":true}'],
                      on_step=lambda *step: seen.append(step))
    number, event, state, (effect,) = seen[1]
    assert number == 2 and event == Undo() and state.turn == "black"
    assert effect.text == "took back black's shot"


def test_store_gives_the_bodies_as_text_in_order(store, monkeypatch):
    monkeypatch.setattr(store_reading, "BULK_ROWS", 3)  # several fetches
    m = store.create_match(Rules(), PLAIN, at=1.0)
    steps = [shot("black", delta={}), shot("white", delta={"minus": 1}), {"undo": True}] * 4
    for i, step in enumerate(steps):
        store.append(m, step, at=10.0 + i, source="sensor" if i % 2 else "manual")
    events = store.load(m).events
    assert [json.loads(b) for b in store.iter_bodies(m)] == [e.body for e in events]
    assert list(store.iter_rows(m, after=5)) == [
        (e.seq, e.at, e.source, b) for e, b in zip(events[5:], store.iter_bodies(m, after=5),
                                                   strict=True)]


def test_load_header_is_load_without_the_events(store):
    m = store.create_match(Rules(), PLAIN, {"black": "Ada"}, at=5.0, meta={"table": 2})
    store.append(m, shot("black", delta={}), at=6.0)
    head = store.load_header(m)
    assert head.events == ()
    assert head.header() == store.load(m).header()


def test_a_stored_log_rebuilds_through_the_text_path(store, long_log):
    m = store.create_match(RULES, SETUP, at=0.0)
    for i, step in enumerate(long_log[:500]):
        store.append(m, step, at=float(i))
    head = store.load_header(m)
    fast = Match.replay_json(Rules.from_json(head.rules), Setup.from_json(head.setup),
                             store.iter_bodies(m), head.names)
    slow = Match.replay(RULES, SETUP, [e.body for e in store.load(m).events])
    assert fast.state == slow.state and fast.events == slow.events


@SETTINGS
@given(games(), SEEDS)
def test_any_game_replays_from_text_exactly_as_played(game, seed):
    rnd = random.Random(seed)
    match = Match(*game)
    steps: list[dict[str, Any]] = []
    seen = []
    for _ in range(60):
        step = candidate(rnd, match.state)
        if rnd.random() < 0.15 and match.can_undo:
            step = {"undo": True}
        try:
            effects = match.apply(step)
        except IllegalEventError:
            continue
        steps.append(step)
        seen.append((match.state, effects))
    got: list = []
    fast = Match.replay_json(*game, [text(s) for s in steps],
                             on_step=lambda _i, _e, state, effects: got.append((state, effects)))
    assert fast.state == match.state and fast.events == match.events
    assert got == seen
