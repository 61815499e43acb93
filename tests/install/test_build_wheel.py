"""install.sh's wheel build (hardware/pi/build-wheel.sh) leaves the checkout as cloned.

Run for real on a copy of the project made into a git repository of its own: after the
build, ``git status --porcelain --ignored`` is empty (nothing new, changed, or even
ignored, such as ``build/`` or ``*.egg-info``), and the wheel is where it was asked for.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns(".venv", ".venv-lowest", ".git", "build", "dist", "*.egg-info",
                              "__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis",
                              "test-artifacts", "*.db*")
GIT = ["git", "-c", "user.name=test", "-c", "user.email=test@skitter.invalid"]


def git(checkout: Path, *args: str) -> str:
    return subprocess.run([*GIT, "-C", str(checkout), *args], capture_output=True, text=True,
                          check=True, timeout=60).stdout


def test_building_the_wheel_leaves_the_checkout_as_cloned(tmp_path: Path) -> None:
    checkout = tmp_path / "skitter"
    shutil.copytree(ROOT, checkout, ignore=SKIP, symlinks=True)
    git(checkout, "init", "--quiet")
    git(checkout, "add", "--all")
    git(checkout, "commit", "--quiet", "--no-verify", "-m", "as cloned")
    assert git(checkout, "status", "--porcelain", "--ignored") == ""

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = tmp_path / "wheels"
    result = subprocess.run(
        ["bash", str(checkout / "hardware/pi/build-wheel.sh"), sys.executable, str(out)],
        capture_output=True, text=True, env=env, cwd=checkout, timeout=300, check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    wheel = Path(result.stdout.strip())
    assert wheel.parent == out and wheel.is_file()
    with zipfile.ZipFile(wheel) as z:
        assert "skitter_cli/main.py" in z.namelist()

    assert git(checkout, "status", "--porcelain", "--ignored") == ""
    assert not (checkout / "build").exists()
    assert not list(checkout.glob("*.egg-info"))


def test_building_with_pip_in_place_would_have_dirtied_it(tmp_path: Path) -> None:
    """What install.sh did before (``pip install "$SRC"``) builds in the checkout: the check
    above can tell."""
    checkout = tmp_path / "skitter"
    shutil.copytree(ROOT, checkout, ignore=SKIP, symlinks=True)
    git(checkout, "init", "--quiet")
    git(checkout, "add", "--all")
    git(checkout, "commit", "--quiet", "--no-verify", "-m", "as cloned")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
         str(tmp_path / "wheels"), str(checkout)],
        capture_output=True, text=True, timeout=300, check=True,
    )
    assert git(checkout, "status", "--porcelain", "--ignored") != ""
