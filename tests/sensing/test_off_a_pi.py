"""Started off a Raspberry Pi (this x86 machine, a laptop with a Pico on USB), skitter says
each real condition once, in one plain line: no gpiozero pin-library warnings, no advice
meant for a Pi ("on this Pi"), the sensor link's state at most once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ports import free_port

from firmware_bridge.pi_model import raspberry_pi_model

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(raspberry_pi_model() is not None,
                                reason="checks what a computer other than a Pi says")


def env_for(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("SKITTER_") and k != "GPIOZERO_PIN_FACTORY"}
    config = home / "skitter.toml"
    config.touch()
    env.update(HOME=str(home), SKITTER_CONFIG=str(config), LANG="C.UTF-8")
    return env


def test_the_model_file_decides(tmp_path: Path) -> None:
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0")
    assert raspberry_pi_model(model, {}) == "Raspberry Pi 4 Model B Rev 1.5"
    model.write_bytes(b"Radxa ROCK 5B\0")
    assert raspberry_pi_model(model, {}) is None
    assert raspberry_pi_model(tmp_path / "absent", {}) is None


def test_a_board_blinka_is_told_to_be_counts_as_that_pi(tmp_path: Path) -> None:
    forced = {"BLINKA_FORCEBOARD": "RASPBERRY_PI_5", "BLINKA_FORCECHIP": "BCM2XXX"}
    assert raspberry_pi_model(tmp_path / "absent", forced) == "Raspberry Pi 5"
    assert raspberry_pi_model(tmp_path / "absent", {"BLINKA_FORCEBOARD": "ROCK_5B"}) is None


def test_serve_with_a_usb_board_off_a_pi_says_each_thing_once(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "skitter_cli.main", "serve", "--source", "serial:/dev/ttyNOPE",
         "--data-dir", str(tmp_path / "data"), "--port", str(port)],
        cwd=ROOT, env=env_for(tmp_path) | {"PYTHONFAULTHANDLER": "1"},  # threads on SIGABRT
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 90
        out: list[str] = []
        assert proc.stdout is not None
        while not any("Ctrl-C stops" in line for line in out):
            assert time.monotonic() < deadline and proc.poll() is None, "".join(out)
            out.append(proc.stdout.readline())
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            rest, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGABRT)  # each thread's stack, to see what held it
            try:
                _, err = proc.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
            raise AssertionError("skitter serve did not stop within 60 s of a Ctrl-C; "
                                 f"said then:\n{err[-8000:]}") from None
    said = "".join(out) + rest + err
    assert "PinFactoryFallback" not in said and "Warning" not in said, said
    assert "on this Pi" not in said
    assert said.count("sensor link down") <= 1
    gpio = [line for line in said.splitlines() if "GPIO" in line]
    assert gpio == ["skitter: GPIO buttons and LEDs unavailable (this computer is not a "
                    "Raspberry Pi); the tablet does their work"], said


def test_the_expanders_off_a_pi_are_one_line_that_names_what_to_use(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "skitter_cli.main", "serve", "--source", "mcp23017",
         "--data-dir", str(tmp_path / "data"), "--port", str(free_port())],
        cwd=ROOT, env=env_for(tmp_path), capture_output=True, text=True, timeout=120,
        check=False,
    )
    assert result.returncode == 1
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert "this computer is not a Raspberry Pi" in line and "--source serial" in line
    assert "on this Pi" not in line and "raspi-config" not in line


def test_a_missing_usb_board_is_one_reason_said_once(tmp_path: Path) -> None:
    """``skitter sensors`` on a port that is not there: the link is down, said once, with the
    system's reason once (pyserial's message repeats it, Errno and all)."""
    result = subprocess.run(
        [sys.executable, "-m", "skitter_cli.main", "sensors", "--source", "serial:/dev/ttyNOPE",
         "--once"],
        cwd=ROOT, env=env_for(tmp_path), capture_output=True, text=True, timeout=120,
        check=False,
    )
    first = result.stdout.splitlines()[0]
    assert first == ("board default · source serial · sensor link down: cannot open "
                     "/dev/ttyNOPE: No such file or directory"), result.stdout + result.stderr
    said = result.stdout + result.stderr
    assert said.count("link down") + said.count("DOWN") == 1
    assert "Errno" not in said
