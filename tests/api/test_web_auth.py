"""The referee PIN: wrong PINs are slowed down per client, by the clock, never for long."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_helpers import PIN

from scorekeeper.clock import FakeClock
from web_common.auth import CAP_DELAY, FORGET, LoginThrottle, Sessions, delay_after


def login(client: TestClient, pin: str) -> tuple[int, str | None]:
    response = client.post("/api/referee/login", json={"pin": pin})
    return response.status_code, response.headers.get("retry-after")


def test_wrong_pin_is_401_and_the_next_try_must_wait(client: TestClient) -> None:
    assert login(client, "0000") == (401, "1")
    # even the right PIN is not looked at during the wait
    assert login(client, PIN) == (429, "1")


def test_right_pin_after_the_wait_opens_a_session(
    client: TestClient, fake_clock: FakeClock
) -> None:
    login(client, "0000")
    fake_clock.advance(1.0)
    assert login(client, PIN)[0] == 200
    assert client.get("/api/referee/session").json() == {"referee": True}


def test_each_wrong_pin_doubles_the_wait(client: TestClient, fake_clock: FakeClock) -> None:
    waits = []
    for _ in range(4):
        status, retry = login(client, "0000")
        assert status == 401
        waits.append(int(retry or 0))
        fake_clock.advance(float(retry or 0))
    assert waits == [1, 2, 4, 8]


def test_the_wait_is_capped_so_the_referee_is_never_locked_out_for_long() -> None:
    assert [delay_after(n) for n in (1, 5, 6, 50)] == [1.0, 16.0, CAP_DELAY, CAP_DELAY]
    assert CAP_DELAY <= 30


def test_wrong_pins_are_forgotten_after_a_quiet_while() -> None:
    clock = FakeClock()
    throttle = LoginThrottle(clock)
    for _ in range(6):
        throttle.failed("10.0.0.9")
    clock.advance(FORGET)
    assert throttle.wait_for("10.0.0.9") == 0.0
    assert throttle.failed("10.0.0.9") == 1.0


def test_one_guessing_client_does_not_slow_down_another() -> None:
    throttle = LoginThrottle(FakeClock())
    throttle.failed("10.0.0.66")
    assert throttle.wait_for("10.0.0.66") > 0
    assert throttle.wait_for("10.0.0.2") == 0.0


def test_sessions_expire_by_the_clock() -> None:
    clock = FakeClock()
    sessions = Sessions(clock)
    session = sessions.open()
    assert sessions.get(session.token) == session
    clock.set(session.expires)
    assert sessions.get(session.token) is None


def test_forged_cookie_gets_401(client: TestClient) -> None:
    client.cookies.set("skitter_session", "not-a-session")
    response = client.post("/api/match/undo", json={"seq": 1})
    assert response.status_code == 401
