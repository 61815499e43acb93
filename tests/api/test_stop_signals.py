"""A Ctrl-C or SIGTERM stops a server and the program ends with its own status, wherever the
signal finds it (``web_common.stop``).

Seen: ``skitter hub`` given a Ctrl-C just after its banner stopped cleanly, returned 0, and its
status still said killed by SIGINT, about once in fifteen starts. The Ctrl-C had been raised as
a KeyboardInterrupt inside Python's ``eval`` of a string (FastAPI reading an endpoint's
annotations while the app was made), and CPython takes a KeyboardInterrupt that leaves such an
``eval`` as the end of the program: one that then ends normally (or through ``sys.exit`` under
``python -m``, as the commands run) kills itself with SIGINT on the way out. Each test runs a
small program of its own, since signals are a process's.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.timeout(60)

FAKE_SERVER = """
import os, signal, sys
from web_common.stop import StopSignals

class Server:
    should_exit = False
    def __init__(self, sends=None):
        self.sends = sends
    def run(self, sockets=None):
        print("started")
        if self.sends:  # a signal in the moment the server starts, before uvicorn takes it
            os.kill(os.getpid(), self.sends)
            [n for n in range(100_000)]  # the handler runs here
        print("serving" if not self.should_exit else "stopping once started")

stop = StopSignals()
stop.catch()
"""


def run(program: str, *, ctrl_c_ignored: bool = False) -> subprocess.CompletedProcess[str]:
    """``program`` in a Python of its own (with Ctrl-C ignored from its start, as a script's
    background job is), what it printed and its status."""
    preamble = "import signal; signal.signal(signal.SIGINT, signal.SIG_IGN)\n" \
        if ctrl_c_ignored else ""
    return subprocess.run([sys.executable, "-c", preamble + program], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize("ctrl_c_ignored", [False, True], ids=["from a terminal",
                                                                 "as a background job"])
def test_a_ctrl_c_that_comes_while_fastapi_reads_annotations_ends_the_program_with_status_0(
    ctrl_c_ignored: bool,
) -> None:
    done = run(FAKE_SERVER + """
# FastAPI reads each endpoint's annotations with eval while the app is made: the Ctrl-C
# comes (and its handler runs) inside that eval
eval("[os.kill(os.getpid(), signal.SIGINT)] + [n for n in range(200_000)]")
print("asked to stop by", stop.signal.name)
stop.serve(Server())
print("the server never started")
""", ctrl_c_ignored=ctrl_c_ignored)
    assert done.stdout.splitlines() == ["asked to stop by SIGINT", "the server never started"], \
        done.stdout + done.stderr
    assert done.returncode == 0, f"status {done.returncode}: {done.stderr}"
    assert "Traceback" not in done.stderr and "KeyboardInterrupt" not in done.stderr


def test_a_sigterm_before_the_server_runs_means_it_never_starts() -> None:
    done = run(FAKE_SERVER + """
os.kill(os.getpid(), signal.SIGTERM)
[n for n in range(100_000)]
stop.serve(Server())
print("asked to stop by", stop.signal.name)
""")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["asked to stop by SIGTERM"], done.stdout


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_stop_while_the_server_starts_ends_it_once_started(sig: signal.Signals) -> None:
    done = run(FAKE_SERVER + f"""
stop.serve(Server(sends={int(sig)}))
print("asked to stop by", stop.signal.name)
""")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["started", "stopping once started",
                                        f"asked to stop by {sig.name}"], done.stdout


def test_nothing_asked_the_server_serves() -> None:
    done = run(FAKE_SERVER + """
stop.serve(Server())
print("stop asked:", stop.requested)
""")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["started", "serving", "stop asked: False"], done.stdout
