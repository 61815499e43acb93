"""A board's last self-test reaches the hub over a real Mosquitto: published when kept and
again after a restart of the board's link, checked by the hub like any message, shown on
its card."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from mqtt_broker import Broker, broker_fixture
from mqtt_sim import FAST_RECONNECT, SimBoard, wait_until
from source_rigs import PROFILE

from firmware_bridge.selftest import SelfTest
from firmware_bridge.source import SensorEvent
from hub.app import Hub, create_hub_app
from hub.link import HubLink
from hub.store import HubStore
from hub.tournament import Tournament
from hub.wake import Wake
from scorekeeper.clock import FakeClock
from tournament_wire import selftest_wire, wire
from web.table import selftest_record
from web_common.pin import PinStore

pytestmark = pytest.mark.mqtt


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from broker_fixture(tmp_path)


@pytest.fixture
def setup(tmp_path: Path, broker: Broker) -> Iterator[tuple[TestClient, SimBoard, HubLink]]:
    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    pins = PinStore(tmp_path / "pin")
    pins.set("2468")
    wake = Wake()
    link = HubLink(wire.settings_from_url(broker.url), tournament, on_change=wake,
                   reconnect_delay=FAST_RECONNECT)
    hub = Hub(tournament, link, pins, clock, wake)
    board = SimBoard("table-5", tmp_path, wire.settings_from_url(broker.url))
    try:
        link.start()
        board.link.start()
        with TestClient(create_hub_app(hub)) as client:
            yield client, board, link
    finally:
        board.close()
        link.stop()
        tournament.store.close()


def card(client: TestClient, board: str) -> dict[str, Any] | None:
    return next((b for b in client.get("/api/hub").json()["boards"] if b["board"] == board),
                None)


def keep_a_sheet(board: SimBoard, *, dead: bool) -> None:
    test = SelfTest(PROFILE, 0.0, buttons={})
    t = 0.0
    for cell in sorted(PROFILE.cell_roles()):
        if dead and cell == 17:
            continue
        t += 0.5
        test.feed([SensorEvent(cell, True, t), SensorEvent(cell, False, t + 0.2)])
    while test.current is not None:
        test.skip()
    test.finish(t + 1)
    selftest_record.save(board.store.path.parent, test.sheet(board.board_id, f"2026-12-01 {t}"))


def test_the_hub_shows_each_boards_last_self_test(
    setup: tuple[TestClient, SimBoard, HubLink],
) -> None:
    client, board, _ = setup
    wait_until(lambda: card(client, board.board_id) is not None, what="the board's card")
    assert card(client, board.board_id)["selftest"] is None  # type: ignore[index]
    keep_a_sheet(board, dead=True)
    board.link.changed()

    def reported() -> dict[str, Any] | None:
        c = card(client, board.board_id)
        return None if c is None else c["selftest"]

    wait_until(lambda: reported() is not None, what="the self-test at the hub")
    got = reported()
    assert got is not None and got["passed"] is False
    assert got["failed"] == ["cell 17: never changed"] and got["failed_count"] == 1
    # a new one, after the board restarts its link: the hub has the newer one
    keep_a_sheet(board, dead=False)
    board.restart_link()
    wait_until(lambda: (reported() or {}).get("passed") is True, what="the passing self-test")


def test_the_hub_refuses_a_bad_self_test_message(
    setup: tuple[TestClient, SimBoard, HubLink],
) -> None:
    _, _, link = setup
    topic = selftest_wire.topic(link.prefix, "table-9")
    good = {"v": 1, "board_id": "table-9", "date": "d", "passed": True, "summary": "passed",
            "failed": [], "failed_count": 0}
    link.bursts.store_message(topic, wire.encode(good))
    assert link.store.selftests()["table-9"]["passed"] is True
    for bad in ({**good, "passed": "yes"}, {**good, "failed": ["x"] * 9},
                {**good, "failed_count": 2}, {**good, "summary": "s" * 500},
                {**good, "board_id": "table-8"}):
        with pytest.raises(wire.WireError):
            link.bursts.store_message(topic, wire.encode(bad))
    with pytest.raises(wire.WireError):
        link.bursts.store_message(topic, b"[" * 5000)
    assert link.store.selftests()["table-9"] == {**link.store.selftests()["table-9"],
                                                "passed": True}
