"""Issue 36 on the served app: its own polling loop, a real clock, the virtual board.

The referee taps "turn ended, no change" (with the ``seq`` the tablet showed) right before,
right after, or at the same moment as Ann's skitt lands on Bo's yellow. Whichever way the
threads fall, the three invariants hold: no shot is scored for a player who did not make
it, the skitt is scored or asked about, and no cell is flagged.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from stall_rig import WAIT_S
from waiting import wait_until
from web_helpers import PIN, state, step

from firmware_bridge.clocks import MonotonicClock, WallClock
from web.api.app import create_app
from web.api.deps import Auth
from web.table.order import UNORDERED_S
from web.table.wiring import open_table
from web_common.broadcaster import Broadcaster
from web_common.pin import PinStore

YELLOW = "white.yellow"


@contextmanager
def serving(tmp_path: Path) -> Iterator[TestClient]:
    """The app with its polling loop running (short debounce and settle windows), Ann and Bo
    playing with both big skitts on their spots, logged in as the referee."""
    clock = MonotonicClock()
    broadcaster = Broadcaster()
    table = open_table(tmp_path / "skitter.db", "sim", clock=clock, wall=WallClock(),
                       settle_ms=60, debounce_ms=10, publish=broadcaster.publish)
    pins = PinStore(tmp_path / "data")
    pins.set(PIN)
    app = create_app(table, Auth.create(pins, clock), broadcaster, poll_interval=0.02)
    try:
        with TestClient(app) as c:
            assert c.post("/api/referee/login", json={"pin": PIN}).status_code == 200
            r = c.post("/api/match/new", json={
                "seq": state(c)["seq"], "names": {"black": "Ann", "white": "Bo"},
                "first": "black"})
            assert r.status_code == 200, r.text
            for by in ("black", "white"):
                r = step(c, {"shot": {"by": by, "big": "placed"}})
                assert r.status_code == 200, r.text
            assert c.post("/api/board/lay-out", json={"seq": state(c)["seq"]}).status_code == 200
            until(lambda: state(c)["tracker"]["mode"] == "ready", "the board is ready", c)
            yield c
    finally:
        table.close()


def until(done: Callable[[], bool], what: str, client: TestClient) -> dict[str, Any]:
    try:
        wait_until(done, what, timeout=WAIT_S)
    except AssertionError as exc:
        raise AssertionError(f"{exc}: {state(client)['tracker']}") from None
    return state(client)


def played(s: dict[str, Any]) -> list[dict[str, Any]]:
    """The standing shots after the big skitts were placed."""
    return [e["step"]["shot"] for e in s["log"] if "shot" in e["step"] and not e["undone"]
            and "big" not in e["step"]["shot"]]


SENT: dict[str, float] = {}
"""When each request left (the landing's) and came back (the tap's), on the test's clock."""


def land(client: TestClient) -> None:
    SENT["land"] = time.monotonic()
    assert client.post("/api/board/place", json={"field": YELLOW}).status_code == 200


def tap(client: TestClient, seq: int) -> None:
    r = client.post("/api/match/no-change", json={"seq": seq})
    SENT["tapped"] = time.monotonic()
    assert r.status_code in (200, 409, 422), r.text


def together(client: TestClient, seq: int) -> None:
    """The landing and the tap from two threads released at once."""
    go = threading.Barrier(2)

    def run(act: Callable[[], None]) -> threading.Thread:
        def body() -> None:
            go.wait(WAIT_S)
            act()
        thread = threading.Thread(target=body, daemon=True)
        thread.start()
        return thread

    threads = [run(lambda: land(client)), run(lambda: tap(client, seq))]
    for thread in threads:
        thread.join(WAIT_S)


@pytest.mark.parametrize("how", ["land-then-tap", "tap-then-land", "together"])
def test_turn_ended_tapped_as_a_skitt_lands_keeps_the_invariants(
    tmp_path: Path, how: str
) -> None:
    with serving(tmp_path) as client:
        seq = state(client)["seq"]  # what the referee's tablet shows: Ann to shoot
        if how == "land-then-tap":
            land(client)
            tap(client, seq)
        elif how == "tap-then-land":
            tap(client, seq)
            land(client)
        else:
            together(client, seq)

        def judged() -> bool:  # the skitt is scored or asked about, never swallowed
            s = state(client)
            scored = any(shot.get("delta") for shot in played(s)) and \
                s["tracker"]["mode"] == "ready"
            return scored or s["tracker"]["mode"] == "review"

        s = until(judged, "the skitt is scored or asked about", client)
        shots = played(s)
        landed = [shot for shot in shots if shot.get("delta")]
        if s["tracker"]["order"] is not None:  # asked: nothing guessed
            assert landed == [], shots
            assert s["words"]["question"]["text"].startswith("Ann's skitt landed on Bo's yellow")
            r = client.post("/api/referee/board/order", json={"seq": s["seq"], "by": "black"})
            assert r.status_code == 200, r.text
            s = until(lambda: state(client)["tracker"]["mode"] == "ready", "scored", client)
            shots = played(s)
            landed = [shot for shot in shots if shot.get("delta")]
        # the landing is Ann's; Bo's only when the skitt began to move clearly after the tap
        # had been answered (a machine so loaded that the two requests lay far apart)
        apart = SENT["land"] - SENT["tapped"] > UNORDERED_S
        for shot in shots:
            if shot.get("delta"):
                assert shot["delta"] == {YELLOW: 1}
                assert shot["by"] == "black" or apart, (shots, SENT)
        assert s["sensors"]["flags"] == []
