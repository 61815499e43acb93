"""The caller's tools for tests: espeak-ng must be there under CI (fail), else the test skips."""

from __future__ import annotations

import os
import shutil
import wave
from pathlib import Path

import pytest


def require_espeak() -> None:
    """Skip without espeak-ng, but fail under CI (``.ci/run`` installs it)."""
    if shutil.which("espeak-ng"):
        return
    message = "espeak-ng is not installed (apt-get install espeak-ng)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def seconds_of(path: Path) -> float:
    """A WAV file's length, read with Python's ``wave``."""
    with wave.open(str(path), "rb") as w:
        return w.getnframes() / float(w.getframerate())
