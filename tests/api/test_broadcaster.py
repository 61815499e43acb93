"""The broadcaster: one encoding per snapshot, per-screen order, slow and dead screens."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from starlette.websockets import WebSocketState
from waiting import turn_of_the_loop

import web_common.broadcaster
from web_common.broadcaster import QUEUE_LIMIT, Broadcaster


class FakeScreen:
    """Stands in for a Starlette WebSocket; ``reading`` cleared: the screen stopped reading."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.reading = asyncio.Event()
        self.reading.set()
        self.gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.client_state = WebSocketState.CONNECTED

    async def accept(self) -> None:
        pass

    async def send_text(self, text: str) -> None:
        await self.reading.wait()
        self.texts.append(text)

    async def receive(self) -> dict[str, Any]:
        await self.gone
        return {"type": "websocket.disconnect"}

    async def close(self) -> None:
        self.client_state = WebSocketState.DISCONNECTED

    def seqs(self) -> list[int]:
        return [json.loads(t)["seq"] for t in self.texts]


async def let_run() -> None:
    """Let every ready task run (no clock involved)."""
    await turn_of_the_loop(50)


async def connect(broadcaster: Broadcaster, count: int) -> tuple[list[FakeScreen], list[Any]]:
    screens = [FakeScreen() for _ in range(count)]
    tasks = [asyncio.create_task(broadcaster.serve(s)) for s in screens]  # type: ignore[arg-type]
    await let_run()
    return screens, tasks


def snapshot(seq: int) -> dict[str, Any]:
    return {"seq": seq, "boot": "b00t", "state": {"turn": "black"}, "log": ["é"] * 3}


def test_each_snapshot_is_encoded_once_and_every_screen_gets_the_same_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    encoded: list[int] = []
    original = web_common.broadcaster.encode

    def counting(snap: Any) -> str:
        encoded.append(snap["seq"])
        return original(snap)

    monkeypatch.setattr(web_common.broadcaster, "encode", counting)

    async def scenario() -> list[FakeScreen]:
        broadcaster = Broadcaster()
        broadcaster.bind(asyncio.get_running_loop())
        screens, tasks = await connect(broadcaster, 3)
        broadcaster.publish(snapshot(1))
        broadcaster.publish(snapshot(2))
        await let_run()
        await broadcaster.close_all()
        await asyncio.gather(*tasks)
        return screens

    screens = asyncio.run(scenario())
    assert encoded == [1, 2]
    assert screens[0].texts == screens[1].texts == screens[2].texts
    assert [json.loads(t) for t in screens[0].texts] == [snapshot(1), snapshot(2)]


def test_a_screen_that_stops_reading_stalls_nobody_and_then_skips_to_the_newest() -> None:
    total = QUEUE_LIMIT * 3

    async def scenario() -> tuple[FakeScreen, FakeScreen]:
        broadcaster = Broadcaster()
        broadcaster.bind(asyncio.get_running_loop())
        (slow, fast), tasks = await connect(broadcaster, 2)
        slow.reading.clear()
        for seq in range(1, total + 1):
            broadcaster.publish(snapshot(seq))
            await let_run()
        assert fast.seqs() == list(range(1, total + 1))  # nothing waited for the slow one
        slow.reading.set()
        await let_run()
        await broadcaster.close_all()
        await asyncio.gather(*tasks)
        return slow, fast

    slow, _ = asyncio.run(scenario())
    seqs = slow.seqs()
    assert seqs[-1] == total  # the newest state always arrives
    assert seqs == sorted(set(seqs))  # in order, never twice
    assert len(seqs) <= QUEUE_LIMIT + 1  # the backlog was cut, not replayed


def test_an_older_state_is_never_sent_after_a_newer_one() -> None:
    async def scenario() -> FakeScreen:
        broadcaster = Broadcaster()
        broadcaster.bind(asyncio.get_running_loop())
        (screen,), tasks = await connect(broadcaster, 1)
        broadcaster.publish(snapshot(5))
        broadcaster.publish(snapshot(4))
        await let_run()
        await broadcaster.close_all()
        await asyncio.gather(*tasks)
        return screen

    assert asyncio.run(scenario()).seqs() == [5]


def test_a_late_screen_gets_the_current_state_first_then_every_later_one() -> None:
    async def scenario() -> FakeScreen:
        broadcaster = Broadcaster()
        broadcaster.bind(asyncio.get_running_loop())
        broadcaster.publish(snapshot(1))
        broadcaster.publish(snapshot(2))
        (screen,), tasks = await connect(broadcaster, 1)
        broadcaster.publish(snapshot(3))
        await let_run()
        await broadcaster.close_all()
        await asyncio.gather(*tasks)
        return screen

    assert asyncio.run(scenario()).seqs() == [2, 3]


def test_a_disconnected_screen_is_dropped_and_the_others_go_on() -> None:
    async def scenario() -> tuple[int, FakeScreen, FakeScreen]:
        broadcaster = Broadcaster()
        broadcaster.bind(asyncio.get_running_loop())
        (leaving, staying), tasks = await connect(broadcaster, 2)
        leaving.gone.set_result(None)
        await let_run()
        count = broadcaster.client_count
        broadcaster.publish(snapshot(1))
        await let_run()
        await broadcaster.close_all()
        await asyncio.gather(*tasks)
        return count, leaving, staying

    count, leaving, staying = asyncio.run(scenario())
    assert count == 1
    assert leaving.texts == [] and leaving.client_state == WebSocketState.DISCONNECTED
    assert staying.seqs() == [1]


def test_a_state_published_from_another_thread_reaches_the_screens() -> None:
    async def scenario() -> FakeScreen:
        broadcaster = Broadcaster()
        broadcaster.bind(asyncio.get_running_loop())
        (screen,), tasks = await connect(broadcaster, 1)
        await asyncio.to_thread(broadcaster.publish, snapshot(7))
        await let_run()
        await broadcaster.close_all()
        await asyncio.gather(*tasks)
        return screen

    assert asyncio.run(scenario()).seqs() == [7]
