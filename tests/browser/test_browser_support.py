"""The browser tests skip without Chromium on a laptop but fail under CI."""

from __future__ import annotations

import pytest
from browser_support import require_chromium


def _no_chromium(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("browser_support.os.path.exists", lambda path: False)
    monkeypatch.setattr("browser_support.shutil.which", lambda name: None)


def test_missing_chromium_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_chromium(monkeypatch)
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="apt-get install chromium"):
        require_chromium()


def test_missing_chromium_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    _no_chromium(monkeypatch)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception):
        require_chromium()
