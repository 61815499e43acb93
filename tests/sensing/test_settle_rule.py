"""The tuned settle rule: the board is still once every skitt the timeline shows on its way
has arrived or had its time, and the last cell turned on has outlasted the longest pass."""

from __future__ import annotations

import dataclasses

import pytest

from firmware_bridge.profile import load_profile, loads_profile
from firmware_bridge.settle import Move, SettleDetector, SettleWaits, still_since

pytestmark = pytest.mark.unit

LAUNCH = 38
WAITS = SettleWaits(land_s=0.14, leave_s=0.7, leave_slow_s=0.3, knocked_s=0.25,
                    launch_s=0.9, sample_s=0.05, launch_cells=frozenset({LAUNCH, 40}))


def still(*moves: tuple[float, int | None, bool], before: tuple[int, ...] = ()) -> float:
    return still_since([Move(at, cell, active) for at, cell, active in moves], WAITS,
                       settle_s=0.3, start=0.0, on_before=before)


def test_a_skitt_landing_on_a_cell_is_at_rest_once_it_outlasts_the_longest_pass():
    assert still((1.0, 45, True)) == pytest.approx(1.14)


def test_a_skitt_passing_over_a_cell_is_not_at_rest():
    # on for one sample, then off: it is on its way again, and may cross far
    assert still((1.0, 45, True), (1.05, 45, False)) == pytest.approx(1.75)


def test_a_skitt_that_crossed_a_cell_slowly_is_waited_for_less():
    assert still((1.0, 45, True), (1.1, 45, False)) == pytest.approx(1.4)


def test_a_skitt_knocked_off_its_resting_cell_is_waited_for():
    assert still((1.0, 45, False), before=(45,)) == pytest.approx(1.25)


def test_a_skitt_arriving_on_a_cell_ends_the_wait_for_it():
    # it left 45 quickly and lands on 52: only the landing's wait is left
    assert still((1.0, 45, True), (1.05, 45, False), (1.2, 52, True)) == pytest.approx(1.34)


def test_a_flicked_skitt_is_waited_for_until_it_reaches_a_cell():
    assert still((1.0, LAUNCH, True), (1.1, LAUNCH, False)) == pytest.approx(1.9)
    assert still((1.0, LAUNCH, True), (1.1, LAUNCH, False), (1.3, 45, True)) \
        == pytest.approx(1.44)


def test_two_skitts_on_their_way_are_both_waited_for():
    # two flicks; one arrives, the other is still out
    assert still((1.0, LAUNCH, True), (1.02, 40, True), (1.3, 45, True)) \
        == pytest.approx(1.9)


def test_a_change_of_unknown_kind_waits_the_fixed_window():
    assert still((1.0, 45, True), (1.2, None, False)) == pytest.approx(1.5)


def test_without_tuned_waits_the_rule_is_the_fixed_window():
    moves = [Move(1.0, 45, True), Move(1.05, 45, False)]
    assert still_since(moves, None, settle_s=0.3, start=0.0) == pytest.approx(1.35)


def test_the_detector_reads_once_per_still_period_with_the_tuned_rule():
    s = SettleDetector(0.3, start=0.0, waits=WAITS)
    assert not s.is_due(0.29)
    assert s.is_due(0.3)  # the opening reading waits the full window
    s.taken()
    s.changed(1.0, True, 45)
    assert not s.is_due(1.13)
    assert s.is_due(1.14)
    s.taken()
    assert not s.is_due(5.0)
    assert s.is_still(5.0)
    s.changed(6.0, False, 45)  # the resting skitt is knocked off
    assert not s.is_due(6.24)
    assert s.is_due(6.25)


def test_the_shipped_board_settles_by_the_tuned_rule():
    """``skitter serve`` reads the board by the rule tuned on the shot corpus: a skitt that
    lands is read once it has outlasted the longest pass, sooner than the fixed window."""
    from firmware_bridge.pipeline import Pipeline
    from firmware_bridge.source import SensorEvent
    from scorekeeper.clock import FakeClock

    profile = load_profile()
    waits = profile.settle_waits
    assert waits is not None
    assert waits.land_s < profile.settle_s
    clock = FakeClock(0.0)
    pipeline = Pipeline(profile, clock)
    clock.advance(profile.settle_s)
    assert len(pipeline.tick()) == 1  # the opening reading
    cell = profile.fields["black.red"].cells[0]
    pipeline.feed([SensorEvent(cell, True, 1.0)])
    clock.advance(1.0 + profile.debounce_s + waits.land_s - 0.001 - clock.now())
    assert pipeline.tick() == []
    clock.advance(0.001)
    assert len(pipeline.tick()) == 1


def test_negative_waits_are_refused():
    with pytest.raises(ValueError, match="settle land time cannot be negative"):
        SettleDetector(0.3, start=0.0, waits=dataclasses.replace(WAITS, land_s=-0.1))


def test_the_settle_table_is_optional_and_checked():
    base = 'name = "t"\ncells = 128\n'
    text = load_profile().path.read_text()  # type: ignore[union-attr]
    fields = text[text.index("[fields."):text.index("\n[settle]")] + "\n"
    table = ("[settle]\nland_ms = 140\nleave_ms = 700\nleave_slow_ms = 300\n"
             "knocked_ms = 300\nlaunch_ms = 900\nsample_ms = 50\n")
    plain = loads_profile(base + fields)
    assert plain.settle is None and plain.settle_waits is None
    tuned = loads_profile(base + fields + table)
    waits = tuned.settle_waits
    assert waits is not None
    assert (waits.land_s, waits.leave_s, waits.launch_s) == (0.14, 0.7, 0.9)
    assert waits.launch_cells == {38, 40}
    with pytest.raises(ValueError, match="settle.land_ms: expected at least 0"):
        loads_profile(base + fields + table.replace("land_ms = 140", "land_ms = -5"))
    with pytest.raises(ValueError, match="settle.launch_ms: missing"):
        loads_profile(base + fields + table.replace("launch_ms = 900\n", ""))
    with pytest.raises(ValueError, match="settle.pass_ms: unknown key"):
        loads_profile(base + fields + table + "pass_ms = 3\n")
