"""One version, from one place: ``version`` in pyproject.toml, read back from the installed
package's metadata by everything that shows it."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from web_common.version import DISTRIBUTION, skitter_version

ROOT = Path(__file__).resolve().parents[2]


def declared() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


@pytest.mark.unit
def test_the_version_is_the_package_metadatas_and_pyprojects() -> None:
    assert skitter_version() == version(DISTRIBUTION) == declared()
    assert declared() != "0.1.0"  # the placeholder every new project starts with


def test_skitter_version_prints_it() -> None:
    result = subprocess.run([sys.executable, "-m", "skitter_cli.main", "--version"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"skitter {declared()}\n"


def test_the_about_answer_and_the_api_document_carry_it(client: TestClient) -> None:
    assert client.get("/api/about").json()["version"] == declared()
    assert client.get("/openapi.json").json()["info"]["version"] == declared()


@pytest.mark.unit
def test_the_changelog_has_an_entry_for_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {declared()}" in changelog
