"""The step parser against random and hostile input: whatever arrives (deep nesting, huge
numbers, NaN, unknown keys, names that are not strings, bytes that are not text), it
answers with an event or one of the project's own errors, never anything else. The same
parser serves the match log, ``rules-check`` and the API."""

from __future__ import annotations

import io
import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lanes import examples
from rules_support import game, refused
from web_helpers import state

from scorekeeper import scenarios
from scorekeeper.checks import MAX_DEPTH, decode_json, show
from scorekeeper.errors import IllegalEventError, ScorekeeperError
from scorekeeper.events import STEP_KEYS, parse_event, parse_event_json
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.scenarios import run_paths, run_scenario
from scorekeeper.store import MatchStore, StoreError

HOSTILE = settings(max_examples=examples(300), deadline=None,
                   suppress_health_check=list(HealthCheck))
KEYS = [*STEP_KEYS, "by", "delta", "off_board", "big", "knocked_big", "chain", "blockade",
        "red", "opponent_red", "unblock", "invalid", "score", "board", "blocked",
        "round_wins", "turn", "reason", "black", "white", "from", "to", "white.red", "minus",
        "colour", ""]
NAMES = ["black", "white", "grey", "white.red", "minus", "placed", "loose", "advance", "back"]


def nested(depth: int, leaf: Any = 1) -> Any:
    """A value ``depth`` levels deep, built without recursion."""
    value = leaf
    for i in range(depth):
        value = [value] if i % 2 else {"shot": value}
    return value


scalars = st.one_of(
    st.none(), st.booleans(), st.sampled_from(NAMES), st.text(max_size=8),
    st.integers(-3, 25), st.integers(), st.sampled_from([2**53, -(2**64)]),
    st.integers(400, 5000).map(lambda e: 10**e), st.integers(400, 5000).map(lambda e: -(10**e)),
    st.floats(allow_nan=True, allow_infinity=True),
)
keys = st.one_of(st.sampled_from(KEYS), st.text(max_size=6), st.integers(), st.none(),
                 st.booleans(), st.tuples(st.integers()))
values = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(keys, inner, max_size=4)),
    max_leaves=20,
)
deep = st.builds(nested, st.integers(MAX_DEPTH - 2, 5000), scalars)
steps = st.one_of(
    st.dictionaries(st.sampled_from(STEP_KEYS), values, min_size=1, max_size=2),
    st.fixed_dictionaries({"shot": st.dictionaries(keys, values, max_size=6)}),
    st.fixed_dictionaries({"correct": st.dictionaries(keys, values, max_size=4)}),
    st.fixed_dictionaries({"decide": st.dictionaries(keys, values, max_size=3)}),
    values, deep,
)


def as_text(value: Any) -> str:
    """``value`` as JSON text where it can be written (test input, not the subject)."""
    try:
        return json.dumps(value, skipkeys=True, default=str)
    except (ValueError, RecursionError):
        return "[]"


def own_errors_only(call: Any, *args: Any) -> Any:
    """``call(*args)``; an exception other than the project's own fails the test."""
    try:
        return call(*args)
    except ScorekeeperError:
        return None


@HOSTILE
@given(steps)
def test_the_parser_answers_any_value_with_an_event_or_its_own_error(step):
    event = own_errors_only(parse_event, step)
    if event is not None:
        assert parse_event(event.to_json()) == event  # what it accepts, it can write back


@HOSTILE
@given(steps)
def test_a_match_takes_or_refuses_any_value_and_is_unchanged_when_it_refuses(step):
    m = game()
    before = m.state
    try:
        m.apply(step)
    except IllegalEventError:
        assert m.state is before and m.events == ()


@HOSTILE
@given(st.one_of(st.text(max_size=40), st.binary(max_size=40),
                 steps.map(as_text),
                 st.builds(lambda n: "[" * n + "]" * n, st.integers(1, 100_000)),
                 st.builds(lambda n: '{"shot":' * n + "1" + "}" * n, st.integers(1, 5000)),
                 st.integers(4000, 6000).map(lambda n: "9" * n),
                 st.sampled_from(["NaN", "Infinity", "-Infinity", '{"undo": NaN}', '"\\ud800"',
                                  b"\xff\xfe"])))
