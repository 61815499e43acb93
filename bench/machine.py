"""The machine a benchmark ran on, printed with every figure (see ``bench/``).

A figure without its machine means little: a Pi 4 and a laptop differ tenfold.
"""

from __future__ import annotations

import datetime
import os
import platform
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The checkout the benchmarks run from."""

TESTS = str(ROOT / "tests" / "support")
# The benchmarks reuse the test suite's support code (the emulated I2C bus, seeded matches,
# ``skitter serve`` as a child process) rather than keeping copies; never the other way round.
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)


def cpu_model() -> str:
    """The CPU's marketing name from ``/proc/cpuinfo`` (``model name`` on x86, ``Model`` on
    a Raspberry Pi), else what :mod:`platform` knows."""
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    for key in ("model name", "Model", "Hardware"):
        for line in text.splitlines():
            name, _, value = line.partition(":")
            if name.strip() == key and value.strip():
                return value.strip()
    return platform.processor() or platform.machine() or "unknown CPU"


def machine_lines() -> list[str]:
    """Plain lines naming the CPU, cores, OS, Python and date."""
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return [
        f"machine: {cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()} ({platform.machine()})",
        f"python:  {platform.python_implementation()} {platform.python_version()}",
        f"date:    {now}",
    ]


def print_header(title: str) -> None:
    """The benchmark's title and its machine, before any figure."""
    print(title)
    print("=" * len(title))
    for line in machine_lines():
        print(line)
    print()
