"""The power goes out, again and again: SIGKILL at random moments of a scripted match.

A child process (``tests/support/kill_child.py``) opens the table as ``skitter serve`` does, replays
the log, and applies steps sent to it, acknowledging each once ``Table.apply_step``
returned. It is killed with SIGKILL at a random moment: while replaying at start, between
steps, or in the middle of a commit. After every kill:

- every acknowledged step is in the log, in order, exactly as sent;
- the log is a clean prefix of what was sent (nothing torn, nothing reordered);
- the restarted table's state equals a replay of the log (checked in the next child).

At least 50 kills in CI; ``SKITTER_FULL_FAULTS=1`` does 300.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import psutil
from matchgen import RULES, SETUP, random_steps
from waiting import wait_until

from scorekeeper.events import parse_event
from scorekeeper.match import Match
from scorekeeper.store import MatchStore

ROOT = Path(__file__).resolve().parents[2]

FULL = os.environ.get("SKITTER_FULL_FAULTS") == "1"
KILLS = 300 if FULL else 50
CHUNK = 200
"""Steps sent to each child before the kill."""


def start(db: Path) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
    return subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "support" / "kill_child.py"), str(db)],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    )


def ready_line(proc: subprocess.Popen[str]) -> dict[str, Any]:
    assert proc.stdout is not None
    readable, _, _ = select.select([proc.stdout], [], [], 30.0)
    line = proc.stdout.readline() if readable else ""
    if not line:
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(f"the child did not start: {err[-2000:]}")
    return json.loads(line)  # type: ignore[no-any-return]


def kill(proc: subprocess.Popen[str]) -> list[int]:
    """SIGKILL ``proc``; the sequence numbers it acknowledged before dying."""
    proc.send_signal(signal.SIGKILL)
    assert proc.stdout is not None and proc.stderr is not None
    out = proc.stdout.read()  # to the end, with what read_acks left in the buffer
    proc.stderr.read()
    proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    return [int(line.split()[1]) for line in out.splitlines() if line.startswith("ack ")]


def read_acks(proc: subprocess.Popen[str], count: int) -> list[int]:
    """The next ``count`` acknowledgements ``proc`` prints, read as they come."""
    assert proc.stdout is not None
    acks: list[int] = []
    while len(acks) < count:
        readable, _, _ = select.select([proc.stdout], [], [], 30.0)
        line = proc.stdout.readline() if readable else ""
        assert line.startswith("ack "), f"the child stopped acknowledging: {line!r}"
        acks.append(int(line.split()[1]))
    return acks


def opening(proc: subprocess.Popen[str], db: Path) -> bool:
    """``proc`` has the log open, or has already ended."""
    return proc.poll() is not None or holds_open(proc, db)


def holds_open(proc: subprocess.Popen[str], db: Path) -> bool:
    """``proc`` has ``db`` open (its table is starting on the log)."""
    try:
        return any(Path(f.path) == db for f in psutil.Process(proc.pid).open_files())
    except psutil.Error:
        return False


def stored_steps(db: Path) -> list[dict[str, Any]]:
    with MatchStore(db) as store:
        match_id = store.latest_match_id()
        assert match_id is not None
        events = store.load(match_id).events
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    return [dict(e.body) for e in events]


class Reference:
    """The match the sent steps make, advanced as the log grows."""

    def __init__(self, steps: list[dict[str, Any]]) -> None:
        self.steps = steps
        self.match = Match(RULES, SETUP, {"black": "Ann", "white": "Bo"})
        self.length = 0

    def state_after(self, n: int) -> dict[str, Any]:
        assert n >= self.length, "the log shrank"
        for step in self.steps[self.length : n]:
            self.match.apply(step)
        self.length = n
        return self.match.state.to_json()  # type: ignore[no-any-return]


def test_sigkill_at_random_moments_loses_no_acknowledged_step(tmp_path: Path) -> None:
    rng = random.Random(66)
    db = tmp_path / "skitter.db"
    with MatchStore(db) as store:
        store.create_match(RULES.to_json(), SETUP.to_json(), {"black": "Ann", "white": "Bo"},
                           at=0.0, meta={"handicaps": {}})
    steps = [parse_event(s).to_json() for s in random_steps(KILLS * CHUNK, seed=66)]
    reference = Reference(steps)
    acknowledged = 0
    killed_mid_stream = killed_at_start = 0

    for _ in range(KILLS):
        proc = start(db)
        if rng.random() < 0.15:  # the plug is pulled while the table is still starting:
            if rng.random() < 0.5:  # at once, or once the child has the log open
                wait_until(partial(opening, proc, db), "the child opening the match log",
                           timeout=30)
            assert kill(proc) == []
            killed_at_start += 1
        else:
            ready = ready_line(proc)
            n = ready["steps"]
            assert n >= acknowledged, f"acknowledged step {acknowledged} lost at restart ({n})"
            assert ready["state"] == reference.state_after(n), "restart differs from a replay"
            sent = steps[n : n + CHUNK]
            assert sent, "the script ran out of steps"
            assert proc.stdin is not None
            proc.stdin.write("".join(json.dumps(s) + "\n" for s in sent))
            proc.stdin.flush()
            # between two steps or in the middle of a commit: once a random number of them
            # are acknowledged (the child is on the next one by then, or past it)
            acks = read_acks(proc, rng.randrange(len(sent)))
            acks += kill(proc)
            assert acks == list(range(n + 1, n + 1 + len(acks))), "acks out of order"
            acknowledged = max(acknowledged, n + len(acks))
            killed_mid_stream += len(acks) < len(sent)
        log = stored_steps(db)
        assert len(log) >= acknowledged, f"{acknowledged} acknowledged, {len(log)} in the log"
        assert log == steps[: len(log)], "the log is not a clean prefix of the steps sent"

    proc = start(db)  # one last restart, left to finish cleanly
    ready = ready_line(proc)
    assert ready["steps"] >= acknowledged
    assert ready["state"] == reference.state_after(ready["steps"])
    proc.communicate(input="", timeout=30)
    assert proc.returncode == 0
    assert killed_mid_stream >= KILLS // 2, "the kills did not land while steps were applied"
    assert killed_at_start > 0 and acknowledged > KILLS
