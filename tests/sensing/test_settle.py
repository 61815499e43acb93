"""The settle detector: exactly one reading per still period."""

from __future__ import annotations

import pytest

from firmware_bridge.settle import SettleDetector

pytestmark = pytest.mark.unit


def test_initial_reading_is_due_once_the_window_has_passed():
    s = SettleDetector(0.3, start=0.0)
    assert not s.is_due(0.29)
    assert s.is_due(0.3)


def test_no_reading_is_due_while_the_board_keeps_changing():
    s = SettleDetector(0.3, start=0.0)
    for t in (0.1, 0.3, 0.5, 0.7):
        s.changed(t)
        assert not s.is_due(t + 0.29)


def test_one_still_period_gives_one_reading():
    s = SettleDetector(0.3, start=0.0)
    s.changed(1.0)
    assert s.is_due(1.3)
    s.taken()
    assert not s.is_due(1.4)
    assert not s.is_due(100.0)


def test_a_change_after_a_reading_owes_a_new_one():
    s = SettleDetector(0.3, start=0.0)
    s.taken()
    s.changed(2.0)
    assert not s.is_due(2.2)
    assert s.is_due(2.3)
