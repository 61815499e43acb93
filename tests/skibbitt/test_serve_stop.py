"""``skibbitt serve`` stops on Ctrl-C as a program does: it says it stopped and ends with
status 0, never a traceback, whether the Ctrl-C comes while it serves or just after it said
where the page is, and however it was started (a script's background job, ``skibbitt serve
&``, starts with Ctrl-C ignored)."""

from __future__ import annotations

import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from ports import free_port
from serve_proc import ctrl_c
from waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
STARTED = {"from a terminal": "SIG_DFL", "as a background job": "SIG_IGN"}
"""How Ctrl-C (SIGINT) is handed to the program: as is, or ignored."""
LAUNCH = ("import os, signal, sys; signal.signal(signal.SIGINT, getattr(signal, sys.argv[1]));"
          " os.execv(sys.argv[2], sys.argv[2:])")
"""Runs a command with Ctrl-C as it is given: what it was handed survives the exec."""


def answers(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/puzzle/", timeout=1).close()
        return True
    except OSError:
        return False


@pytest.mark.timeout(60)
@pytest.mark.parametrize("moment", ["while serving", "just after the banner"])
@pytest.mark.parametrize("started", STARTED)
def test_a_ctrl_c_stops_the_puzzle_server_with_a_sentence(started: str, moment: str) -> None:
    port = free_port()
    command = [sys.executable, "-m", "skibbitt_app.cli", "serve", "--port", str(port)]
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, STARTED[started], *command], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    banner = proc.stdout.readline()
    assert "/puzzle/" in banner, banner + proc.communicate()[0]
    if moment == "while serving":
        wait_until(lambda: answers(port), "the puzzle page", timeout=20, every=0.05)
    out = ctrl_c(proc, f"skibbitt serve, given one {moment},", banner)
    assert "Traceback" not in out and "KeyboardInterrupt" not in out, out
    assert out.strip() == "Skibbitt: stopped", out
    assert proc.returncode == 0, out


@pytest.mark.timeout(60)
def test_systemds_stop_ends_the_puzzle_server_as_a_ctrl_c_does() -> None:
    """SIGTERM (``systemctl stop``, a container's stop) is a stop asked for, not a crash."""
    import signal

    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "skibbitt_app.cli", "serve", "--port",
                             str(port)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    banner = proc.stdout.readline()
    assert "/puzzle/" in banner, banner + proc.communicate()[0]
    wait_until(lambda: answers(port), "the puzzle page", timeout=20, every=0.05)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=20)
    assert out.strip() == "Skibbitt: stopped", out
    assert proc.returncode == 0, out
