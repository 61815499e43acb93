"""The hub referee's session ends by the wall clock, with a bound.

It used to count the hub's monotonic seconds, which start again when the hub's machine
reboots: a session that had long ended came back to life after a reboot. Now its expiry is
wall time, and a wall clock set back (so that a session would last as long as the jump) ends
it too.
"""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient
from hub_app_support import QuietSender, tournament_of
from web_helpers import PIN, logged_in

from hub.app import Hub, create_hub_app
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from web_common.pin import PinStore

DAY = 24 * 3600.0


def signed_in(client: TestClient) -> bool:
    answer = client.get("/api/referee/session")
    assert answer.status_code == 200
    return bool(answer.json()["referee"])


def hub_client(t: Tournament, pins: PinStore, since_boot: FakeClock) -> TestClient:
    return TestClient(create_hub_app(Hub(t, QuietSender(), pins, since_boot)))


def referee_pin(tmp_path: Path) -> PinStore:
    """The hub's PIN store with the referee PIN :data:`PIN` set."""
    pins = PinStore(tmp_path / "pin")
    pins.set(PIN)
    return pins


def session_cookies(t: Tournament, pins: PinStore, since_boot: FakeClock) -> dict[str, str]:
    """The cookies of a referee who signed in on a hub started ``since_boot`` seconds ago."""
    with hub_client(t, pins, since_boot) as client:
        assert signed_in(logged_in(client))
        return dict(client.cookies)


def test_a_session_that_ended_stays_ended_after_the_hub_reboots(tmp_path: Path) -> None:
    with tournament_of(tmp_path, ["Ada", "Bo"]) as t:
        pins = referee_pin(tmp_path)
        cookies = session_cookies(t, pins, FakeClock(10.0))
        t.clock.advance(2 * DAY)  # two days later; the machine rebooted meanwhile
        with hub_client(t, pins, FakeClock(10.0)) as client:
            client.cookies.update(cookies)
            assert not signed_in(client)


def test_a_session_outlives_a_reboot_within_its_day(tmp_path: Path) -> None:
    with tournament_of(tmp_path, ["Ada", "Bo"]) as t:
        pins = referee_pin(tmp_path)
        cookies = session_cookies(t, pins, FakeClock(50_000.0))
        t.clock.advance(3600)
        with hub_client(t, pins, FakeClock(10.0)) as client:
            client.cookies.update(cookies)
            assert signed_in(client)


class SettableWall:
    """A wall clock a person may set back."""

    def __init__(self, t: float) -> None:
        self.t = t

    def now(self) -> float:
        return self.t


def test_a_wall_clock_set_back_far_ends_the_session(tmp_path: Path) -> None:
    wall = SettableWall(1_700_000_000.0)
    store = HubStore(tmp_path / "hub.db")
    try:
        with hub_client(Tournament(store, wall), referee_pin(tmp_path),
                        FakeClock(10.0)) as client:
            logged_in(client)
            wall.t -= 600.0  # ten minutes back: a clock put right, still signed in
            assert signed_in(client)
            wall.t -= 30 * DAY  # a month back: without a bound, a month more
            assert not signed_in(client)
    finally:
        store.close()
