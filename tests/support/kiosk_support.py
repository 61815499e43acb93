"""The Pi's kiosk script run with stand-ins for curl and chromium: what it would start.

Shared by the Pi files' tests and the kiosk's browser test, which opens the page with the
very flags the kiosk passes.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

PI = Path(__file__).resolve().parents[2] / "hardware" / "pi"
"""The files shipped for the Pi."""


def run_kiosk(tmp_path: Path, launches: int = 2) -> tuple[subprocess.CompletedProcess[str],
                                                       list[str]]:
    """The kiosk script with stand-ins for curl and chromium; the stand-in chromium logs its
    arguments and, at its ``launches``-th start, stops the kiosk as a logout would."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "log"
    (bin_dir / "curl").write_text(f'#!/bin/sh\necho "curl $*" >> {log}\nexit 0\n')
    (bin_dir / "chromium").write_text(
        f'#!/bin/sh\necho "chromium $*" >> {log}\n'
        f'[ "$(grep -c ^chromium {log})" -ge {launches} ] && kill -TERM $PPID\nexit 0\n'
    )
    for stub in bin_dir.iterdir():
        stub.chmod(0o755)
    env = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)}
    result = subprocess.run(
        ["sh", str(PI / "skitter-kiosk")], env=env, capture_output=True, text=True, timeout=60
    )
    return result, log.read_text().splitlines()


def kiosk_browser_args(tmp_path: Path) -> tuple[list[str], str]:
    """The Chromium flags and address the kiosk starts Chromium with."""
    _, calls = run_kiosk(tmp_path, launches=1)
    words = calls[1].split()[1:]
    return words[:-1], words[-1]
