"""The MCP23017 source on a Raspberry Pi, through Blinka's real Pi import path.

Blinka is told it runs on a Pi 5 or a Pi 4 (``BLINKA_FORCEBOARD``/``BLINKA_FORCECHIP``) in a
child process, with what a Pi has installed (the ``gpiod`` 2.x binding, from the dev extra),
on a terminal so that any question Blinka asked would show. This machine has no
``/dev/i2c-N``: every command must get as far as opening the bus device and then say, in one
line, which device is missing, why, and how to fix it; never a traceback, never a pip prompt.
"""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest
from serve_proc import free_port

from firmware_bridge.profile import default_profile_path

ROOT = Path(__file__).resolve().parents[2]
BOARDS = ("RASPBERRY_PI_5", "RASPBERRY_PI_4B")


def free_bus() -> int:
    """A bus number with no device here (1 on a machine that is not a Pi)."""
    return next(n for n in range(1, 100) if not Path(f"/dev/i2c-{n}").exists())


def profile_on_bus(tmp_path: Path, bus: int) -> Path:
    text = default_profile_path().read_text()
    assert "[mcp23017]\n" in text
    path = tmp_path / "board.toml"
    path.write_text(text.replace("[mcp23017]\n", f"[mcp23017]\nbus = {bus}\n", 1))
    return path


def run_on_pi(board: str, args: list[str], tmp_path: Path, *,
              extra_path: Path | None = None) -> tuple[int, str, str]:
    """``skitter ARGS`` with Blinka forced to ``board``, stdin and stdout on a terminal."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("SKITTER_", "BLINKA_"))}
    config = tmp_path / "skitter.toml"  # empty: nothing from /etc/skitter on this machine
    config.touch()
    env.update(BLINKA_FORCEBOARD=board, BLINKA_FORCECHIP="BCM2XXX", HOME=str(tmp_path),
               SKITTER_CONFIG=str(config))
    if extra_path is not None:
        env["PYTHONPATH"] = str(extra_path)
    controller, terminal = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "skitter_cli.main", *args], cwd=tmp_path, env=env,
        stdin=terminal, stdout=terminal, stderr=subprocess.PIPE, text=True,
    )
    os.close(terminal)
    shown = b""
    deadline = time.monotonic() + 60
    while proc.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([controller], [], [], 0.2)
        if ready:
            try:
                shown += os.read(controller, 65536)
            except OSError:  # the child closed the terminal: it is exiting
                break
    try:
        proc.wait(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        os.close(controller)
        pytest.fail(f"skitter {args[0]} waited for an answer on the terminal: {shown!r}")
    os.close(controller)
    stderr = proc.stderr.read() if proc.stderr else ""
    return proc.returncode, shown.decode(errors="replace"), stderr


def assert_one_line_bus_error(code: int, stdout: str, stderr: str, bus: int) -> str:
    assert code != 0
    assert "Traceback" not in stderr + stdout, stderr
    assert "[Y/n]" not in stdout and "pip install" not in stderr + stdout
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    line = lines[0]
    assert f"/dev/i2c-{bus}" in line
    assert "I2C is not enabled" in line
    assert "raspi-config nonint do_i2c 0" in line and "dtparam=i2c_arm=on" in line
    assert "group i2c" in line
    return line


def test_the_pi_has_what_blinka_imports():
    import gpiod

    assert int(gpiod.__version__.split(".")[0]) == 2


@pytest.mark.parametrize("board", BOARDS)
def test_serve_on_a_pi_without_i2c_says_which_device_and_how_to_enable_it(board, tmp_path):
    bus = free_bus()
    args = ["serve", "--source", "mcp23017", "--profile", str(profile_on_bus(tmp_path, bus)),
            "--data-dir", str(tmp_path / "data"), "--port", str(free_port())]
    code, stdout, stderr = run_on_pi(board, args, tmp_path)
    line = assert_one_line_bus_error(code, stdout, stderr, bus)
    assert line.startswith("skitter serve: ")


@pytest.mark.parametrize("board", BOARDS)
def test_sensors_on_a_pi_without_i2c_says_the_same(board, tmp_path):
    bus = free_bus()
    args = ["sensors", "--profile", str(profile_on_bus(tmp_path, bus)), "--once"]
    code, stdout, stderr = run_on_pi(board, args, tmp_path)
    assert assert_one_line_bus_error(code, stdout, stderr, bus).startswith("skitter sensors: ")


def test_calibrate_on_a_pi_without_i2c_says_the_same(tmp_path):
    bus = free_bus()
    args = ["calibrate", "--profile", str(profile_on_bus(tmp_path, bus))]
    code, stdout, stderr = run_on_pi("RASPBERRY_PI_5", args, tmp_path)
    line = assert_one_line_bus_error(code, stdout, stderr, bus)
    assert line.startswith("skitter calibrate: ")


def test_the_bus_number_comes_from_the_profile(tmp_path):
    """A HAT on a Pi 5 may sit on another bus: the profile's number is the device opened."""
    args = ["sensors", "--profile", str(profile_on_bus(tmp_path, 87)), "--once"]
    code, stdout, stderr = run_on_pi("RASPBERRY_PI_5", args, tmp_path)
    assert_one_line_bus_error(code, stdout, stderr, 87)


def test_a_pi_without_gpiod_is_told_what_to_install_in_one_line(tmp_path):
    hidden = tmp_path / "hide"
    (hidden / "gpiod").mkdir(parents=True)
    (hidden / "gpiod" / "__init__.py").write_text(
        "raise ModuleNotFoundError(\"No module named 'gpiod'\", name='gpiod')\n"
    )
    args = ["sensors", "--profile", str(profile_on_bus(tmp_path, free_bus())), "--once"]
    code, stdout, stderr = run_on_pi("RASPBERRY_PI_5", args, tmp_path, extra_path=hidden)
    assert code != 0 and "Traceback" not in stderr + stdout, stderr
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "gpiod>=2.2.2,<3" in lines[0] and "install.sh" in lines[0]