def test_json_text_is_an_event_or_the_parsers_own_error(text):
    event = own_errors_only(parse_event_json, text)
    if event is not None:
        assert parse_event(event.to_json()) == event  # what it accepts, it can write back
    match = own_errors_only(Match.replay_json, Rules(), Setup(first="black"), [text])
    if match is not None:  # replayed: the one step it took is the event the text is
        assert [e.to_json() for e in match.events] == [event.to_json()]


@HOSTILE
@given(st.dictionaries(st.sampled_from(["format", "name", "rules", "setup", "steps", "x"]),
                       st.one_of(values, st.lists(steps, max_size=4), deep), max_size=5))
def test_a_scenario_object_of_any_shape_gives_a_result_line(obj):
    result = run_scenario(obj)
    assert result.line.startswith(("PASS ", "FAIL "))


def test_show_is_bounded_for_deep_long_and_huge_values():
    assert len(show(nested(100_000))) <= 60
    assert len(show(list(range(10**6)))) <= 60
    assert show(10**5000) == "an integer of 5001 digits"
    assert show(math.nan) == "nan"


def test_integers_beyond_the_json_safe_range_are_refused_by_name():
    message = refused(game(), {"shot": {"by": "black", "delta": {"white.red": 2**53}}},
                      key="shot.delta.white.red", rule=None)
    assert message.startswith("shot.delta.white.red: 9007199254740992 is out of range")
    message = refused(game(), {"shootoff": {"black": 10**5000, "white": 1}}, key="shootoff.black",
                      rule=None)
    assert "an integer of 5001 digits is out of range" in message


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 100_000])
def test_a_deeply_nested_step_is_refused_naming_its_depth(depth):
    message = refused(game(), {"shot": nested(depth)}, key="step", rule=None)
    assert f"nested more than {MAX_DEPTH} levels deep" in message
    with pytest.raises(IllegalEventError, match="nested more than"):
        parse_event_json("[" * depth + "]" * depth)


def test_a_step_that_contains_itself_is_refused():
    loop: dict[str, Any] = {"by": "black"}
    loop["delta"] = loop
    assert "nested more than" in refused(game(), {"shot": loop}, key="step", rule=None)


def test_correct_turn_null_is_a_wrong_type_not_no_change():
    message = refused(game(), {"correct": {"turn": None, "reason": "who?"}}, key="correct.turn",
                      rule=None)
    assert message.startswith('correct.turn: expected "black" or "white", got None')


def test_decide_with_a_null_choice_is_a_wrong_type():
    assert refused(game(), {"decide": {"by": "black", "red": None, "unblock": "white.red"}},
                   key="decide.red", rule=None) \
        .startswith("decide.red: expected a list")


def test_a_lone_surrogate_is_not_text():
    assert "lone surrogate" in refused(game(), {"correct": {"reason": "\ud800", "turn": "white"}},
                                       key="correct.reason", rule=None)


def test_decode_json_refuses_what_is_not_json_text():
    for text, why in [(b"\xff", "not UTF-8"), ("NaN", "NaN is not a JSON number"),
                      ("9" * 5000, "a number too long"), ("[" * 5000, "nested more than"),
                      ("{", "not JSON")]:
        with pytest.raises(IllegalEventError, match=why):
            decode_json(text, "x")


# -- rules-check: every file is one line, and the run reaches its closing line -------------


GOOD = {"format": 1, "name": "good", "setup": {"first": "black"},
        "steps": [{"expect": {"turn": "black"}}]}


def check(paths: list[Any]) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = run_paths([str(p) for p in paths], out)
    return status, out.getvalue().splitlines()


