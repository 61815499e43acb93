"""The scenario runner and ``skitter rules-check`` (docs/scenarios.md, "Running the files")."""

import argparse
import io
import json
from pathlib import Path

import pytest

from scorekeeper.scenarios import run_paths, run_scenario, run_scenario_file
from skitter_cli import rules_check as cmd_rules_check

pytestmark = pytest.mark.unit

HERE = Path(__file__).parents[1]


def scenario(*steps, **top):
    obj = {"format": 1, "name": "t",
           "setup": {"first": "black", "big": {"black": "center", "white": "center"}},
           "steps": list(steps)}
    obj.update(top)
    return obj


def write(tmp_path, name, obj):
    path = tmp_path / name
    path.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return path


def check(paths):
    out = io.StringIO()
    status = run_paths([str(p) for p in paths], out)
    return status, out.getvalue().splitlines()


# -- The project's own scenario table, the rules examples among it ---------------------


def test_every_scenario_in_tests_scenarios_passes():
    status, lines = check([HERE / "scenarios"])
    assert status == 0, "\n".join(line for line in lines if not line.startswith("PASS"))


def test_every_ruling_has_a_scenario():
    names = {p.name.split("-")[0] for p in (HERE / "scenarios").glob("*.json")}
    assert {f"r{n:02d}" for n in range(1, 21)} <= names


def test_the_rules_examples_live_in_the_project_and_pass():
    examples = sorted((HERE / "scenarios").glob("example-*.json"))
    status, lines = check(examples)
    assert len(examples) == 11
    assert lines[-1] == "11 passed, 0 failed" and status == 0


# -- Output lines -----------------------------------------------------------------------


def test_pass_line():
    result = run_scenario(scenario({"expect": {"turn": "black"}}))
    assert result.line == "PASS t"


def test_fail_line_for_an_expect_key():
    result = run_scenario(scenario({"shot": {"by": "black", "delta": {}}},
                                   {"expect": {"score": {"black": 1, "white": 0}}}))
    assert result.line == ('FAIL t: step 2: score: expected {"black":1,"white":0}, '
                           'got {"black":0,"white":0}')


def test_fail_line_restricts_board_to_the_fields_listed():
    result = run_scenario(scenario({"expect": {"board": {"white.red": 1}}}))
    assert result.line == 'FAIL t: step 1: board: expected {"white.red":1}, got {"white.red":0}'


def test_fail_line_for_a_refused_step():
    result = run_scenario(scenario({"shot": {"by": "white", "delta": {}}}))
    assert result.line.startswith("FAIL t: step 1: refused: shot.by: white shot out of turn")


def test_fail_line_for_an_accepted_step_that_should_be_refused():
    result = run_scenario(scenario({"expect_error": {"shot": {"by": "black", "delta": {}}}}))
    assert result.line == "FAIL t: step 1: expected a refusal, the step was accepted"


def test_expect_error_names_the_rule_that_must_refuse():
    out_of_turn = {"shot": {"by": "white", "delta": {}}}
    assert run_scenario(scenario({"expect_error": {**out_of_turn, "rule": "R1"}})).passed
    result = run_scenario(scenario({"expect_error": {**out_of_turn, "rule": "R2"}}))
    assert result.line.startswith("FAIL t: step 1: refused by R1, expected R2: shot.by: white "
                                  "shot out of turn"), result.line
    result = run_scenario(scenario({"expect_error": {**out_of_turn, "rule": None}}))
    assert result.line.startswith("FAIL t: step 1: refused by R1, expected no ruling"), \
        result.line
    wrong_key = {"shot": {"by": "black", "delta": {}, "colour": "red"}}
    assert run_scenario(scenario({"expect_error": {**wrong_key, "rule": None}})).passed


def test_expect_error_rule_must_name_rulings():
    result = run_scenario(scenario({"expect_error": {"undo": True, "rule": "the turns"}}))
    assert result.malformed and "expect_error.rule" in result.message, result.line


def test_expect_error_passes_when_refused_and_state_unchanged():
    result = run_scenario(scenario({"expect_error": {"undo": True}},
                                   {"expect": {"turn": "black"}}))
    assert result.passed


