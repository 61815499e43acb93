"""The browser tests skip without Chromium on a laptop but fail under CI, naming the package
to install: the headless one for most, the full browser for the kiosk's windowed test."""

from __future__ import annotations

import pytest
from browser_support import CHROMIUM, require_chromium


def _no_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("browser_support.os.path.exists", lambda path: False)


def test_missing_chromium_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_chromium(monkeypatch)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception,
                       match="chromium-headless-shell .apt-get install chromium-headless-shell"):
        require_chromium()
    with pytest.raises(pytest.fail.Exception,
                       match=r"/usr/bin/chromium .apt-get install chromium\)"):
        require_chromium(CHROMIUM)


def test_missing_chromium_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_chromium(monkeypatch)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        require_chromium()
