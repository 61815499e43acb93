"""A self-test stopped on a full disk: sensing resumes, the sheet is kept in memory and
written once there is room, and the view (the referee page) says it is not saved yet.

On a real, tiny tmpfs (root only; under ``CI`` a missing mount is a failure, not a skip),
unmounted afterwards.
"""

from __future__ import annotations

from pathlib import Path

from tiny_disk import fill, referee_on
from web_helpers import state

from scorekeeper.clock import FakeClock
from web.table import selftest_record


def test_a_self_test_stopped_on_a_full_disk_resumes_sensing_and_keeps_the_sheet(
    tiny_disk: Path, fake_clock: FakeClock,
) -> None:
    with referee_on(tiny_disk, fake_clock) as client:
        assert client.post("/api/referee/selftest/start", json={"run": 0}).status_code == 200
        assert state(client)["sensing"]["paused"] is True
        ballast = fill(tiny_disk)

        stopped = client.post("/api/referee/selftest/stop", json={"run": 1})
        assert stopped.status_code == 200, stopped.text
        view = stopped.json()
        assert view["running"] is False and view["saved"] is False
        assert view["last"] is not None and view["last"]["complete"] is False
        assert state(client)["sensing"]["paused"] is False
        assert selftest_record.load(tiny_disk) is None
        assert client.get("/api/selftest").json()["saved"] is False  # still full

        ballast.unlink()  # room again: the next look writes it
        again = client.get("/api/selftest").json()
        assert again["saved"] is True
        assert selftest_record.load(tiny_disk)["date"] == view["last"]["date"]
