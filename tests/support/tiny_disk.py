"""A real, tiny disk for the full-disk tests in ``tests/faults``: a 256 kB tmpfs (root only;
under ``CI`` a missing mount is a failure, not a skip), the web app with its match log on it,
and a way to fill it to the last block. The fixture reaches those tests through
``tests/faults/conftest.py``."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from web_helpers import PIN, logged_in

from scorekeeper.clock import FakeClock


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
    """Fill ``disk`` to its last block; the file that does it (unlink it to make room)."""
    ballast = disk / "ballast"
    try:
        with ballast.open("wb") as out:
            while True:
                out.write(b"\0" * 4096)
                out.flush()
    except OSError:
        pass
    return ballast


@contextmanager
def referee_on(disk: Path, clock: FakeClock) -> Iterator[TestClient]:
    """The app on the simulated board with its match log and PIN on ``disk``, logged in as
    the referee; the table is closed afterwards."""
    from web.api.app import create_app
    from web.api.deps import Auth
    from web.table.wiring import open_table
    from web_common.broadcaster import Broadcaster
    from web_common.pin import PinStore

    pins = PinStore(disk / "data")
    pins.set(PIN)
    broadcaster = Broadcaster()
    table = open_table(disk / "skitter.db", "sim", clock=clock, wall=clock,
                       publish=broadcaster.publish)
    try:
        with TestClient(create_app(table, Auth.create(pins, clock), broadcaster,
                                   poll_interval=None)) as client:
            yield logged_in(client)
    finally:
        table.close()
