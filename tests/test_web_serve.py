"""``skitter serve`` as a user runs it: addresses and PIN printed, Ctrl-C, restart, no fallback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from serve_proc import free_port, post, start, stop, wait_ready

from scorekeeper.clock import FakeClock
from web.cli.serve import page_addresses
from web.table.wiring import open_table

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.timeout(90)
def test_serve_prints_pages_and_pin_stops_on_ctrl_c_and_resumes(tmp_path: Path) -> None:
    port = free_port()
    proc = start(tmp_path, port)
    try:
        wait_ready(port, proc)
    finally:
        out = stop(proc)
    assert f"http://127.0.0.1:{port}/tablet" in out
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
    proc = start(tmp_path, free_port(), "--source", "mcp23017")
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert "I2C" in out
    assert "Uvicorn running" not in out and "scoreboard" not in out


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
