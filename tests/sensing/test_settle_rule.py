"""The tuned settle rule: a landing skitt settles after the longest pass, a leaving one
after the longest gap, anything else after the fixed window."""

from __future__ import annotations

import pytest

from firmware_bridge.profile import load_profile, loads_profile
from firmware_bridge.settle import SettleDetector, still_since

pytestmark = pytest.mark.unit


def test_a_cell_that_turned_on_settles_after_the_longest_pass():
    s = SettleDetector(0.3, start=0.0, land_s=0.1, leave_s=0.4)
    s.taken()
    s.changed(1.0, True)
    assert not s.is_due(1.09)
    assert s.is_due(1.1)


def test_a_cell_that_turned_off_last_waits_for_the_skitt_to_cross_the_gap():
    s = SettleDetector(0.3, start=0.0, land_s=0.1, leave_s=0.4)
    s.taken()
    s.changed(1.0, True)
    s.changed(1.02, False)  # a pass: the skitt is still moving
    assert not s.is_due(1.3)
    assert s.is_due(1.42)


def test_an_off_followed_by_an_on_is_the_skitt_arriving():
    assert still_since(1.1, 1.0, 0.0, settle_s=0.3, land_s=0.1, leave_s=0.4) == pytest.approx(1.2)


def test_a_change_of_unknown_kind_waits_the_fixed_window():
    s = SettleDetector(0.3, start=0.0, land_s=0.1, leave_s=0.4)
    s.taken()
    s.changed(1.0)
    assert not s.is_due(1.29)
    assert s.is_due(1.3)


def test_without_tuned_parameters_the_rule_is_the_fixed_window():
    s = SettleDetector(0.3, start=0.0)
    s.changed(1.0, True)
    assert not s.is_due(1.29)
    assert s.is_due(1.3)


def test_negative_waits_are_refused():
    with pytest.raises(ValueError, match="land time cannot be negative"):
        SettleDetector(0.3, start=0.0, land_s=-0.1)


def test_profile_keys_are_optional_and_checked():
    base = 'name = "t"\ncells = 128\n'
    text = load_profile().path.read_text()  # type: ignore[union-attr]
    fields = text[text.index("[fields."):]
    plain = loads_profile(base + fields)
    assert plain.settle_land_ms is None and plain.settle_leave_s is None
    tuned = loads_profile(base + "settle_land_ms = 160\nsettle_leave_ms = 400\n" + fields)
    assert (tuned.settle_land_s, tuned.settle_leave_s) == (0.16, 0.4)
    with pytest.raises(ValueError, match="settle_land_ms"):
        loads_profile(base + "settle_land_ms = -5\n" + fields)
