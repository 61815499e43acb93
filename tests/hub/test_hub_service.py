"""The hub's watchdog is fed only while the hub's own threads work (a stalled one stops it)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fake_systemd import FakeSystemd
from waiting import wait_until_async

from hub.service import hub_watchdog

INTERVAL = 0.05


class Link:
    """The part of the hub's link the watchdog asks: which threads are stalled."""

    def __init__(self) -> None:
        self.stuck: list[tuple[str, float | None]] = []
        self.asked = 0
        """How often the watchdog has asked (once a round)."""

    def stalled(self) -> list[tuple[str, float | None]]:
        self.asked += 1
        return list(self.stuck)


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(tmp_path / "notify")
    yield fake
    fake.close()


def test_not_under_systemd_the_hub_has_no_watchdog() -> None:
    assert hub_watchdog({}, Link(), serving=lambda: True) is None  # type: ignore[arg-type]


def test_a_stalled_hub_thread_stops_the_pings_until_it_works_again(systemd) -> None:
    link = Link()
    env = {"NOTIFY_SOCKET": str(systemd.path), "WATCHDOG_USEC": str(int(INTERVAL * 2e6))}
    run = hub_watchdog(env, link, serving=lambda: True)  # type: ignore[arg-type]
    assert run is not None
    marks: dict[str, float] = {}

    async def scenario() -> None:
        task = asyncio.create_task(run())
        await asyncio.to_thread(systemd.wait_for_pings, 2, 0.0)
        link.stuck = [("storing", None)]
        first = link.asked
        # once a round has seen the stall, the ping of the round before it (if any) was
        # sent: from the moment every datagram so far is recorded, no ping may come
        await wait_until_async(lambda: link.asked > first, "a watchdog round seeing the stall")
        marks["stuck"] = await asyncio.to_thread(systemd.caught_up)
        asked = link.asked
        await wait_until_async(lambda: link.asked >= asked + 10,
                               "ten rounds of the watchdog finding the thread stalled")
        marks["freed"] = time.monotonic()
        link.stuck = []
        await asyncio.to_thread(systemd.wait_for_pings, 2, marks["freed"])
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)

    asyncio.run(scenario())
    assert systemd.wait_for("READY=1") > 0
    assert systemd.pings(marks["stuck"], marks["freed"]) == 0
    assert systemd.wait_for("STOPPING=1") > 0
    assert any("STATUS=serving the tournament" in m for _, m in systemd.drain())
