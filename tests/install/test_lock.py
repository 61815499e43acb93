"""constraints.txt: the versions CI tests are the versions a Pi gets.

The lock is made by uv from pyproject.toml (``make lock``); ``make`` and
``hardware/pi/install.sh`` install with it as pip constraints. A lock that no longer matches
pyproject.toml (a new dependency, a changed bound) fails here until ``make lock`` is run.
"""

from __future__ import annotations

import importlib.metadata
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from packaging.markers import Marker
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "constraints.txt"
MAKEFILE = ROOT / "Makefile"


def pins() -> dict[str, tuple[str, Marker | None]]:
    out = {}
    for line in LOCK.read_text().splitlines():
        if not line or line.startswith((" ", "#")):
            continue
        req = Requirement(line)
        (spec,) = req.specifier
        assert spec.operator == "==", line
        out[req.name.lower()] = (spec.version, req.marker)
    return out


def uv() -> str:
    beside = Path(sys.executable).parent / "uv"
    found = str(beside) if beside.exists() else shutil.which("uv")
    assert found, "uv is missing: it is in the dev extra (pip install -e '.[dev]')"
    return found


def test_the_lock_is_what_make_lock_makes_from_pyproject(tmp_path):
    command = re.search(r"^LOCK_COMPILE = (.+?)\n\n", MAKEFILE.read_text(), re.M | re.S)
    assert command, "Makefile has no LOCK_COMPILE"
    args = shlex.split(command[1].replace("\\\n", " "))
    assert args[:3] == ["$(VENV)/bin/uv", "pip", "compile"]
    out = tmp_path / "constraints.txt"
    shutil.copy(LOCK, out)  # uv keeps the pins it may keep, as `make lock` does
    result = subprocess.run([uv(), *args[1:], "-o", str(out)], cwd=ROOT,
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert out.read_text() == LOCK.read_text(), (
        "constraints.txt is out of date with pyproject.toml: run `make lock` and commit it"
    )


def test_this_environment_runs_the_locked_versions():
    """make installs with the lock, so what these tests run on is what a Pi installs."""
    wrong = []
    for name, (version, marker) in pins().items():
        if marker is not None and not marker.evaluate():
            continue
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            wrong.append(f"{name} missing (locked {version})")
            continue
        if installed != version:
            wrong.append(f"{name} {installed} (locked {version})")
    assert wrong == [], "run `make .venv/.installed` (it installs with constraints.txt)"


def test_uvicorn_is_used_through_its_public_parts_only():
    """web_common/serving.py wraps the protocol uvicorn builds and configures it, but imports
    none of uvicorn's protocol modules, so uvicorn needs no upper bound."""
    import tomllib

    source = (ROOT / "web_common" / "serving.py").read_text()
    assert "uvicorn.protocols" not in source and "H11Protocol" not in source
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    (uvicorn,) = [Requirement(d) for d in deps if Requirement(d).name == "uvicorn"]
    assert not any(s.operator in ("<", "<=", "==", "~=") for s in uvicorn.specifier)


PURE_PYTHON_SDISTS = ("adafruit-extended-bus",)
"""Dependencies PyPI has only as source: pure Python, built on the Pi without a compiler."""


def test_a_64_bit_pi_gets_every_locked_package_as_a_wheel():
    """Bookworm (Python 3.11) and Trixie (3.13) on arm64: nothing to compile on the Pi,
    gpiod 2.x included (the old 1.6 binding of Raspberry Pi OS is never what Blinka gets)."""
    for python in ("3.11", "3.13"):
        command = [uv(), "pip", "compile", "pyproject.toml", "-c", str(LOCK), "--no-header",
                   "--no-annotate", "--python-platform", "aarch64-unknown-linux-gnu",
                   "--python-version", python, "--only-binary", ":all:"]
        for name in PURE_PYTHON_SDISTS:
            command += ["--no-binary", name]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True,
                                timeout=300, check=False)
        assert result.returncode == 0, f"Python {python} on arm64: {result.stderr}"
        resolved = {Requirement(line).name.lower(): line for line in result.stdout.splitlines()
                    if line and not line.startswith((" ", "#"))}
        assert resolved["gpiod"].startswith(f"gpiod=={pins()['gpiod'][0]}")
