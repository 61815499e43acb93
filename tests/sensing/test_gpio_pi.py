"""gpiozero as a Pi chooses it: the lgpio pin factory where lgpio is importable (mock else).

lgpio writes its notification pipes into ``$LG_WD`` or the working folder as soon as it is
loaded; every command that opens GPIO must work from any folder and leave it untouched.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from firmware_bridge import gpio

ROOT = Path(__file__).resolve().parents[2]
FACTORY = "lgpio" if importlib.util.find_spec("lgpio") else "mock"

OPEN_A_LINE = """
from firmware_bridge.gpio import InterruptLine
from firmware_bridge.source import SourceError
try:
    InterruptLine(17).close()
    print("opened")
except SourceError as exc:
    print("refused:", exc)
"""


def run_from(cwd: Path, env_extra: dict[str, str]) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("LG_WD", "XDG_RUNTIME_DIR", "GPIOZERO_PIN_FACTORY")}
    env.update(GPIOZERO_PIN_FACTORY=FACTORY, PYTHONPATH=str(ROOT), **env_extra)
    return subprocess.run([sys.executable, "-c", OPEN_A_LINE], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=60, check=False)


def test_opening_gpio_leaves_the_working_folder_alone(tmp_path):
    cwd, runtime = tmp_path / "somewhere", tmp_path / "run"
    cwd.mkdir()
    runtime.mkdir()
    result = run_from(cwd, {"XDG_RUNTIME_DIR": str(runtime)})
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert list(cwd.iterdir()) == []
    if FACTORY == "lgpio":
        # lgpio was loaded and wrote its pipe where it was told to.
        assert any(p.name.startswith(".lgd-nfy") for p in (runtime / "skitter").iterdir())
        # Off a Pi it cannot find a gpiochip or a Pi revision: one sentence naming the pin.
        (line,) = result.stdout.strip().splitlines()
        assert line.startswith(("opened", "refused: cannot use GPIO 17"))
    else:
        assert result.stdout.strip() == "opened"


def test_lgpio_uses_the_folder_given_first(tmp_path, monkeypatch):
    monkeypatch.delenv("LG_WD", raising=False)
    data = tmp_path / "data"
    assert gpio.lgpio_work_dir(data) == str(data)
    assert data.is_dir() and os.environ["LG_WD"] == str(data)
    assert gpio.lgpio_work_dir(tmp_path / "other") == str(data)  # serve's choice stands


def test_without_a_folder_lgpio_gets_a_private_one(tmp_path, monkeypatch):
    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(tmp_path))
    chosen = Path(gpio.lgpio_work_dir())
    assert chosen == tmp_path / f"skitter-{os.getuid()}"
    assert chosen.stat().st_mode & 0o777 == 0o700


def test_serve_points_lgpio_at_the_data_folder(tmp_path):
    """skitter serve sets LG_WD to its data folder before anything opens a pin."""
    code = (
        "import os, sys\n"
        "import skitter_cli.serve as s\n"
        "def stop(*a, **k):\n"
        "    print(os.environ.get('LG_WD')); sys.exit(0)\n"
        "import web.table.wiring as w\n"
        "w.open_table = stop\n"
        "sys.exit(s.run(s_args))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "LG_WD" and not k.startswith("SKITTER")}
    config = tmp_path / "skitter.toml"
    config.touch()
    env.update(PYTHONPATH=str(ROOT), SKITTER_CONFIG=str(config), HOME=str(tmp_path))
    data = tmp_path / "data"
    setup = (
        "import argparse\n"
        "from skitter_cli import serve as _s\n"
        "p = argparse.ArgumentParser(); _s.add_arguments(p)\n"
        f"s_args = p.parse_args(['--data-dir', {str(data)!r}, '--pin', '123456'])\n"
    )
    result = subprocess.run([sys.executable, "-c", setup + code], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == str(data)
