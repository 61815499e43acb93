"""``skitter serve`` as a user runs it: addresses and PIN printed, Ctrl-C, restart, no fallback."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import select
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from serve_proc import free_port, post, start, stop, wait_ready
from waiting import wait_until

from scorekeeper.clock import FakeClock
from skitter_cli.serve import page_addresses
from web.table.wiring import open_table

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(90)
def test_serve_prints_pages_and_pin_stops_on_ctrl_c_and_resumes(tmp_path: Path) -> None:
    port = free_port()
    proc = start(tmp_path, port)
    try:
        wait_ready(port, proc)
    finally:
        out = stop(proc)
    assert f"http://127.0.0.1:{port}/tablet" in out
    assert f"  scoreboard     http://127.0.0.1:{port}/\n" in out  # the labels in a column
    assert "only (this computer)" in out
    pin = out.split("referee PIN (new, shown once; 'skitter set-pin' changes it): ")[1].split()[0]
    assert pin.isdigit()
    assert "stopped" in out

    proc = start(tmp_path, port)
    try:
        before = wait_ready(port, proc)
        _, _, cookie = post(port, "/api/referee/login", {"pin": pin})
        status, after_step, _ = post(
            port, "/api/match/steps",
            {"seq": before["seq"], "step": {"correct": {"score": {"white": 2}, "reason": "t"}}},
            cookie.split(";")[0],
        )
        assert status == 200
    finally:
        out = stop(proc)
    assert "referee PIN: as set before" in out

    proc = start(tmp_path, port)
    try:
        resumed = wait_ready(port, proc)
    finally:
        stop(proc)
    assert resumed["state"]["score"] == {"black": 0, "white": 2}
    assert resumed["log"] == after_step["log"]


def test_asking_for_expanders_without_an_i2c_bus_stops_with_a_message(tmp_path: Path) -> None:
    """Said before the web app is loaded (on a Pi that takes seconds): ``skitter serve`` run
    as the console script runs it, and asked afterwards what it had imported."""
    probe = ("import sys\n"
             "from skitter_cli.main import main\n"
             "status = main(sys.argv[1:])\n"
             "print('loaded:', *(m for m in ('fastapi', 'uvicorn') if m in sys.modules))\n"
             "sys.exit(status)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
    result = subprocess.run(
        [sys.executable, "-c", probe, "serve", "--data-dir", str(tmp_path),
         "--port", str(free_port()), "--source", "mcp23017"],
        cwd=ROOT, env=env | {"HOME": str(tmp_path)}, capture_output=True, text=True,
        timeout=60, check=False)
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "I2C" in out
    assert "Uvicorn running" not in out and "scoreboard" not in out
    assert "loaded:\n" in result.stdout, out


def test_a_serial_port_that_does_not_exist_yet_is_a_link_down_not_an_error(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    table = open_table(tmp_path / "s.db", "serial:/dev/skitter-not-plugged-in", clock=clock,
                       wall=clock)
    try:
        table.tick()
        body = table.snapshot()
    finally:
        table.close()
    assert body["link"]["up"] is False
    assert body["alerts"][0]["kind"] == "link"


def test_serving_every_interface_prints_the_host_name_address() -> None:
    addresses = page_addresses("0.0.0.0", 8000)
    assert f"http://{socket.gethostname()}.local:8000/" in addresses
    assert addresses[-1] == "http://127.0.0.1:8000/"


def test_serving_one_address_prints_just_it() -> None:
    assert page_addresses("127.0.0.1", 8123) == ["http://127.0.0.1:8123/"]


# -- a hostile network (issue 12, items 7, 9 and 12) ----------------------------------------


def login_status(port: int, pin: str, headers: dict[str, str]) -> int:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/referee/login", data=json.dumps({"pin": pin}).encode(),
        method="POST", headers={"Content-Type": "application/json", **headers},
    )
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return int(r.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


@pytest.mark.timeout(60)
def test_sigterm_stops_like_ctrl_c(tmp_path: Path) -> None:
    port = free_port()
    proc = start(tmp_path, port)
    wait_ready(port, proc)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0, out
    assert "skitter: stopped" in out
    wal = tmp_path / "skitter.db-wal"
    assert not wal.exists() or wal.stat().st_size == 0  # closed: the WAL is checkpointed


@pytest.mark.timeout(60)
def test_x_forwarded_for_does_not_dodge_the_pin_throttle(tmp_path: Path) -> None:
    port = free_port()
    proc = start(tmp_path, port, "--pin", "135790")
    try:
        wait_ready(port, proc)
        first = login_status(port, "000000", {"X-Forwarded-For": "203.0.113.1"})
        second = login_status(port, "000000", {"X-Forwarded-For": "203.0.113.2"})
    finally:
        stop(proc)
    assert (first, second) == (401, 429)


@pytest.mark.timeout(60)
def test_the_pin_comes_from_a_file_or_the_environment_and_a_typed_one_warns(
    tmp_path: Path,
) -> None:
    port = free_port()
    (tmp_path / "pin.txt").write_text("246813\n")
    proc = start(tmp_path, port, "--pin-file", str(tmp_path / "pin.txt"))
    try:
        wait_ready(port, proc)
        assert login_status(port, "246813", {}) == 200
    finally:
        out = stop(proc)
    assert "warning" not in out and "246813" not in out
    proc = start(tmp_path, port, "--pin", "112233", "--mqtt", "mqtt://u:hunter2@127.0.0.1:1")
    try:
        wait_ready(port, proc)
    finally:
        out = stop(proc)
    assert "--pin puts the PIN where every user" in out
    assert "--mqtt address holds a password" in out and "hunter2" not in out


@pytest.mark.timeout(60)
def test_slow_clients_are_cut_off_and_never_exhaust_the_descriptors(tmp_path: Path) -> None:
    def low_fd_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))

    request_seconds = 1  # the venue's setting; 5 s unless set
    config = tmp_path / "skitter.toml"
    config.write_text(f"request_seconds = {request_seconds}\n")
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "skitter_cli.main", "serve", "--data-dir", str(tmp_path),
         "--port", str(port)], cwd=ROOT,
        env=env | {"HOME": str(tmp_path), "SKITTER_CONFIG": str(config)},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=low_fd_limit,
    )
    slow: list[socket.socket] = []
    try:
        wait_ready(port, proc)
        for _ in range(250):  # more than the process may hold open
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"G")
            slow.append(s)
        def all_cut() -> bool:
            """Every slow client cut (its socket reads as closed); the others are sent one
            byte more, never a whole request."""
            cut, _, _ = select.select(slow, [], [], 0)
            for s in slow:
                if s not in cut:
                    with contextlib.suppress(OSError):
                        s.send(b"E")
            return len(cut) == len(slow)

        with contextlib.suppress(AssertionError):  # counted below, one by one
            wait_until(all_cut, "the server cutting every slow client",
                       timeout=request_seconds + 5, every=0.2)
        open_ones = 0
        for s in slow:
            s.settimeout(0.2)
            try:
                s.recv(1)  # b"" or a reset: the server closed it
            except TimeoutError:
                open_ones += 1
            except OSError:
                pass
        assert open_ones == 0, f"{open_ones} slow connections still held"
        assert wait_ready(port, proc)["seq"] >= 0
    finally:
        for s in slow:
            s.close()
        out = stop(proc)
    assert "Too many open files" not in out
