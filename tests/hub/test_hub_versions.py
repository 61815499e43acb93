"""Which skitter each board runs: sent with its status, listed per board by the hub, and a
warning on the cards when the boards at one event run different versions."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from mqtt_broker import Broker, broker_fixture
from mqtt_sim import FAST_RECONNECT, wait_until

from hub import intake
from hub.link import HubLink
from hub.store import HubStore
from hub.tournament import Tournament
from hub.view import boards_view
from scorekeeper.clock import FakeClock
from tournament_wire import wire
from web.table.wiring import open_table
from web.tournament.mqtt_table import TableLink
from web_common.version import skitter_version


@pytest.fixture
def tournament(tmp_path: Path) -> Iterator[Tournament]:
    t = Tournament(HubStore(tmp_path / "hub.db"), FakeClock(1_700_000_000.0))
    try:
        yield t
    finally:
        t.store.close()


def status(link: HubLink, board: str, **extra: object) -> None:
    link.handle(f"skitter/{board}/status",
                wire.encode({"board_id": board, "online": True, **extra}))


def cards(t: Tournament) -> dict[str, dict]:
    return {c["board"]: c for c in boards_view(t)}


def version_alerts(card: dict) -> list[str]:
    return [a["message"] for a in card["alerts"] if a["kind"] == "version"]


def test_the_hub_lists_each_boards_version(tournament: Tournament) -> None:
    link = HubLink(wire.settings_from_url("mqtt://127.0.0.1:1"), tournament)
    status(link, "b1", version="0.4.0")
    status(link, "b2", version="0.4.0")
    shown = cards(tournament)
    assert (shown["b1"]["version"], shown["b2"]["version"]) == ("0.4.0", "0.4.0")
    assert version_alerts(shown["b1"]) == version_alerts(shown["b2"]) == []


def test_boards_that_differ_are_warned_naming_both_versions(tournament: Tournament) -> None:
    link = HubLink(wire.settings_from_url("mqtt://127.0.0.1:1"), tournament)
    status(link, "b1", version="0.4.0")
    status(link, "b2", version="0.4.0")
    status(link, "b3", version="0.5.0")
    shown = cards(tournament)
    assert version_alerts(shown["b1"]) == [
        "this board runs skitter 0.4.0, other boards here run 0.5.0: update them so every "
        "board follows the same rules"]
    assert version_alerts(shown["b3"]) == [
        "this board runs skitter 0.5.0, other boards here run 0.4.0: update them so every "
        "board follows the same rules"]
    # Updated: the warning goes from every card.
    status(link, "b3", version="0.4.0")
    assert all(version_alerts(c) == [] for c in cards(tournament).values())


def test_a_board_too_old_to_send_its_version_is_warned(tournament: Tournament) -> None:
    link = HubLink(wire.settings_from_url("mqtt://127.0.0.1:1"), tournament)
    status(link, "b1", version="0.4.0")
    status(link, "old")
    shown = cards(tournament)
    assert shown["old"]["version"] is None
    assert version_alerts(shown["old"]) == [
        "this board runs a skitter too old to say its version, other boards here run 0.4.0: "
        "update it so every board follows the same rules"]
    assert version_alerts(shown["b1"]) == []


def test_a_new_version_touches_every_card(tournament: Tournament) -> None:
    store = tournament.store
    store.set_board_status("b1", True, at=1.0, version="0.4.0")
    store.set_board_status("b2", True, at=1.0, version="0.4.0")
    store.take_touched()
    store.set_board_status("b2", True, at=2.0, version="0.4.0")
    assert not store.take_touched().all_boards
    store.set_board_status("b2", True, at=3.0, version="0.5.0")
    assert store.take_touched().all_boards


@pytest.mark.parametrize("bad", [3, "", "0.4.0; rm -rf", "x" * 41, None])
def test_a_version_that_is_not_one_is_refused(bad: object) -> None:
    with pytest.raises(wire.WireError, match="version"):
        intake.reported_version({"online": True, "version": bad})


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from broker_fixture(tmp_path)


@pytest.mark.mqtt
def test_a_real_board_sends_the_installed_version(tmp_path: Path, broker: Broker) -> None:
    clock = FakeClock(1_700_000_000.0)
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    tl = TableLink("table-7", wire.settings_from_url(broker.url))
    table = open_table(tmp_path / "board" / "skitter.db", "sim", clock=clock, wall=clock,
                       publish=tl.published)
    hub = HubLink(wire.settings_from_url(broker.url),
                  Tournament(HubStore(tmp_path / "hub.db"), clock),
                  reconnect_delay=FAST_RECONNECT)
    try:
        hub.start()
        asyncio.run_coroutine_threadsafe(_start(tl, table), loop).result(5)
        wait_until(lambda: any(b["version"] for b in hub.store.boards()), what="the status")
        (board,) = hub.store.boards()
        assert board["version"] == skitter_version() != "unknown"
    finally:
        tl.stop()
        hub.stop()
        hub.store.close()
        table.close()
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        loop.close()


async def _start(tl: TableLink, table: object) -> None:
    tl.start(table)
