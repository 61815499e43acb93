"""A change is answered with the snapshot it published: the same ``seq`` never comes with two
different pictures (the page drops whichever of the two arrives second)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from scorekeeper.clock import FakeClock
from web.api.writer import change
from web.table.wiring import open_table


def test_the_answer_to_a_change_is_the_published_snapshot(tmp_path: Path) -> None:
    published: list[dict[str, Any]] = []
    clock = FakeClock(100.0)
    table = open_table(tmp_path / "log.db", "sim", clock=clock, wall=clock,
                       publish=published.append)
    try:
        table.new_match({}, {"first": "black"}, {"black": "Ann", "white": "Bo"}, {})
        seq = table.seq

        def act() -> None:
            table.apply_step({"correct": {
                "score": {"black": 2}, "reason": "counted again"}})
            # The board moves before the answer is made; no poll has seen it yet.
            table.sensing.require_simulator().place_skitt("white.red")  # type: ignore[union-attr]

        answer = asyncio.run(change(table, act, seq=seq, boot=table.boot))
        sent = [s for s in published if s["seq"] == answer["seq"]]
        assert sent == [answer]
        assert answer["state"]["score"]["black"] == 2
    finally:
        table.close()