def test_each_file_stops_at_its_first_failure():
    result = run_scenario(scenario({"expect": {"turn": "white"}}, {"expect": {"pot": 3}}))
    assert "step 1" in result.message


def test_blocked_is_compared_as_a_set():
    obj = scenario({"expect": {"blocked": ["white.red", "black.red"]}},
                   rules={"flipping": True})
    obj["setup"]["blocked"] = ["black.red", "white.red"]
    assert run_scenario(obj).passed


def test_rounds_count_only_rounds_finished_in_the_scenario():
    obj = scenario({"expect": {"rounds": [], "round": 3}})
    obj["setup"]["round_wins"] = {"black": 1, "white": 1}
    assert run_scenario(obj).passed


# -- Malformed files --------------------------------------------------------------------


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "not JSON"),
    ([1, 2], "top level"),
    ({"name": "x", "steps": []}, "format"),
    ({"format": 2, "steps": []}, "format: expected 1, got 2"),
    ({"format": 1, "name": "x"}, "steps: missing"),
    ({"format": 1, "steps": [], "author": "me"}, "unknown top-level key 'author'"),
    ({"format": 1, "steps": [{"shot": {"by": "black"}, "undo": True}]}, "step 1"),
    ({"format": 1, "steps": [{"jump": True}]}, "step 1"),
    ({"format": 1, "steps": [{"expect_error": {"expect": {}}}]}, "expect_error"),
    ({"format": 1, "rules": {"pot": "many"}, "steps": []}, "rules.pot"),
    ({"format": 1, "setup": {"score": {"black": 9}}, "steps": []}, "setup.score.black"),
])
def test_malformed_file_fails_naming_the_key(tmp_path, content, message):
    path = write(tmp_path, "bad.json", content)
    result = run_scenario_file(path)
    assert result.malformed and result.line.startswith(f"FAIL {path}: ")
    assert message in result.line


@pytest.mark.parametrize(("expect", "message"), [
    ({"colour": 1}, "step 1: refused: expect: unknown key 'colour'"),
    ({"board": {"white.x": 1}}, "step 1: refused: expect.board: unknown field 'white.x'"),
])
def test_a_wrong_key_inside_an_expect_refuses_that_step(expect, message):
    # docs/scenarios.md: anything wrong inside a step refuses that step; the file is not malformed.
    result = run_scenario({"format": 1, "name": "x", "steps": [{"expect": expect}]})
    assert not result.passed and not result.malformed
    assert result.line.startswith(f"FAIL x: {message}")


def test_refusal_inside_a_step_is_not_malformed():
    result = run_scenario(scenario({"shot": {"by": "black", "delta": {"white.x": 1}}}))
    assert not result.malformed and "refused" in result.line


# -- Folders, closing line and exit status ----------------------------------------------


def test_folder_means_every_json_file_under_it_in_path_order(tmp_path):
    write(tmp_path, "b.json", scenario(name="second"))
    (tmp_path / "a").mkdir()
    write(tmp_path / "a", "z.json", scenario(name="first"))
    write(tmp_path, "notes.txt", "not a scenario")
    status, lines = check([tmp_path])
    assert lines == ["PASS first", "PASS second", "2 passed, 0 failed"] and status == 0


def test_any_failure_exits_one(tmp_path):
    write(tmp_path, "a.json", scenario(name="good"))
    write(tmp_path, "b.json", "{")
    status, lines = check([tmp_path])
    assert status == 1 and lines[-1] == "1 passed, 1 failed"


def test_no_file_found_exits_two(tmp_path):
    status, lines = check([tmp_path])
    assert status == 2 and lines[-1] == "0 passed, 0 failed"


def test_missing_path_is_reported(tmp_path):
    status, lines = check([tmp_path / "nope.json"])
    assert status == 2 and lines[0].startswith("FAIL ") and "no such file" in lines[0]


def test_rules_check_command(tmp_path, capsys):
    write(tmp_path, "a.json", scenario(name="via the command"))
    parser = argparse.ArgumentParser()
    cmd_rules_check.add_arguments(parser)
    assert cmd_rules_check.run(parser.parse_args([str(tmp_path)])) == 0
    assert capsys.readouterr().out.splitlines() == ["PASS via the command", "1 passed, 0 failed"]
