"""The ``skibbitt`` command's contract: one JSON object per command with --json, and bad
input answered by one line and exit status 2, never a traceback."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from brute import all_chains

from skibbitt_app.cli import main

pytestmark = pytest.mark.unit


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def as_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    code, out, err = run(capsys, *argv, "--json")
    assert (code, err) == (0, "")
    assert out.count("\n") == 1
    return json.loads(out)  # type: ignore[no-any-return]


def test_score_prints_the_name_rating_score_and_each_category_grouping(capsys) -> None:  # type: ignore[no-untyped-def]
    assert as_json(capsys, "score", "R1A", "Y3C", "B5E") == {
        "name": "Primary Odd Aced Skibbitt", "rating": "Skibbitt", "score": 670,
        "groups": {"color": {"type": "skip", "name": "Primary", "score": 90},
                   "shape": {"type": "skip", "name": "Odd", "score": 90},
                   "letter": {"type": "skip", "name": "Aced", "score": 90}}}


def test_a_category_without_a_grouping_is_null(capsys) -> None:  # type: ignore[no-untyped-def]
    answer = as_json(capsys, "score", "R1F", "Y2F", "P4F")
    assert answer["groups"] == {"color": None, "shape": None,
                                "letter": {"type": "set", "name": "Foxy", "score": 31}}
    assert (answer["name"], answer["score"]) == ("Foxy Yibbitt", 131)
    assert as_json(capsys, "score", "Y2A", "G4B", "B6D")["score"] == 349


@pytest.mark.parametrize(("level", "counts"), [("easy", [4, 1, 1]), ("standard", [5, 2, 2]),
                                                ("expert", [6, 3, 3])])
def test_new_deals_the_puzzle_of_its_seed_with_its_best_chain(capsys, level, counts) -> None:  # type: ignore[no-untyped-def]
    answer = as_json(capsys, "new", "--difficulty", level, "--seed", "12")
    assert set(answer) == {"difficulty", "rounds", "best", "best_scores", "max_score"}
    assert answer["difficulty"] == level
    assert [len(r) for r in answer["rounds"]] == counts
    assert [len(t) for t in answer["best"]] == [3, 3, 3]
    assert sum(answer["best_scores"]) == answer["max_score"]
    assert answer["max_score"] == max(total for total, _ in all_chains(answer["rounds"]))
    assert as_json(capsys, "new", "--difficulty", level, "--seed", "12") == answer


def test_daily_has_the_same_shape_and_is_the_same_all_day(capsys) -> None:  # type: ignore[no-untyped-def]
    answer = as_json(capsys, "daily", "--date", "2026-12-03", "--difficulty", "expert")
    assert set(answer) == {"difficulty", "rounds", "best", "best_scores", "max_score"}
    assert as_json(capsys, "daily", "--date", "2026-12-03", "--difficulty", "expert") == answer
    assert as_json(capsys, "daily", "--date", "2026-12-04", "--difficulty", "expert") != answer


def test_solve_reads_rounds_on_stdin_and_follows_the_difficulty_from_the_counts(
        capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    puzzle = as_json(capsys, "new", "--difficulty", "standard", "--seed", "3")
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps({"rounds": puzzle["rounds"]})))
    answer = as_json(capsys, "solve")
    assert answer == {"best": puzzle["best"], "best_scores": puzzle["best_scores"],
                      "max_score": puzzle["max_score"], "unique": True}
    tie = {"rounds": [["O6F", "O2E", "P3E", "Y5D"], ["O1E"], ["P3D"]]}
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(tie)))
    assert as_json(capsys, "solve")["unique"] is False


@pytest.mark.parametrize(("argv", "stdin", "says"), [
    (["score", "R1A", "Q3C", "B5E"], "", "unknown tile 'Q3C'"),
    (["score", "R1A", "R1A", "B5E"], "", "R1A is given twice"),
    (["score", "R1A", "Y3C"], "", "three tiles, not 2"),
    (["new", "--difficulty", "hard"], "", "unknown difficulty 'hard'"),
    (["new", "--seed", "soon"], "", "invalid int value"),
    (["daily", "--date", "2026-02-30"], "", "unknown date"),
    (["solve"], "not json", "stdin is not JSON"),
    (["solve"], '{"rounds": [["R1A", "O1A", "Y1A", "G1A"], ["P6F"], ["P6F"]]}',
     "P6F is given twice"),
    (["solve"], '{"rounds": [["R1A", "O1A", "Y1A"], ["P6F"], ["B6E"]]}', "fit no difficulty"),
    (["solve"], '{"rounds": [["R1A", "O1A", "Y1A", "Z9Z"], ["P6F"], ["B6E"]]}', "unknown tile"),
    (["solve"], '{"tiles": []}', '"rounds"'),
    (["solve"], '{"rounds": [["R1A", 5, "Y1A", "G1A"], ["P6F"], ["B6E"]]}', "string"),
])
def test_bad_input_gets_one_line_naming_it_and_exit_status_2(
        capsys, monkeypatch, argv, stdin, says) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code, out, err = run(capsys, *argv, "--json")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and says in err, err


def test_serve_on_a_taken_port_says_so_in_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run(capsys, "serve", "--port", str(port))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and f"port {port}" in err and "--port" in err, err


def test_the_installed_console_script_keeps_the_contract() -> None:
    script = shutil.which("skibbitt", path=str(Path(sys.executable).parent))
    assert script is not None, "the skibbitt console script is not installed"
    done = subprocess.run([script, "score", "R1A", "Y3C", "B5E", "--json"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and json.loads(done.stdout)["score"] == 670
    bad = subprocess.run([script, "score", "R1A", "--json"], capture_output=True, text=True,
                         timeout=60, check=False)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
