"""The app's collaborators come in through ``create_app``: the broadcaster the table was
built with, the tournament link and the board's GPIO controls; the hub's MQTT link gets the
hub's wake in its constructor. Nothing is attached later."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from waiting import wait_until

from hub.app import Hub, create_hub_app
from hub.link import HubLink
from hub.store import HubStore
from hub.tournament import Tournament
from hub.wake import Wake
from scorekeeper.clock import FakeClock
from tournament_wire.wire import settings_from_url
from web.api.app import create_app
from web.api.deps import Auth
from web.table.table import Table
from web.table.wiring import open_table, publishing
from web_common.broadcaster import Broadcaster
from web_common.pin import PinStore


class FakeLink:
    """Stands for the tournament link: started with the table, told every snapshot."""

    def __init__(self) -> None:
        self.started: Table | None = None
        self.stopped = False
        self.seen: list[int] = []

    def start(self, table: Table) -> None:
        self.started = table

    def published(self, snapshot: Any) -> None:
        self.seen.append(snapshot["seq"])

    def stop(self) -> None:
        self.stopped = True


class FakeControls:
    """Stands for the GPIO buttons and LEDs: polled with the sensors."""

    def __init__(self) -> None:
        self.polls = 0

    def poll(self) -> None:
        self.polls += 1


def test_the_link_and_controls_passed_in_are_started_polled_and_told(tmp_path: Path) -> None:
    clock = FakeClock(1000.0)
    pins = PinStore(tmp_path / "data")
    pins.set("2468")
    broadcaster, link, controls = Broadcaster(), FakeLink(), FakeControls()
    table = open_table(tmp_path / "skitter.db", "sim", clock=clock, wall=clock,
                       publish=publishing(broadcaster.publish, link.published))
    app = create_app(table, Auth.create(pins, clock), broadcaster,
                     table_link=link, controls=controls,  # type: ignore[arg-type]
                     caller_language="de", poll_interval=0.01)
    try:
        with TestClient(app) as client:
            assert link.started is table
            wait_until(lambda: controls.polls >= 3, "three polls of the controls", timeout=5)
            assert client.get("/api/caller").json()["language"] == "de"
            client.post("/api/referee/login", json={"pin": "2468"})
            seq = client.get("/api/state").json()["seq"]
            response = client.post("/api/match/steps", json={
                "seq": seq, "step": {"shot": {"by": "black", "big": "placed"}}})
            assert response.status_code == 200, response.text
            assert link.seen[-1] == response.json()["seq"]
        assert link.stopped
    finally:
        table.close()


def test_the_hub_and_its_mqtt_link_are_built_with_one_wake(tmp_path: Path) -> None:
    """The link gets the hub's wake in its constructor; what it calls refreshes the page."""
    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp_path / "hub.db"), clock)
    wake = Wake()
    link = HubLink(settings_from_url("mqtt://127.0.0.1:1883"), tournament, on_change=wake)
    hub = Hub(tournament, link, PinStore(tmp_path / "pin"), clock, wake)
    frames: list[str] = []
    try:
        with TestClient(create_hub_app(hub)):
            hub.broadcaster.publish_frame = lambda delta, full: frames.append(delta)  # type: ignore[method-assign]
            tournament.store.set_board_status("b7", True, at=1.0)
            link.on_change()  # as the link does after each message it stored
            wait_until(lambda: any('"b7"' in f for f in frames), "a frame naming board b7",
                       timeout=5)
        assert any('"b7"' in f for f in frames)
    finally:
        tournament.store.close()
