"""The physics board and the shot corpus tuned on it."""

from __future__ import annotations

import dataclasses

import pytest

from firmware_bridge.physics import Flick, Geometry, Physics, Shot, play
from firmware_bridge.profile import load_profile
from firmware_bridge.shot_corpus import (
    KINDS,
    corpus,
    decide,
    make_shot,
    read_early,
    sample_of,
    tune,
)
from firmware_bridge.timeline import Timeline

PROFILE = load_profile()
GEO = Geometry.of(PROFILE)


@pytest.mark.unit
def test_every_profile_field_cell_has_a_place_on_the_board():
    placed = {c for c, _, _ in GEO.centres}
    assert placed == {c for fc in PROFILE.fields.values() for c in fc.cells}


@pytest.mark.unit
def test_a_shot_is_the_same_for_the_same_seed():
    shot = make_shot(GEO, "knock", 7)
    assert play(PROFILE, shot) == play(PROFILE, shot)


@pytest.mark.unit
def test_a_fast_skitt_along_a_row_passes_over_three_cells_briefly():
    _, x0, y = GEO.centres[0]
    fast = Shot("three_cells", 1, ((x0 - 30.0, y),), (Flick(0, 600.0, 1.5708),))
    out = play(PROFILE, fast, dataclasses.replace(Physics(), sample_ms=1.0))
    ons = [c for _, c, a in out.changes if a]
    assert len(set(ons)) >= 3
    first = [t for t, c, _ in out.changes if c == ons[0]]
    assert first[1] - first[0] < 0.06  # on for tens of ms as it slides over


@pytest.mark.unit
def test_a_flicked_skitt_knocks_a_resting_one_on():
    _, x, y = GEO.centres[3]
    shot = Shot("knock", 2, ((x, y - 40.0), (x, y)), (Flick(0, 500.0, 0.0),))
    out = play(PROFILE, shot)
    assert out.before != out.final


@pytest.mark.unit
def test_a_corpus_sample_is_a_review_timeline_with_its_truth():
    sample = next(s for seed in range(50)
                  if (s := sample_of(play(PROFILE, make_shot(GEO, "single", seed)))))
    again = Timeline.from_json(sample.timeline.to_json())
    assert again == sample.timeline
    # the board truly comes to rest before its switches report the last change
    period_ms = Physics().sample_ms + Physics().jitter_ms
    assert sample.rest_ms <= sample.timeline.changes[-1].ms <= sample.rest_ms + period_ms


def test_the_split_is_by_seed_and_disjoint():
    held = {s.seed for s in corpus(PROFILE, 4, held_out=True)}
    train = {s.seed for s in corpus(PROFILE, 4, held_out=False)}
    assert held and train and not held & train
    assert all(seed % 2 for seed in held)


def test_the_rule_tuned_on_training_shots_scores_held_out_shots_of_every_kind_right():
    waits = tune(PROFILE, list(corpus(PROFILE, 20, held_out=False)), sample_ms=50)
    samples = list(corpus(PROFILE, 6, held_out=True))
    assert {s.kind for s in samples} == set(KINDS)
    tuned = dataclasses.replace(PROFILE, settle=waits)
    decisions = [decide(tuned, s) for s in samples]
    assert [d for d in decisions if not d.right or d.missed] == []


@pytest.mark.unit
def test_a_flick_presses_a_launch_spot_in_the_corpus_timeline():
    sample = sample_of(play(PROFILE, make_shot(GEO, "two_moving", 3)), (38, 40))
    assert sample is not None
    presses = [(c.cell, c.active) for c in sample.timeline.changes if c.cell in (38, 40)]
    assert presses == [(38, True), (40, True), (38, False), (40, False)] or \
        presses == [(38, True), (38, False), (40, True), (40, False)]


def test_the_rule_read_without_the_pipeline_reads_where_the_pipeline_does():
    waits = tune(PROFILE, list(corpus(PROFILE, 10, held_out=False)), sample_ms=50)
    tuned = dataclasses.replace(PROFILE, settle=waits)
    for sample in corpus(PROFILE, 4, held_out=True):
        early, at_ms = read_early(sample, tuned.settle_waits, settle_s=PROFILE.settle_s,
                                  debounce_s=PROFILE.debounce_s)
        decision = decide(tuned, sample)
        assert decision.delay_ms is not None
        assert decision.delay_ms + sample.rest_ms == pytest.approx(at_ms, abs=1.5)
        assert early == (not decision.right)


@pytest.mark.unit
@pytest.mark.parametrize("seed", [1, 3, 4, 5])
def test_a_switch_reports_a_change_in_its_next_sample_never_before_it_happens(seed):
    shot = make_shot(GEO, "knock", seed)
    exact = play(PROFILE, shot, dataclasses.replace(Physics(), sample_ms=0.001, jitter_ms=0.0))
    sampled = play(PROFILE, shot)
    period = (Physics().sample_ms + Physics().jitter_ms) / 1000
    happened: dict[int, list[tuple[float, bool]]] = {}
    for at, cell, active in exact.changes:
        happened.setdefault(cell, []).append((at, active))
    assert sampled.changes
    for at, cell, active in sampled.changes:
        # the latest change of this cell to this state before the report
        before = [t for t, a in happened[cell] if a == active and t <= at + 1e-6]
        assert before, f"cell {cell} reported {active} at {at:.3f} before it happened"
        assert at - before[-1] <= period + 1e-6
