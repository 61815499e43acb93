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
import queue
import random
import signal
import subprocess
import sys
import threading
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


class Child:
    """A child process and its output, read line by line on a thread as it comes.

    (``select`` on the pipe would miss lines ``readline`` had already buffered: once the child
    had written its last acknowledgements in one go, the wait for the next one timed out.)"""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)  # the end of its output

    def _read_errors(self) -> None:  # never left to fill the pipe and stop the child
        assert self.proc.stderr is not None
        self.errors.extend(self.proc.stderr)

    def line(self, what: str) -> str:
        """The child's next line; an error saying ``what`` was awaited, and what the child
        said on stderr, when it ends its output or says nothing for 30 s."""
        try:
            line = self.lines.get(timeout=30.0)
        except queue.Empty:
            line = ""
        if line is None or not line:
            ended = "ended its output" if line is None else "said nothing for 30 s"
            raise AssertionError(f"waiting for {what}, the child {ended}: "
                                 f"{''.join(self.errors)[-2000:]}")
        return line


def start(db: Path) -> Child:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
    return Child(subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "support" / "kill_child.py"), str(db)],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True,
    ))


def ready_line(child: Child) -> dict[str, Any]:
    try:
        line = child.line("its start")
    except AssertionError:
        child.proc.kill()
        raise
    return json.loads(line)  # type: ignore[no-any-return]


def kill(child: Child) -> list[int]:
    """SIGKILL the child; the sequence numbers it acknowledged before dying."""
    child.proc.send_signal(signal.SIGKILL)
    child.proc.wait(timeout=30)
    assert child.proc.returncode == -signal.SIGKILL
    out: list[str] = []
    while (line := child.lines.get(timeout=30)) is not None:  # to the end of its output
        out.append(line)
    return [int(line.split()[1]) for line in out if line.startswith("ack ")]


def read_acks(child: Child, count: int) -> list[int]:
    """The next ``count`` acknowledgements the child prints, read as they come."""
    acks: list[int] = []
    while len(acks) < count:
        line = child.line(f"acknowledgement {len(acks) + 1} of {count}")
        assert line.startswith("ack "), f"the child stopped acknowledging: {line!r}"
        acks.append(int(line.split()[1]))
    return acks


def opening(child: Child, db: Path) -> bool:
    """The child has the log open, or has already ended."""
    return child.proc.poll() is not None or holds_open(child.proc, db)


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
        child = start(db)
        if rng.random() < 0.15:  # the plug is pulled while the table is still starting:
            if rng.random() < 0.5:  # at once, or once the child has the log open
                wait_until(partial(opening, child, db), "the child opening the match log",
                           timeout=30)
            assert kill(child) == []
            killed_at_start += 1
        else:
            ready = ready_line(child)
            n = ready["steps"]
            assert n >= acknowledged, f"acknowledged step {acknowledged} lost at restart ({n})"
            assert ready["state"] == reference.state_after(n), "restart differs from a replay"
            sent = steps[n : n + CHUNK]
            assert sent, "the script ran out of steps"
            assert child.proc.stdin is not None
            child.proc.stdin.write("".join(json.dumps(s) + "\n" for s in sent))
            child.proc.stdin.flush()
            # between two steps or in the middle of a commit: once a random number of them
            # are acknowledged (the child is on the next one by then, or past it)
            acks = read_acks(child, rng.randrange(len(sent)))
            acks += kill(child)
            assert acks == list(range(n + 1, n + 1 + len(acks))), "acks out of order"
            acknowledged = max(acknowledged, n + len(acks))
            killed_mid_stream += len(acks) < len(sent)
        log = stored_steps(db)
        assert len(log) >= acknowledged, f"{acknowledged} acknowledged, {len(log)} in the log"
        assert log == steps[: len(log)], "the log is not a clean prefix of the steps sent"

    child = start(db)  # one last restart, left to finish cleanly
    ready = ready_line(child)
    assert ready["steps"] >= acknowledged
    assert ready["state"] == reference.state_after(ready["steps"])
    assert child.proc.stdin is not None
    child.proc.stdin.close()
    assert child.proc.wait(timeout=30) == 0
    assert killed_mid_stream >= KILLS // 2, "the kills did not land while steps were applied"
    assert killed_at_start > 0 and acknowledged > KILLS
