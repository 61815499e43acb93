"""The page's server: puzzles with every Triplitt scored, the page's files, bad input as
400 with a sentence, and /puzzle mounted on skitter serve's app as on the standalone one."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from brute import score
from fastapi.testclient import TestClient

from skibbitt_app.server import FILES, WEB, create_app

pytestmark = pytest.mark.unit
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def alone() -> TestClient:
    return TestClient(create_app())


def test_a_new_puzzle_carries_every_triplitt_of_its_deal_scored(alone: TestClient) -> None:
    answer = alone.get("/puzzle/api/new", params={"difficulty": "expert", "seed": 5}).json()
    tiles = [t["code"] for t in answer["tiles"]]
    assert tiles == [c for r in answer["rounds"] for c in r]
    assert len(answer["triplitts"]) == 220
    for key, value in answer["triplitts"].items():
        assert value["score"] == score(frozenset(tiles[int(i)] for i in key.split(",")))
    assert (answer["kind"], answer["seed"]) == ("single", 5)
    assert len(answer["best_names"]) == 3 and answer["best_names"][2].endswith("Skibbitt")


def test_the_daily_puzzle_is_the_commands_daily_puzzle(alone: TestClient, capsys) -> None:  # type: ignore[no-untyped-def]
    from skibbitt_app.cli import main

    main(["daily", "--date", "2026-12-03", "--difficulty", "easy", "--json"])
    command = json.loads(capsys.readouterr().out)
    page = alone.get("/puzzle/api/daily", params={"date": "2026-12-03",
                                                  "difficulty": "easy"}).json()
    assert {k: page[k] for k in command} == command
    assert page["kind"] == "daily" and page["date"] == "2026-12-03"


@pytest.mark.parametrize(("url", "says"), [
    ("/puzzle/api/new?difficulty=impossible", "unknown difficulty"),
    ("/puzzle/api/daily?date=tomorrow", "unknown date"),
    ("/puzzle/api/daily?date=2026-12-03&difficulty=x", "unknown difficulty"),
])
def test_bad_input_is_400_with_a_sentence(alone: TestClient, url: str, says: str) -> None:
    r = alone.get(url)
    assert r.status_code == 400 and says in r.json()["detail"]


def test_the_page_and_its_files_are_served_and_nothing_else(alone: TestClient) -> None:
    for path in ("/", "/puzzle", "/puzzle/"):
        assert "Skibbitt" in alone.get(path, follow_redirects=False).text
    for name in FILES:
        assert alone.get(f"/puzzle/{name}").status_code == 200
    assert alone.get("/puzzle/server.py").status_code == 404
    assert sorted(p.name for p in WEB.iterdir()) == sorted(FILES)


def test_skitter_serve_mounts_the_puzzle_at_slash_puzzle(client: TestClient) -> None:
    assert "Skibbitt" in client.get("/puzzle/").text
    answer = client.get("/puzzle/api/new", params={"difficulty": "easy", "seed": 1}).json()
    assert answer["difficulty"] == "easy"


def test_every_page_word_has_a_german_translation() -> None:
    text = (WEB / "words.js").read_text()
    words = json.loads(text[text.index("{"):text.rindex("}") + 1])
    assert set(words) == {"en", "de"}
    assert set(words["en"]) == set(words["de"])
    for key, value in words["en"].items():
        if isinstance(value, str):
            assert value.count("{") == words["de"][key].count("{"), key
        else:
            assert len(value) == len(words["de"][key]), key


def _imports(folder: Path) -> set[str]:
    found = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


def test_the_skibbitt_core_is_pure_and_apart_from_the_scorekeeper() -> None:
    import sys

    core = _imports(ROOT / "skibbitt") - {"skibbitt", "__future__"}
    assert core <= set(sys.stdlib_module_names), core
    assert not core & {"os", "io", "time", "pathlib", "socket", "subprocess", "secrets"}
    for package in ("scorekeeper", "firmware_bridge", "web", "hub"):
        assert "skibbitt" not in _imports(ROOT / package), package
    assert not _imports(ROOT / "skibbitt_app") & {"scorekeeper", "firmware_bridge", "web", "hub"}
