"""``skitter log --import`` takes only what the API would take: the same decoder, the same
name check as a new match, the rules' own parsing of every step; anything else is refused
with one line and nothing is imported (never a traceback)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.store import MatchStore
from skitter_cli.main import main

HEADER: dict[str, Any] = {"format": 1, "id": 1, "created_at": 1_700_000_000.0,
                          "rules": {"variant": "classic"},
                          "setup": {"first": "black",
                                    "big": {"black": "center", "white": "center"}},
                          "names": {"black": "Ann", "white": "Bo"}, "meta": {}}
STEP = {"seq": 1, "at": 1_700_000_001.0, "source": "sensor",
        "event": {"shot": {"by": "black", "delta": {"white.red": 1}}}}


def export(header: dict[str, Any] | None = None, *steps: dict[str, Any]) -> str:
    lines = [json.dumps({"match": {**HEADER, **(header or {})}})]
    lines += [json.dumps(s) for s in (steps or (STEP,))]
    return "\n".join(lines) + "\n"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "skitter.db"
    with MatchStore(path) as store:
        store.create_match({"variant": "classic"}, {"first": "black"},
                           {"black": "Ann", "white": "Bo"}, at=1_700_000_000.0)
    return path


HOSTILE = {
    "names that are not strings": export({"names": {"black": 7, "white": ["x"]}}),
    "a lone surrogate in a name": export().replace('"Ann"', '"\\ud800"'),
    "a direction override in a name": export({"names": {"black": "\u202enA", "white": "Bo"}}),
    "a name of 100,000 characters": export({"names": {"black": "A" * 100_000, "white": "Bo"}}),
    "an unknown seat in the names": export({"names": {"red": "Ann"}}),
    "a huge created_at": export({"created_at": 1e300}),
    "a created_at that is text": export({"created_at": "yesterday"}),
    "a step at 1e300": export(None, {**STEP, "at": 1e300}),
    "a step at -1e300": export(None, {**STEP, "at": -1e300}),
    "NaN": export().replace("1700000001.0", "NaN"),
    "an integer beyond 64 bits": export(None, {**STEP, "seq": 2**70}),
    "rules that are a list": export({"rules": [1, 2]}),
    "setup that is text": export({"setup": "first"}),
    "an unknown rule": export({"rules": {"gravity": 2}}),
    "a step the rules refuse": export(None, {**STEP, "event": {"shot": {"by": "red"}}}),
    "a timeline that is a number": export(None, {**STEP, "timeline": 5}),
    "a timeline with a text version": export(None, {**STEP, "timeline": {"v": "x"}}),
    "a header that is a list": '[{"match": 1}]\n',
    "a header without the format": json.dumps({"match": {"names": {}}}) + "\n",
    "a line that is not JSON": export() + "{not json\n",
    "a deeply nested step": export(None, {**STEP, "event": {"shot": json.loads(
        "[" * 50 + "]" * 50)}}),
    "an empty file": "",
    "a source of 10,000 characters": export(None, {**STEP, "source": "s" * 10_000}),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_export_is_refused_with_one_line_and_nothing_imported(
    name: str, db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(HOSTILE[name], encoding="utf-8", errors="surrogatepass")
    assert main(["log", "--db", str(db), "--import", str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("skitter log: "), captured.err
    assert "Traceback" not in captured.err and len(lines[0]) < 400
    with MatchStore(db) as store:
        assert [m["id"] for m in store.list_matches()] == [1]


def test_a_good_export_still_imports(db: Path, tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(export())
    assert main(["log", "--db", str(db), "--import", str(good)]) == 0
    assert "as match 2 (1 event)" in capsys.readouterr().out


def test_a_bad_binary_file_is_one_line(db: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["log", "--db", str(db), "--import", str(bad)]) == 1
    assert len(capsys.readouterr().err.splitlines()) == 1