def test_a_file_nested_a_thousand_deep_fails_and_the_run_goes_on(tmp_path):
    (tmp_path / "a-deep.json").write_text("[" * 1000 + "]" * 1000)  # 2 kB
    (tmp_path / "b-good.json").write_text(json.dumps(GOOD))
    status, lines = check([tmp_path])
    assert lines == [f"FAIL {tmp_path / 'a-deep.json'}: nested more than {MAX_DEPTH} levels deep",
                     "PASS good", "1 passed, 1 failed"]
    assert status == 1


@pytest.mark.parametrize("content, reason", [
    ('{"format": 1, "steps": [' + '{"a":' * 900 + "1" + "}" * 900 + "]}", "nested more than"),
    ('{"format": 1, "steps": [{"expect": {"pot": NaN}}]}', "NaN is not a JSON number"),
    ('{"format": 1, "steps": [{"shootoff": {"black": ' + "9" * 5000 + "}}]}",
     "a number too long to read"),
    (bytes(range(256)), "not UTF-8"),
    ('{"format": 1, "steps": [{"shot": {"by": "black", "delta": {"white.red": 1e400}}}]}',
     "expected an integer"),
])
def test_strange_files_fail_with_a_reason(tmp_path, content, reason):
    path = tmp_path / "strange.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    status, lines = check([path])
    assert reason in lines[0] and lines[0].startswith("FAIL ")
    assert lines[-1] == "0 passed, 1 failed" and status == 1


def test_a_file_too_big_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(scenarios, "MAX_FILE_BYTES", 100)
    (tmp_path / "big.json").write_text(json.dumps({**GOOD, "name": "x" * 200}))
    status, lines = check([tmp_path])
    assert "too big for a scenario file" in lines[0] and lines[-1] == "0 passed, 1 failed"


def test_an_unexpected_error_costs_one_line_not_the_run(tmp_path, monkeypatch):
    def explode(path: Any) -> Any:
        raise RecursionError("maximum recursion depth exceeded")

    (tmp_path / "a.json").write_text(json.dumps(GOOD))
    out = io.StringIO()
    assert run_paths([str(tmp_path)], out, run=explode) == 1
    assert out.getvalue().splitlines() == [
        f"FAIL {tmp_path / 'a.json'}: internal error: RecursionError: "
        "RecursionError('maximum recursion depth exceeded')", "0 passed, 1 failed"]


# -- The API: the same parser, a 422 for a deeply nested body -------------------------------


@pytest.mark.parametrize("depth", [100, 1000, 4000])  # deeper bodies are over the size cap (413)
def test_a_deeply_nested_step_body_is_a_422_naming_the_depth(referee, depth):
    seq = state(referee)["seq"]
    delta = "[" * depth + "]" * depth
    body = f'{{"seq": {seq}, "step": {{"shot": {{"by": "black", "delta": {delta}}}}}}}'
    response = referee.post("/api/match/steps", content=body,
                            headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert f"{MAX_DEPTH} levels" in response.text  # the HTTP guard or the step parser names it
    assert "[[[[" not in response.text  # the input is not echoed back
    assert state(referee)["seq"] == seq


def test_a_correction_with_turn_null_is_a_422_through_the_api(referee):
    seq = state(referee)["seq"]
    response = referee.post("/api/match/steps", json={
        "seq": seq, "step": {"correct": {"turn": None, "reason": "test"}}})
    assert response.status_code == 422
    assert "correct.turn" in response.json()["detail"]


# -- The log import: the same parser ---------------------------------------------------------


def test_a_deeply_nested_line_in_an_imported_log_is_refused_naming_the_line(tmp_path):
    header = json.dumps({"match": {"format": 1, "rules": {}, "setup": {}}})
    deep = '{"seq": 1, "at": 0, "source": "manual", "event": ' + "[" * 5000 + "]" * 5000 + "}"
    store = MatchStore(tmp_path / "log.db")
    try:
        with pytest.raises(StoreError, match="line 2: nested more than"):
            store.import_jsonl([header, deep])
        assert store.latest_match_id() is None
    finally:
        store.close()
