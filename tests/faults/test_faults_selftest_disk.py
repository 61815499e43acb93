"""A self-test stopped on a full disk: sensing resumes, the sheet is kept in memory and
written once there is room, and the view (the referee page) says it is not saved yet.

On a real, tiny tmpfs (root only; under ``CI`` a missing mount is a failure, not a skip),
unmounted afterwards.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import PIN, state

from scorekeeper.clock import FakeClock
from web.table import selftest_record


@pytest.fixture
def tiny_disk(tmp_path: Path) -> Iterator[Path]:
    """A 256 kB tmpfs, unmounted afterwards; only root can mount one."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)],
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        why = f"cannot mount a tmpfs here: {done.stderr.strip() or done.returncode}"
        if os.environ.get("CI"):
            pytest.fail(why + " (CI must run this as root)")
        pytest.skip(why)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(disk: Path) -> Path:
    """Fill ``disk`` to its last block; the file that does it."""
    ballast = disk / "ballast"
    try:
        with ballast.open("wb") as out:
            while True:
                out.write(b"\0" * 4096)
                out.flush()
    except OSError:
        pass
    return ballast


def test_a_self_test_stopped_on_a_full_disk_resumes_sensing_and_keeps_the_sheet(
    tiny_disk: Path, fake_clock: FakeClock,
) -> None:
    from web.api.app import create_app
    from web.api.broadcaster import Broadcaster
    from web.api.deps import Auth
    from web.config.pin import PinStore
    from web.table.wiring import open_table

    pins = PinStore(tiny_disk / "data")
    pins.set(PIN)
    broadcaster = Broadcaster()
    table = open_table(tiny_disk / "skitter.db", "sim", clock=fake_clock, wall=fake_clock,
                       publish=broadcaster.publish)
    try:
        with TestClient(create_app(table, Auth.create(pins, fake_clock), broadcaster,
                                   poll_interval=None)) as client:
            assert client.post("/api/referee/login", json={"pin": PIN}).status_code == 200
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
    finally:
        table.close()
