"""bench/hub_backup.py runs and prints its figures (tiny counts: a smoke test, no timings)."""

from __future__ import annotations

import pytest
from test_bench_scripts import run_bench


@pytest.mark.timeout(120)
def test_hub_backup_prints_both_ways_and_the_result() -> None:
    out = run_bench("hub_backup.py", "--boards", "4", "--games", "2")
    assert "through the hub's connection" in out and "through a reader of its own" in out
    assert "hub file: 4 boards x 2 games, 32 steps" in out
