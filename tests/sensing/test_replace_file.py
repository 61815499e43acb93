"""One way to replace a file (``firmware_bridge.files.replace_file``), for the profile the
calibration writes, the PIN, the sessions' secret, the self-test sheet and the sensor log."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from firmware_bridge.files import replace_file

pytestmark = pytest.mark.unit


def test_the_new_text_takes_the_name_with_the_mode_asked(tmp_path: Path) -> None:
    target = tmp_path / "board.toml"
    target.write_text("old\n", encoding="utf-8")
    replace_file(target, "neu: Größe\n", mode=0o640, sync=True)
    assert target.read_text(encoding="utf-8") == "neu: Größe\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["board.toml"]


def test_without_a_mode_the_file_is_private(tmp_path: Path) -> None:
    target = tmp_path / "secret"
    replace_file(target, "x")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_a_failed_write_leaves_the_old_file_and_no_temporary_one(tmp_path: Path) -> None:
    target = tmp_path / "referee-pin"
    target.write_text("old\n", encoding="ascii")
    with pytest.raises(UnicodeEncodeError):
        replace_file(target, "ö", encoding="ascii")
    assert target.read_text(encoding="ascii") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["referee-pin"]


def test_the_file_is_handed_to_the_owner_given_before_it_takes_the_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A root command writes a service's file: it must be the service's once it is there."""
    target = tmp_path / "skitter.toml"
    handed: list[tuple[Path, int, int, bool]] = []
    monkeypatch.setattr(os, "chown", lambda path, uid, gid: handed.append(
        (Path(path).parent, uid, gid, target.exists())))
    replace_file(target, "x", owner=(1234, 5678))
    assert handed == [(tmp_path, 1234, 5678, False)]
    replace_file(target, "y")
    assert len(handed) == 1
