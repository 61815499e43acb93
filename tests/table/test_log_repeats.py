"""A flood of one error (say, thousands of refused connections) cannot fill the log."""

from __future__ import annotations

import logging

from scorekeeper.clock import FakeClock
from web_common.serving import RepeatFilter


def record(msg: str) -> logging.LogRecord:
    return logging.LogRecord("asyncio", logging.ERROR, __file__, 1, msg, None, None)


def test_an_identical_line_passes_a_few_times_a_window_then_is_counted() -> None:
    clock = FakeClock(100.0)
    quiet = RepeatFilter(burst=5, window=60.0, clock=clock)
    passed = [quiet.filter(record("socket.accept() out of system resource"))
              for _ in range(10_000)]
    assert sum(passed) == 5
    assert quiet.filter(record("another problem"))  # other lines are not held back
    clock.advance(61.0)
    summary = record("socket.accept() out of system resource")
    assert quiet.filter(summary)
    assert "9995 more like it" in str(summary.msg)
