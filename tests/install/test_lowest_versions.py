"""constraints-lowest.txt: every direct dependency at the lowest version pyproject.toml
allows, so CI's `make test-lowest` (the fast unit lane, once per run) tests the floors a
board builder's pip may pick, not only the newest versions the lock has."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
LOWEST = ROOT / "constraints-lowest.txt"


def uv() -> str:
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.exists() else shutil.which("uv")
    assert found, "uv is missing: it is in the dev extra (pip install -e '.[dev]')"
    return found


def lowest_pins() -> dict[str, Version]:
    out = {}
    for line in LOWEST.read_text().splitlines():
        if not line or line.startswith((" ", "#")):
            continue
        req = Requirement(line)
        (spec,) = req.specifier
        out[req.name.lower()] = Version(spec.version)
    return out


def direct_requirements() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = [Requirement(d) for d in project["dependencies"]]
    found += [Requirement(d) for d in project["optional-dependencies"]["dev"]]
    return [r for r in found if r.marker is None or r.marker.evaluate({"extra": "dev"})]


@pytest.mark.unit
def test_every_direct_dependency_is_pinned_within_its_bounds() -> None:
    """A floor raised in pyproject.toml without `make lock` leaves a pin below it."""
    pins = lowest_pins()
    wrong = [f"{req}: lowest lock has {pins.get(req.name.lower())}"
             for req in direct_requirements()
             if req.name.lower() not in pins or not req.specifier.contains(pins[req.name.lower()])]
    assert wrong == [], "constraints-lowest.txt is out of date: run `make lock` and commit it"


def test_the_lowest_lock_is_what_make_lock_makes(tmp_path: Path) -> None:
    """The floors themselves (the lowest version each one admits, that exists and fits the
    others), as uv resolves them from pyproject.toml now, keeping the other pins locked."""
    command = re.search(r"^LOWEST_COMPILE = (.+?)\n\n", (ROOT / "Makefile").read_text(),
                        re.M | re.S)
    assert command, "Makefile has no LOWEST_COMPILE"
    args = shlex.split(command[1].replace("\\\n", " "))
    assert args[:3] == ["$(VENV)/bin/uv", "pip", "compile"]
    out = tmp_path / "constraints-lowest.txt"
    # uv keeps the pins it may keep, as `make lock` does: a package that is no floor (idna,
    # say) stays as locked when a newer release appears, and only pyproject.toml moves a pin
    shutil.copy(LOWEST, out)
    result = subprocess.run([uv(), *args[1:], "-o", str(out)], cwd=ROOT, capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert out.read_text() == LOWEST.read_text(), (
        "constraints-lowest.txt is out of date with pyproject.toml: run `make lock`")


@pytest.mark.unit
def test_ci_runs_the_unit_lane_on_the_floors_once() -> None:
    makefile = (ROOT / "Makefile").read_text()
    target = re.search(r"^test-lowest:\n((?:\t.*\n)+)", makefile, re.M)
    assert target is not None
    recipe = target.group(1)
    assert "-c $(LOWEST)" in recipe and "pytest -m unit" in recipe
    assert re.search(r"^LOWEST := constraints-lowest.txt$", makefile, re.M)
    assert "--resolution lowest-direct" in makefile
    assert "make test-lowest" in (ROOT / ".ci" / "run").read_text()
