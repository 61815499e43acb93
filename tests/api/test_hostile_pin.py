"""Someone at the venue guesses the referee PIN.

What ``web_common.auth`` documents: after the n-th wrong PIN in a row a client address waits
``min(30 s, 2 ** (n - 1) s)`` before its next try is even looked at; a try inside the wait is
answered 429 without checking the PIN; one guessing address never slows another down. So a
thousand wrong PINs take hours, and the real referee waits at most 30 s, only if they share
the guesser's address, and only once the guessing stops. Guesses spread over many addresses
meet a venue-wide limit (10 tries, then one every 5 s) that holds the referee up at most 5 s
after they stop. Time is the app's injected fake clock:
nothing here sleeps.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from scorekeeper.clock import FakeClock
from web.api.app import create_app
from web.api.deps import Auth
from web.table.wiring import open_table
from web_common.auth import CAP_DELAY, FORGET, GLOBAL_BURST, GLOBAL_INTERVAL, delay_after
from web_common.broadcaster import Broadcaster
from web_common.pin import PinStore

PIN = "731904"
GUESSER = "10.0.0.66"
REFEREE = "10.0.0.2"
Venue = tuple[FastAPI, FakeClock]


class CountingPins:
    """The real PIN store, counting how often a PIN was actually checked (scrypt)."""

    def __init__(self, inner: PinStore) -> None:
        self.inner = inner
        self.checks = 0

    def verify(self, pin: object) -> bool:
        self.checks += 1
        return self.inner.verify(pin)


class PlainPins(CountingPins):
    """Checks the PIN without scrypt's 50 ms, for the thousand-check test: the throttle is
    what is under test there, not the hash."""

    def verify(self, pin: object) -> bool:
        self.checks += 1
        return pin == PIN


@pytest.fixture
def venue(tmp_path: Path) -> Iterator[tuple[FastAPI, FakeClock]]:
    """An app on the simulated board (its PIN checks counted) and its fake clock."""
    clock = FakeClock(5000.0)
    store = PinStore(tmp_path / "data")
    store.set(PIN)
    broadcaster = Broadcaster()
    table = open_table(tmp_path / "skitter.db", "sim", clock=clock, wall=clock,
                       publish=broadcaster.publish)
    app = create_app(table, Auth.create(CountingPins(store), clock),  # type: ignore[arg-type]
                     broadcaster, poll_interval=None)
    try:
        yield app, clock
    finally:
        table.close()


def pins_of(app: FastAPI) -> CountingPins:
    return app.state.auth.pins  # type: ignore[no-any-return]


def quick_pins(app: FastAPI) -> CountingPins:
    """Swap in :class:`PlainPins` (a thousand scrypt checks would take a minute)."""
    auth: Auth = app.state.auth
    auth.pins = PlainPins(pins_of(app).inner)  # type: ignore[assignment]
    return pins_of(app)


def client(app: FastAPI, address: str) -> httpx.AsyncClient:
    """A browser at ``address`` (in-process ASGI: thousands of requests in a second)."""
    transport = httpx.ASGITransport(app=app, client=(address, 40000))
    return httpx.AsyncClient(transport=transport, base_url="http://skitter.local")


async def login(c: httpx.AsyncClient, pin: str) -> tuple[int, float]:
    response = await c.post("/api/referee/login", json={"pin": pin})
    return response.status_code, float(response.headers.get("retry-after", 0))


def wrong(n: int) -> str:
    return f"{n:06d}" if f"{n:06d}" != PIN else "999999"


@pytest.mark.anyio
async def test_hammering_gets_429_and_the_pin_is_checked_only_between_waits(venue: Venue) -> None:
    app, clock = venue
    pins = pins_of(app)
    guesser = client(app, GUESSER)
    statuses: dict[int, int] = {}
    for n in range(1000):  # ten tries a second for 100 s
        status, retry = await login(guesser, wrong(n))
        statuses[status] = statuses.get(status, 0) + 1
        assert status in (401, 429) and 0 < retry <= CAP_DELAY
        clock.advance(0.1)
    # 1 + 2 + 4 + 8 + 16 s, then one try every 30 s: seven checks in 100 s
    assert pins.checks == statuses[401] <= 8
    assert statuses[429] >= 992


@pytest.mark.anyio
async def test_a_thousand_wrong_pins_from_one_address_take_hours(venue: Venue) -> None:
    app, clock = venue
    pins = quick_pins(app)
    guesser = client(app, GUESSER)
    start = clock.now()
    for n in range(1000):
        status, retry = await login(guesser, wrong(n))
        assert status == 401 and retry == delay_after(n + 1)
        clock.advance(retry)  # the fastest the throttle allows
    hours = (clock.now() - start) / 3600
    assert pins.checks == 1000
    assert hours > 8.0  # a 4-digit PIN space would take over three days


@pytest.mark.anyio
async def test_the_referee_on_another_device_logs_in_at_once_during_the_attack(
    venue: Venue,
) -> None:
    app, clock = venue
    pins = quick_pins(app)
    guesser, referee = client(app, GUESSER), client(app, REFEREE)
    for n in range(1000):
        await login(guesser, wrong(n))
        if n % 100 == 99:
            assert await login(referee, PIN) == (200, 0.0)
            assert (await referee.get("/api/referee/session")).json() == {"referee": True}
            await referee.post("/api/referee/logout")
        clock.advance(0.5)
    assert pins.checks > 10


@pytest.mark.anyio
async def test_sharing_the_guessers_address_the_referee_waits_at_most_the_documented_cap(
    venue: Venue,
) -> None:
    app, clock = venue
    quick_pins(app)
    shared = client(app, GUESSER)  # the same tablet, or the same NAT address
    for n in range(1000):
        await login(shared, wrong(n))
        clock.advance(0.2)
    stopped = clock.now()
    while (await login(shared, PIN))[0] != 200:
        clock.advance(1.0)  # the referee tries once a second
        assert clock.now() - stopped <= CAP_DELAY + 1.0, "the referee is locked out"
    assert clock.now() - stopped <= CAP_DELAY


@pytest.mark.anyio
async def test_the_guessers_record_is_forgotten_after_a_quiet_quarter_hour(venue: Venue) -> None:
    app, clock = venue
    quick_pins(app)
    guesser = client(app, GUESSER)
    for n in range(1000):
        await login(guesser, wrong(n))
        clock.advance(0.2)
    clock.advance(FORGET)
    assert await login(guesser, wrong(1)) == (401, delay_after(1))


@pytest.mark.anyio
async def test_the_referees_right_pin_clears_the_count(venue: Venue) -> None:
    app, clock = venue
    quick_pins(app)
    shared = client(app, GUESSER)
    for n in range(5):
        _, retry = await login(shared, wrong(n))
        clock.advance(retry)
    assert (await login(shared, PIN))[0] == 200
    assert await login(shared, wrong(9)) == (401, delay_after(1))  # a typo later: 1 s, not 32


@pytest.mark.anyio
async def test_a_thousand_wrong_pins_from_a_thousand_addresses_are_slowed_down_too(
    venue: Venue,
) -> None:
    app, clock = venue
    pins = quick_pins(app)
    for n in range(1000):
        await login(client(app, f"fd00::{n:x}"), wrong(n))
        clock.advance(0.01)
    assert pins.checks < 100


@pytest.mark.anyio
async def test_after_a_spread_out_attack_stops_the_referee_waits_at_most_one_refill(
    venue: Venue,
) -> None:
    app, clock = venue
    quick_pins(app)
    for n in range(300):
        await login(client(app, f"fd00::{n:x}"), wrong(n))
        clock.advance(0.01)
    referee = client(app, REFEREE)
    status, retry = await login(referee, PIN)
    assert status == 429 and 0 < retry <= GLOBAL_INTERVAL  # documented: the venue-wide limit
    clock.advance(retry)
    assert await login(referee, PIN) == (200, 0.0)


# Concurrent attacks: the PIN is hashed in a thread, so requests overlap while it runs.


class OverlapPins(CountingPins):
    """Checks the PIN slowly (a real scrypt hash, as a PIN check costs, the GIL let go
    meanwhile) and records how many checks ran at once."""

    def __init__(self, inner: PinStore) -> None:
        super().__init__(inner)
        self.running = 0
        self.most = 0
        self._lock = threading.Lock()

    def verify(self, pin: object) -> bool:
        with self._lock:
            self.checks += 1
            self.running += 1
            self.most = max(self.most, self.running)
        hashlib.scrypt(str(pin).encode(), salt=b"overlap", n=2**11, r=8, p=1)
        with self._lock:
            self.running -= 1
        return pin == PIN


def overlap_pins(app: FastAPI) -> OverlapPins:
    auth: Auth = app.state.auth
    auth.pins = OverlapPins(pins_of(app).inner)  # type: ignore[assignment]
    return auth.pins  # type: ignore[return-value]


@pytest.mark.anyio
async def test_a_hundred_simultaneous_wrong_pins_from_one_address_get_one_check(
    venue: Venue,
) -> None:
    app, _ = venue
    pins = overlap_pins(app)
    guesser = client(app, GUESSER)
    results = await asyncio.gather(*(login(guesser, wrong(n)) for n in range(100)))
    assert pins.checks == 1
    assert sorted(status for status, _ in results) == [401] + [429] * 99


@pytest.mark.anyio
async def test_simultaneous_guesses_from_many_addresses_meet_the_venue_limit_one_at_a_time(
    venue: Venue,
) -> None:
    app, clock = venue
    pins = overlap_pins(app)
    for burst in range(12):  # bursts of 40 every 5 s for a minute, every address new
        await asyncio.gather(*(login(client(app, f"127.0.{burst}.{n}"), wrong(n))
                               for n in range(40)))
        clock.advance(GLOBAL_INTERVAL)
    assert pins.checks <= GLOBAL_BURST + 12  # the bucket, then one try per refill
    assert pins.most == 1


@pytest.mark.anyio
async def test_a_right_pin_inside_a_burst_waits_when_the_venue_limit_says_wait(
    venue: Venue,
) -> None:
    app, _ = venue
    pins = overlap_pins(app)
    guessers = [login(client(app, f"fd00::{n:x}"), wrong(n)) for n in range(40)]
    referee = login(client(app, REFEREE), PIN)
    results = await asyncio.gather(*guessers[:20], referee, *guessers[20:])
    assert results[20][0] == 429 and 0 < results[20][1] <= GLOBAL_INTERVAL
    assert pins.checks == GLOBAL_BURST
