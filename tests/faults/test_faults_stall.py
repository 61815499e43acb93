"""A disk that stalls: changes wait on the one writer thread, everything else stays live.

With the file system frozen, a commit waits; it used to wait on the event loop, so
``/healthz``, ``/api/state`` and every page froze with it. Now the step waits on the writer:
health and state answer at once (health names the stalled disk, 503), the step is answered
when it commits, and one that waits longer than the table's ``write_timeout`` is answered
503 while the writer still finishes it: it reaches the log exactly once, never lost.
The stall is the store's connection on a :class:`~stall_rig.StallingDisk` (a frozen file
system needs root).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from stall_rig import WAIT_S, StallingDisk, answered, events_stored, in_thread
from waiting import wait_until
from web_helpers import logged_in, state, step

from web.table.table import Table

SHOT = {"shot": {"by": "black", "big": "placed"}}


@pytest.fixture
def disk() -> StallingDisk:
    return StallingDisk()


@pytest.fixture
def referee(make_client: Callable[..., TestClient], disk: StallingDisk) -> TestClient:
    """The referee's client on a table whose match log lies on ``disk``."""
    return logged_in(make_client(connect=disk.connect))


def test_while_a_step_waits_on_a_stalled_disk_health_and_state_answer(
    referee: TestClient, disk: StallingDisk,
) -> None:
    table: Table = referee.app.state.table  # type: ignore[attr-defined]
    stalled = disk.stall()
    seq = state(referee)["seq"]
    try:
        poster, posted = in_thread(lambda: step(referee, SHOT, seq))
        assert stalled.reached.wait(WAIT_S)
        reader, read = in_thread(lambda: (referee.get("/healthz"), referee.get("/api/state")))
        reader.join(WAIT_S)
        assert not reader.is_alive(), "health and state froze with the disk"
        health, now = read["result"]
        assert health.status_code == 503
        assert any("the disk did not answer" in p for p in health.json()["problems"])
        assert now.status_code == 200 and now.json()["log_length"] == 0
    finally:
        stalled.released.set()
    poster.join(WAIT_S)
    assert not poster.is_alive()
    assert posted["result"].status_code == 200, posted["result"].text
    assert posted["result"].json()["log_length"] == 1
    assert events_stored(table) == [SHOT]
    assert referee.get("/healthz").json()["store"]["ok"] is True


def test_a_new_live_socket_opens_and_gets_the_state_while_the_disk_stalls(
    referee: TestClient, disk: StallingDisk,
) -> None:
    before = state(referee)
    stalled = disk.stall()
    try:
        poster, posted = in_thread(lambda: step(referee, SHOT, before["seq"]))
        assert stalled.reached.wait(WAIT_S)

        def first_message() -> dict[str, object]:
            with referee.websocket_connect("/ws") as ws:
                return dict(ws.receive_json())

        shown = answered(first_message)
        assert shown["seq"] == before["seq"] and shown["state"] == before["state"]
        assert shown["log_length"] == 0  # the step waiting on the disk is not shown yet
    finally:
        stalled.released.set()
    poster.join(WAIT_S)
    assert not poster.is_alive()
    assert posted["result"].status_code == 200, posted["result"].text


def test_a_step_waiting_longer_than_the_timeout_is_503_and_still_stored_once(
    referee: TestClient, disk: StallingDisk,
) -> None:
    table: Table = referee.app.state.table  # type: ignore[attr-defined]
    table.write_timeout = 0.5
    stalled = disk.stall()
    release = threading.Timer(WAIT_S, stalled.released.set)  # ends the stall even if it hangs
    release.start()
    try:
        response = step(referee, SHOT)
        assert response.status_code == 503
        assert response.json()["detail"] == (
            "match log cannot be written: the disk did not answer within 0.5 s; the change "
            "is still being written and shows on the screens once it is stored (do not send "
            "it again)"
        )
        assert state(referee)["log_length"] == 0
    finally:
        stalled.released.set()
        release.cancel()
    wait_until(lambda: state(referee)["log_length"] != 0, "the stalled step to be stored",
               timeout=WAIT_S)
    assert state(referee)["log_length"] == 1
    assert events_stored(table) == [SHOT]
