"""The real scoreboard table on the tournament link: its steps reach the hub, and the hub's
commands go through the table's own checks (``Table.apply_step``), like the tablet's."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from mqtt_broker import Broker, broker_fixture
from mqtt_sim import FAST_RECONNECT, wait_until

from hub.link import HubLink
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from tournament_wire.wire import settings_from_url
from web.table.wiring import open_table
from web.tournament.mqtt_table import TableLink

pytestmark = pytest.mark.mqtt
T = TypeVar("T")


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from broker_fixture(tmp_path)


@pytest.fixture
def loop() -> Iterator[asyncio.AbstractEventLoop]:
    """An event loop in its own thread, standing in for the web app's."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        yield loop
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


def in_loop(loop: asyncio.AbstractEventLoop, fn: Callable[[], T]) -> T:
    done: concurrent.futures.Future[T] = concurrent.futures.Future()

    def run() -> None:
        try:
            done.set_result(fn())
        except Exception as exc:
            done.set_exception(exc)

    loop.call_soon_threadsafe(run)
    return done.result(5)


def test_the_table_publishes_its_steps_and_applies_the_hubs_commands(
    tmp_path: Path, broker: Broker, loop: asyncio.AbstractEventLoop
) -> None:
    clock = FakeClock(1_700_000_000.0)
    tl = TableLink("table-9", settings_from_url(broker.url))
    table = open_table(tmp_path / "board" / "skitter.db", "sim", clock=clock, wall=clock,
                       publish=tl.published)
    hub = HubLink(settings_from_url(broker.url),
                  Tournament(HubStore(tmp_path / "hub.db"), clock),
                  reconnect_delay=FAST_RECONNECT)
    try:
        hub.start()
        in_loop(loop, lambda: tl.start(table))
        match_id = table.match_id
        for step in ({"shot": {"by": "black", "big": "placed"}},
                     {"shot": {"by": "white", "big": "placed"}}):
            in_loop(loop, lambda step=step: table.apply_step(step))
        wait_until(lambda: hub.store.contiguous_seq("table-9", match_id) == 2, what="steps")
        # The retained state travels apart from the events: it may arrive a moment later.
        wait_until(lambda: bool(hub.store.boards())
                   and hub.store.boards()[0]["state"]["seq"] == 2, what="the state")
        board = hub.store.boards()[0]
        assert isinstance(board["state"]["alerts"], list)

        def answer(command_id: str) -> dict[str, Any]:
            wait_until(lambda: any(c["id"] == command_id and c["result"]
                                   for c in hub.store.commands("table-9")), what="the answer")
            return next(c["result"] for c in hub.store.commands("table-9")
                        if c["id"] == command_id)

        undone = answer(hub.send_command("table-9", "undo", match_id=match_id, seq=2))
        assert undone["ok"] and undone["result"]["seq"] == 3
        assert table.match.state.big["white"] == "hand"
        refused = answer(hub.send_command(
            "table-9", "correct", match_id=match_id,
            correct={"score": {"black": 5}, "reason": "a whole round"}))
        assert refused["ok"] is False and "R19" in refused["message"]
        assert table.store.event_count(match_id) == 3
        wait_until(lambda: hub.store.contiguous_seq("table-9", match_id) == 3, what="the undo")
        assert hub.store.events("table-9", match_id)[-1].source == "hub"
    finally:
        tl.stop()
        hub.stop()
        hub.store.close()
        table.close()
