"""What a request and a start cost ``skitter serve``: the server process's own processor time.

    python bench/request_cost.py [--requests 2000] [--rounds 3] [--before REF]

For each checkout (this one, and with ``--before`` the commit ``REF`` unpacked beside it with
``git archive``), ``rounds`` times, taking turns so a slow stretch of the machine falls on
both:

- start: ``skitter serve`` on the simulated board, from the process's start to its first
  answer of ``/api/state``: the wall time and the server's processor time by then;
- refusal: ``skitter serve --source mcp23017`` on a machine without an I2C bus, which stops
  with one line: the wall time and the processor time until it has said so;
- requests: ``requests`` each of ``GET /api/state`` (the scoreboard's first read), ``GET
  /api/referee/session`` (a page asking whether it holds a session) and ``POST
  /api/referee/login`` with a wrong PIN (after the first, answered 429 by the throttle without
  checking the PIN), one after another on a kept-alive connection; the figure is the
  server's processor time over them, per request.

The medians of the rounds are printed, the two checkouts side by side.
"""

from __future__ import annotations

import argparse
import http.client
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
from machine import ROOT, print_header
from ports import free_port
from serve_proc import ServeProcess, code_in

PACKAGES = ("scorekeeper", "firmware_bridge", "web", "web_common", "skitter_cli",
            "tournament_wire", "hub", "skibbitt", "skibbitt_app")
"""The project's packages (whichever a checkout has)."""

REQUESTS: dict[str, tuple[str, str, bytes | None]] = {
    "GET /api/state": ("GET", "/api/state", None),
    "GET /api/referee/session": ("GET", "/api/referee/session", None),
    "POST /api/referee/login, wrong PIN": ("POST", "/api/referee/login", b'{"pin": "000000"}'),
}


def _cpu(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return float(times.user + times.system)


def one_round(src: Path, requests: int) -> dict[str, float]:
    """One start, one refusal and the requests, measured on the checkout ``src``."""
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        server = ServeProcess(Path(tmp), command=code_in(src), pin=None)
        try:
            server.wait_ready(interval=0.005)  # the wall time to within 5 ms
            figures["start: wall to first state, s"] = time.perf_counter() - server.started
            figures["start: processor time, s"] = _cpu(server.process)
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            for label, (method, path, body) in REQUESTS.items():
                headers = {"Content-Type": "application/json"} if body else {}
                before = _cpu(server.process)
                for _ in range(requests):
                    conn.request(method, path, body=body, headers=headers)
                    answer = conn.getresponse()
                    answer.read()
                    if answer.status >= 500:
                        raise SystemExit(f"bench bug: {label} answered {answer.status}")
                figures[f"{label}: us per request"] = \
                    (_cpu(server.process) - before) / requests * 1e6
            conn.close()
        finally:
            server.stop()
    with tempfile.TemporaryDirectory() as tmp:
        before_children = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
        done = subprocess.run(
            [*code_in(src), "--data-dir", tmp, "--port", str(free_port()),
             "--source", "mcp23017"],
            cwd=ROOT, env=env | {"HOME": tmp}, capture_output=True, text=True, timeout=60,
            check=False)
        wall = time.perf_counter() - started
        after_children = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 1 or "I2C" not in done.stdout + done.stderr:
            raise SystemExit(f"bench bug: the refusal was not said:\n{done.stdout}{done.stderr}")
        figures["refusal (no I2C bus): wall, s"] = wall
        figures["refusal (no I2C bus): processor time, s"] = (
            after_children.ru_utime + after_children.ru_stime
            - before_children.ru_utime - before_children.ru_stime)
    return figures


def unpack(ref: str, into: Path) -> Path:
    """The commit ``ref`` of this repository as files under ``into``."""
    archive = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True,
                             check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def compiled(src: Path) -> Path:
    """``src`` with its bytecode written (``PYTHONDONTWRITEBYTECODE`` may be set): a start
    measures the imports, not compiling the sources."""
    subprocess.run([sys.executable, "-m", "compileall", "-q",
                    *(str(src / d) for d in PACKAGES if (src / d).is_dir())], check=True)
    return src


def _shown(key: str, value: float, width: int = 0) -> str:
    """Microseconds whole, seconds to the millisecond."""
    return f"{value:>{width}.0f}" if "us per" in key else f"{value:>{width}.3f}"


def table(results: dict[str, list[dict[str, float]]]) -> list[str]:
    names = list(results)
    keys = list(next(iter(results.values()))[0])
    width = max(len(k) for k in keys) + 2
    lines = [f"{'':<{width}}" + "".join(f"{n:>16}" for n in names)]
    for key in keys:
        lines.append(f"{key:<{width}}" + "".join(
            _shown(key, statistics.median(r[key] for r in results[n]), 16) for n in names))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=2000, help="requests of each kind")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per checkout")
    parser.add_argument("--before", metavar="REF",
                        help="also measure the commit REF (git archive), side by side")
    args = parser.parse_args()
    print_header("skitter serve: processor time per request and per start")
    with tempfile.TemporaryDirectory() as tmp:
        checkouts = {"this checkout": compiled(ROOT)}
        if args.before:
            checkouts = {args.before: compiled(unpack(args.before, Path(tmp)))} | checkouts
        results: dict[str, list[dict[str, float]]] = {name: [] for name in checkouts}
        for _ in range(args.rounds):
            for name, src in checkouts.items():
                results[name].append(one_round(src, args.requests))
    print(f"{args.requests} requests of each kind, median of {args.rounds} rounds "
          "(processor time: the server process's own)")
    for line in table(results):
        print(line)
    print()
    mine = {k: statistics.median(r[k] for r in results["this checkout"])
            for k in results["this checkout"][0]}
    print("Result: this checkout: " + "; ".join(f"{k} {_shown(k, v)}" for k, v in mine.items()))


if __name__ == "__main__":
    main()
