"""Installed the way install.sh installs (a wheel, not an editable checkout), skitter starts.

The wheel is built from a copy of the source tree (the build writes ``build/`` and
``*.egg-info`` next to the sources) and installed with ``--no-deps`` into a fresh venv. That
venv gets its dependencies through a ``.pth`` line naming the test venv's site-packages:
a ``.pth`` *path* line only appends the folder to ``sys.path`` (the ``.pth`` files inside it,
such as the editable install's hook, are not run), so ``import firmware_bridge`` finds the
wheel's copy first and never the checkout, while fastapi, uvicorn and the rest are the very
versions the suite tests, with no download. A ``--system-site-packages`` venv would see the
system Python's packages instead, not the test venv's; a full install would fetch everything
again on every run.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import urllib.request
import zipfile
from pathlib import Path

import pytest
from serve_proc import free_port
from waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", "__pycache__",
                              ".pytest_cache", ".ruff_cache", ".hypothesis", "test-artifacts",
                              "node_modules", "*.db*")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The wheel and the build's full output (setuptools' warnings included)."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "src"
    shutil.copytree(ROOT, source, ignore=SKIP, symlinks=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(base / "dist"),
         str(source)],
        capture_output=True, text=True, timeout=300, env=env, check=False,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    (wheel,) = (base / "dist").glob("skitter_scorekeeper-*.whl")
    return wheel, result.stdout + result.stderr


@pytest.fixture(scope="module")
def venv(built: tuple[Path, str], tmp_path_factory: pytest.TempPathFactory) -> Path:
    wheel, _ = built
    home = tmp_path_factory.mktemp("venv") / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(home)], check=True,
                   timeout=120)
    fresh_python = home / "bin" / "python"
    site = subprocess.run(
        [str(fresh_python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()
    Path(site, "test-venv-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(fresh_python), "install", "--quiet",
         "--no-deps", "--no-index", str(wheel)],
        check=True, timeout=300,
    )
    return home


def run(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(venv / "bin" / "skitter"), *args], cwd=cwd, env=_env(cwd), capture_output=True,
        text=True, timeout=120, check=False,
    )


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SKITTER_", "PYTHON"))}
    config = home / "skitter.toml"
    config.touch()
    env.update(HOME=str(home), SKITTER_CONFIG=str(config))
    return env


def test_the_build_prints_no_warning(built):
    """Nothing from setuptools: no deprecation (``license = { text = ... }`` had one: "By
    2027-Feb-18, you need to update your project"), no distutils ``warning:`` line. pip's own
    notes about this machine's index settings are not the build's."""
    _, output = built
    noisy = [line for line in output.splitlines()
             if "Warning" in line or "Deprecat" in line or "2027" in line
             or line.strip().lower().startswith("warning:")]
    assert noisy == []


def test_the_wheel_carries_the_reference_profile_and_the_license(built):
    wheel, _ = built
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        profile = z.read("firmware_bridge/boards/default.toml")
        metadata = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert profile == (ROOT / "hardware" / "boards" / "default.toml").read_bytes()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "License-Expression: MIT" in metadata


def test_the_wheel_carries_the_puzzle_and_its_page(built):
    wheel, _ = built
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
    page = {f"skibbitt_app/web/{p.name}" for p in (ROOT / "skibbitt_app" / "web").iterdir()}
    assert page and page <= names
    assert {"skibbitt/solver.py", "skibbitt_app/cli.py"} <= names


def test_the_installed_package_is_the_one_that_runs(venv, tmp_path):
    result = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import firmware_bridge.profile as p; print(p.__file__); print(p.default_profile_path())"],
        cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, check=True,
    )
    module, profile = result.stdout.split()
    assert module.startswith(str(venv)) and profile.startswith(str(venv))
    assert Path(profile).is_file() and not Path(profile).is_symlink()


def test_installed_serve_starts_and_answers(venv, tmp_path):
    port = free_port()
    proc = subprocess.Popen(
        [str(venv / "bin" / "skitter"), "serve", "--data-dir", str(tmp_path / "data"),
         "--port", str(port)],
        cwd=tmp_path, env=_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        def healthy() -> bool:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                    assert r.status == 200
                    return True
            except OSError:
                return False

        wait_until(healthy, "skitter serve's /healthz", timeout=60, every=0.1)
    finally:
        proc.send_signal(signal.SIGINT)
        output = proc.communicate(timeout=30)[0]
    assert "not found" not in output
    assert proc.returncode == 0, output


def test_installed_sensors_reads_the_shipped_profile(venv, tmp_path):
    result = run(venv, "sensors", "--source", "sim", "--once", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("board ") and "fields:" in result.stdout


def test_installed_calibrate_helps_and_never_writes_into_site_packages(venv, tmp_path):
    help_text = run(venv, "calibrate", "--help", cwd=tmp_path)
    assert help_text.returncode == 0 and "--profile" in help_text.stdout
    refused = run(venv, "calibrate", "--source", "sim", cwd=tmp_path)
    assert refused.returncode == 2
    assert "copy shipped inside skitter" in refused.stderr
    assert "/etc/skitter/board.toml" in refused.stderr
