"""Per-cell debouncing: a change counts only once it has held for the debounce time."""

from __future__ import annotations

import pytest

from firmware_bridge.debounce import Debouncer
from firmware_bridge.source import SensorEvent

pytestmark = pytest.mark.unit


def on(cell: int, at: float) -> SensorEvent:
    return SensorEvent(cell, True, at)


def off(cell: int, at: float) -> SensorEvent:
    return SensorEvent(cell, False, at)


def test_change_that_holds_the_debounce_time_is_confirmed():
    d = Debouncer(0.02)
    assert d.feed(on(3, 1.0)) == []
    assert d.advance(1.019) == []
    assert d.advance(1.02) == [on(3, 1.02)]
    assert d.active == {3}


def test_blip_shorter_than_debounce_is_ignored():
    d = Debouncer(0.02)
    d.feed(on(3, 1.0))
    d.feed(off(3, 1.015))
    assert d.advance(5.0) == []
    assert d.active == frozenset()


def test_confirmation_time_does_not_depend_on_how_often_it_is_asked():
    d = Debouncer(0.02)
    d.feed(on(3, 1.0))
    assert d.advance(9.0) == [on(3, 1.02)]


def test_batched_events_debounce_as_if_they_came_one_by_one():
    # A replayed batch: the first change held 50 ms before the second one came.
    d = Debouncer(0.02)
    assert d.feed(on(1, 1.0)) == []
    assert d.feed(off(1, 1.05)) == [on(1, 1.02)]
    assert d.advance(1.07) == [off(1, 1.07)]


def test_repeated_report_of_pending_state_keeps_its_start_time():
    d = Debouncer(0.02)
    d.feed(on(1, 1.0))
    d.feed(on(1, 1.01))
    assert d.advance(1.02) == [on(1, 1.02)]


def test_each_cell_is_debounced_on_its_own():
    d = Debouncer(0.02)
    d.feed(on(1, 1.0))
    d.feed(on(2, 1.01))
    d.feed(off(2, 1.015))
    assert d.advance(1.1) == [on(1, 1.02)]


def test_zero_debounce_confirms_at_once():
    d = Debouncer(0.0)
    assert d.feed(on(4, 2.0)) == [on(4, 2.0)]


def test_initial_cells_are_already_stable():
    d = Debouncer(0.02, initial=[5])
    d.feed(on(5, 1.0))
    assert d.advance(2.0) == []
    assert d.active == {5}


def test_late_event_is_taken_as_now():
    d = Debouncer(0.02)
    d.advance(5.0)
    d.feed(on(1, 4.0))
    assert d.advance(5.01) == []
    assert d.advance(5.02) == [on(1, 5.02)]
