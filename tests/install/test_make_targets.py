"""`make run` installs the runtime only; `make test` adds the dev extra. The README's first
screen keeps exactly two set-up commands and names what Debian lacks for them."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def planned(target: str) -> list[str]:
    """The commands ``make TARGET`` would run from nothing (``-B``: as if no stamp existed)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    result = subprocess.run(["make", "--no-print-directory", "-n", "-B", target], cwd=ROOT,
                            env=env, capture_output=True, text=True, timeout=60, check=True)
    return result.stdout.splitlines()


def installs(lines: list[str]) -> list[str]:
    return [line for line in lines if "pip install" in line and " -e " in line]


@pytest.mark.unit
def test_make_run_installs_the_runtime_only() -> None:
    lines = planned("run")
    assert [line.split(" -e ")[1] for line in installs(lines)] == ["."]
    assert not [line for line in lines if "dev" in line]
    assert lines[-1].endswith("skitter serve")


@pytest.mark.unit
def test_make_test_adds_the_dev_extra() -> None:
    lines = planned("test")
    assert [line.split(" -e ")[1] for line in installs(lines)] == [".", "'.[dev]'"]


@pytest.mark.unit
def test_the_readmes_first_screen_has_two_set_up_commands_and_names_python3_venv() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```sh\n(.*?)```", text, re.S)
    assert first_block is not None
    before = text[: first_block.start()]
    assert "```" not in before
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines()]
    assert commands == ["make run", "make test"]
    assert "python3-venv" in before
    assert len(text[: first_block.end()].splitlines()) <= 24  # on the first screen
