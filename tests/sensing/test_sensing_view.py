"""The sensing view is made from what its polling step read: the link status once a step,
so the link the pages are shown is the link the tracker acted on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_bridge.pipeline import Pipeline
from firmware_bridge.profile import load_profile
from firmware_bridge.simulator import SimulatedBoard
from firmware_bridge.source import LinkStatus
from scorekeeper.clock import FakeClock
from scorekeeper.store import MatchStore
from web.table.sensing import Sensing
from web.table.table import Table


class Flapping(SimulatedBoard):
    """A link that comes and goes with every look at it (a loose cable)."""

    looks = 0

    def status(self) -> LinkStatus:
        self.looks += 1
        if self.looks % 2:
            return LinkStatus(up=True)
        return LinkStatus(up=False, message="sensor link down: loose cable")


def test_the_link_shown_is_the_link_the_step_acted_on(tmp_path: Path) -> None:
    clock = FakeClock(100.0)
    profile = load_profile()
    source = Flapping(profile, clock)
    source.start()
    pipeline = Pipeline(profile, clock, initial=source.snapshot())
    published: list[dict[str, Any]] = []
    table = Table(MatchStore(tmp_path / "log.db"), clock=clock, wall=clock,
                  sensing=Sensing(source, pipeline, profile), publish=published.append)
    try:
        for _ in range(6):
            before = len(published)
            clock.advance(0.01)
            table.tick()
            assert len(published) == before + 1  # the link changed: one snapshot
            shown = published[-1]
            paused = shown["tracker"]["mode"] == "paused"
            assert shown["link"]["up"] is not paused, shown["link"]
    finally:
        table.close()
