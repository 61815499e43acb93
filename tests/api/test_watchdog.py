"""systemd notification with a fake ``NOTIFY_SOCKET``: READY once serving, pings while alive.

systemd's side is a Unix datagram socket the test binds, exactly what the service manager
hands a ``Type=notify`` unit. A blocked event loop, writer or sensing thread must stop the
``WATCHDOG=1`` pings (so systemd restarts the service); they come back once it answers.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fake_systemd import FakeSystemd
from serve_proc import free_port
from waiting import wait_until, wait_until_async

from web_common.watchdog import Watchdog

ROOT = Path(__file__).resolve().parents[2]
INTERVAL = 0.05


@pytest.fixture
def systemd(tmp_path: Path) -> Iterator[FakeSystemd]:
    fake = FakeSystemd(tmp_path / "notify")
    yield fake
    fake.close()


def run_watchdog(systemd: FakeSystemd, threads, during, rounds: list[bool] | None = None,
                 ) -> None:
    """Run a Watchdog on a fresh loop while ``during(loop)`` runs, then stop it; each of its
    rounds (whether every thread answered) is added to ``rounds``."""
    watchdog = Watchdog.from_environ(
        {"NOTIFY_SOCKET": str(systemd.path), "WATCHDOG_USEC": str(int(INTERVAL * 2e6))},
        serving=lambda: True,
    )
    assert watchdog is not None and watchdog.interval == pytest.approx(INTERVAL)
    if rounds is not None:
        answering = watchdog.answering

        async def counted(threads):
            answered = await answering(threads)
            rounds.append(answered)
            return answered

        watchdog.answering = counted

    async def main() -> None:
        task = asyncio.create_task(watchdog.run(threads))
        await during()
        task.cancel()

    asyncio.run(main())


def test_not_under_systemd_there_is_no_watchdog():
    assert Watchdog.from_environ({}, serving=lambda: True) is None


def test_the_watchdog_belongs_to_the_pid_systemd_names(systemd):
    env = {"NOTIFY_SOCKET": str(systemd.path), "WATCHDOG_USEC": "1000000",
           "WATCHDOG_PID": str(os.getpid() + 1)}
    assert Watchdog.from_environ(env, serving=lambda: True).interval is None


def test_ready_then_steady_pings_while_every_thread_answers(systemd):
    writer, sensing = ThreadPoolExecutor(1), ThreadPoolExecutor(1)

    async def during() -> None:
        await wait_until_async(lambda: systemd.pings(0) >= 5, "five pings")

    try:
        run_watchdog(systemd, [writer, sensing], during)
    finally:
        writer.shutdown()
        sensing.shutdown()
    messages = [m for _, m in systemd.drain()]
    assert messages[0].splitlines()[0] == "READY=1"
    assert messages.count("WATCHDOG=1") >= 5


@pytest.mark.parametrize("stuck", ["writer", "sensing"])
def test_a_stuck_thread_stops_the_pings_until_it_answers(systemd, stuck):
    threads = {"writer": ThreadPoolExecutor(1), "sensing": ThreadPoolExecutor(1)}
    release = threading.Event()
    marks: dict[str, float] = {}
    rounds: list[bool] = []

    async def during() -> None:
        await wait_until_async(lambda: systemd.pings(0) >= 2, "two pings")
        marks["block"] = time.monotonic()
        threads[stuck].submit(release.wait)
        before = len(rounds)
        # a ping already under way may still land: the quiet starts once a round has found
        # the thread stuck and every datagram sent until then is recorded
        await wait_until_async(lambda: False in rounds[before:], "a round finding it stuck")
        marks["quiet"] = await asyncio.to_thread(systemd.caught_up)
        stuck_rounds = len(rounds)
        await wait_until_async(
            lambda: len(rounds) >= stuck_rounds + 3 and not any(rounds[stuck_rounds:]),
            "three more rounds with the thread stuck")
        marks["release"] = await asyncio.to_thread(systemd.caught_up)
        release.set()
        await wait_until_async(lambda: systemd.pings(marks["release"]) >= 2,
                               "two pings once the thread answers")
        marks["end"] = time.monotonic() + 1

    try:
        run_watchdog(systemd, list(threads.values()), during, rounds)
    finally:
        release.set()
        for executor in threads.values():
            executor.shutdown()
    assert systemd.pings(0, marks["block"]) >= 2
    assert systemd.pings(marks["quiet"], marks["release"]) == 0
    assert systemd.pings(marks["release"], marks["end"]) >= 2


def test_a_blocked_event_loop_stops_the_pings(systemd):
    marks: dict[str, float] = {}

    async def during() -> None:
        await wait_until_async(lambda: systemd.pings(0) >= 2, "two pings")
        marks["block"] = time.monotonic()
        # blocks the loop itself (nothing else on it runs) until systemd's deadline (two
        # intervals) has passed six times over since the last ping it got
        wait_until(lambda: time.monotonic() - max(systemd.last_ping(), marks["block"])
                   >= 12 * INTERVAL, "twelve watchdog intervals without a ping")
        marks["release"] = time.monotonic()
        await wait_until_async(lambda: systemd.pings(marks["release"]) >= 2,
                               "two pings once the loop runs again")
        marks["end"] = time.monotonic() + 1

    run_watchdog(systemd, [], during)
    assert systemd.pings(0, marks["block"]) >= 2
    # The datagram of the ping sent just before the block may arrive inside it; no other.
    assert systemd.pings(marks["block"] + INTERVAL, marks["release"]) == 0
    assert systemd.pings(marks["release"], marks["end"]) >= 2


def test_skitter_serve_says_ready_once_serving_and_keeps_pinging(systemd, tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
    config = tmp_path / "skitter.toml"
    config.touch()
    env.update(NOTIFY_SOCKET=str(systemd.path), WATCHDOG_USEC="200000",
               SKITTER_CONFIG=str(config), HOME=str(tmp_path))
    proc = subprocess.Popen(
        [sys.executable, "-m", "skitter_cli.main", "serve", "--data-dir", str(tmp_path / "data"),
         "--port", str(port)],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        ready = systemd.wait_for("READY=1")
        # READY means serving: the port answers at once.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
            assert r.status == 200
        wait_until(lambda: systemd.pings(ready) >= 4, "four pings after READY")
        assert systemd.pings(ready, time.monotonic()) >= 4
    finally:
        proc.send_signal(signal.SIGINT)
        output = proc.communicate(timeout=30)[0]
    assert proc.returncode == 0, output
    assert systemd.wait_for("STOPPING=1") > 0
