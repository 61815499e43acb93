"""The scenario runner: plays rules scenario files (docs/scenarios.md, format 1) and reports.

``skitter rules-check FILE_OR_FOLDER...`` runs every scenario: a folder means every
``*.json`` file under it, recursively, in path order. Each file stops at its first failure
and prints one line:

- ``PASS <name>``
- ``FAIL <name>: step N: <key>: expected <X>, got <Y>`` (X and Y as compact JSON)
- ``FAIL <name>: step N: refused: <message>``
- ``FAIL <name>: step N: expected a refusal, the step was accepted``
- ``FAIL <file path>: <message>`` for a malformed file (the message names the key)

then ``N passed, M failed``. Exit status 0 when all passed, 1 when any failed, 2 when no
file was found. Any file, however deep, big or strange, is one ``FAIL`` line with its reason
(:func:`run_guarded`), and the run always reaches its closing line. This module and the
store are the only parts of ``scorekeeper`` that do I/O; everything below
:func:`run_scenario_file` works on plain values.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from scorekeeper import checks
from scorekeeper.checks import show
from scorekeeper.errors import IllegalEventError, MalformedEventError
from scorekeeper.events import STEP_KEYS
from scorekeeper.match import Match
from scorekeeper.options import BigState, Handicap, Rules, Setup
from scorekeeper.state import Phase, State
from scorekeeper.words import ENGLISH, Words

TOP_KEYS = ("format", "name", "rules", "setup", "steps")
MAX_FILE_BYTES = 16 * 2**20
"""A scenario file larger than this is refused unread (the largest real one is a few kB)."""
EXPECT_KEYS = ("score", "round_wins", "turn", "phase", "winner", "round", "rounds", "board",
               "blocked", "pot", "big", "points_to_win_round", "rounds_to_win_game",
               "handicaps", "kept", "minus_hits")
ALL_STEP_KEYS = STEP_KEYS + ("expect", "expect_error")
_RULINGS = re.compile(r"R\d{1,2}(?:, R\d{1,2})*")
"""An ``expect_error``'s ``rule``: the rulings a refusal cites, as its message does."""


@dataclass(frozen=True)
class ScenarioResult:
    """The outcome of one scenario file."""

    path: str
    """The file, as it was found."""
    name: str
    """The scenario's ``name`` (the path when the file is malformed)."""
    passed: bool
    """True when every step did what the file says."""
    message: str = ""
    """Why it failed: ``step N: ...`` or, for a malformed file, what is wrong."""
    malformed: bool = False
    """True when the file itself is wrong (not JSON, a bad key, a bad step)."""

    @property
    def line(self) -> str:
        """The line ``rules-check`` prints for this file."""
        if self.passed:
            return f"PASS {self.name}"
        return f"FAIL {self.name}: {self.message}"


def compact(value: Any) -> str:
    """JSON without spaces, as the report prints expected and actual values."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# -- Checking the file's shape ------------------------------------------------------------

def _check_expect(obj: Any, rules: Rules, where: str = "") -> None:
    """An expect step's keys and names; a wrong one refuses the step (docs/scenarios.md)."""
    exp = checks.mapping(obj, f"{where}expect")
    checks.only_keys(exp, EXPECT_KEYS, f"{where}expect")
    for key in ("score", "round_wins"):
        if key in exp:
            checks.per_player(exp[key], f"{where}expect.{key}")
    if "board" in exp:
        for name in checks.counts(exp["board"], f"{where}expect.board"):
            if name not in rules.fields:
                raise MalformedEventError(f"{where}expect.board: unknown field "
                                          f"{checks.show(name)}")
    if "blocked" in exp:
        checks.string_list(exp["blocked"], f"{where}expect.blocked")
    for key in ("turn", "winner"):
        if exp.get(key) is not None:
            checks.player(exp[key], f"{where}expect.{key}")
    if "phase" in exp and exp["phase"] not in {str(p) for p in Phase}:
        raise MalformedEventError(f"{where}expect.phase: expected \"shootoff\", \"playing\" "
                                  f"or \"game_over\", got {checks.show(exp['phase'])}")
    for key in ("round", "pot", "points_to_win_round", "rounds_to_win_game", "kept",
                "minus_hits"):
        if key in exp:
            checks.integer(exp[key], f"{where}expect.{key}")
    if "rounds" in exp:
        if not isinstance(exp["rounds"], list):
            raise MalformedEventError(f"{where}expect.rounds: expected a list")
        for i, r in enumerate(exp["rounds"]):
            if r is not None:
                checks.player(r, f"{where}expect.rounds[{i}]")
    if "handicaps" in exp:
        for p, v in checks.mapping(exp["handicaps"], f"{where}expect.handicaps").items():
            checks.player(p, f"{where}expect.handicaps", of_key=True)
            if v is not None:
                Handicap.from_json(v)
    if "big" in exp:
        for p, v in checks.mapping(exp["big"], f"{where}expect.big").items():
            checks.player(p, f"{where}expect.big", of_key=True)
            if v is not None and v not in tuple(BigState):
                raise MalformedEventError(f"{where}expect.big.{p}: expected \"hand\", "
                                          f"\"center\" or null, got {checks.show(v)}")


def _check_step_shape(step: Any, n: int, rules: Rules) -> None:
    where = f"step {n}"
    if not isinstance(step, Mapping) or len(step) != 1 or next(iter(step)) not in ALL_STEP_KEYS:
        got = list(step) if isinstance(step, Mapping) else step
        raise MalformedEventError(f"{where}: expected an object with exactly one of "
                                  f"{', '.join(ALL_STEP_KEYS)}, got {checks.show(got)}")
    ((key, value),) = step.items()
    if key == "expect_error":
        inner = value
        named = [k for k in inner if k != "rule"] if isinstance(inner, Mapping) else []
        if not isinstance(inner, Mapping) or len(named) != 1 or named[0] not in STEP_KEYS:
            got = list(inner) if isinstance(inner, Mapping) else inner
            raise MalformedEventError(f"{where}: expect_error: expected one step, an object "
                                      f"with exactly one of {', '.join(STEP_KEYS)} (and "
                                      f"\"rule\"), got {checks.show(got)}")
        rule = inner.get("rule")
        if rule is not None and not (isinstance(rule, str) and _RULINGS.fullmatch(rule)):
            raise MalformedEventError(f"{where}: expect_error.rule: expected the rulings that "
                                      f"refuse (\"R2\", \"R11, R12\") or null, got "
                                      f"{checks.show(rule)}")


def load_scenario(obj: Any) -> tuple[str, Rules, Setup, list[Any]]:
    """Check a scenario object's shape; raises MalformedEventError naming the key."""
    if not isinstance(obj, Mapping):
        raise MalformedEventError("top level: expected an object")
    checks.within_depth(obj, "top level")
    for key in obj:
        if key not in TOP_KEYS:
            raise MalformedEventError(f"unknown top-level key {checks.show(key)} (known: "
                                      f"{', '.join(TOP_KEYS)})")
    if "format" not in obj:
        raise MalformedEventError("format: missing (expected 1)")
    if obj["format"] != 1 or isinstance(obj["format"], bool):
        raise MalformedEventError(f"format: expected 1, got {checks.show(obj['format'])}")
    if "steps" not in obj:
        raise MalformedEventError("steps: missing")
    steps = obj["steps"]
    if not isinstance(steps, list):
        raise MalformedEventError(f"steps: expected a list, got {checks.show(steps)}")
    name = checks.string(obj.get("name", ""), "name")
    rules = Rules.from_json(obj.get("rules"))
    setup = Setup.from_json(obj.get("setup"))
    for n, step in enumerate(steps, 1):
        _check_step_shape(step, n, rules)
    return name, rules, setup, steps


# -- Playing it ---------------------------------------------------------------------------

def _actual(state: State, key: str, wanted: Any) -> Any:
    """The state's value for an expect key, restricted to what the file lists."""
    if key in ("score", "round_wins", "board", "big"):
        have = getattr(state, key)
        return {k: have.get(k) for k in wanted}
    if key == "blocked":
        return sorted(state.blocked)
    if key == "rounds":
        return list(state.rounds)
    if key in ("points_to_win_round", "rounds_to_win_game"):
        return getattr(state.rules, key)
    if key == "handicaps":
        return {p: (state.handicaps[p].to_json() if p in state.handicaps else None)
                for p in wanted}
    return getattr(state, key)


def _mismatch(state: State, expect: Mapping[str, Any]) -> str | None:
    for key, wanted in expect.items():
        got = _actual(state, key, wanted)
        same = sorted(wanted) == got if key == "blocked" else got == wanted
        if not same:
            return f"{key}: expected {compact(wanted)}, got {compact(got)}"
    return None


def run_scenario(obj: Any, path: str = "<scenario>") -> ScenarioResult:
    """Play one scenario object (already read from JSON)."""
    try:
        name, rules, setup, steps = load_scenario(obj)
        match = Match(rules, setup)
    except IllegalEventError as err:
        return ScenarioResult(path, path, False, str(err), malformed=True)
    name = name or path
    for n, step in enumerate(steps, 1):
        ((key, value),) = step.items()
        try:
            if key == "expect":
                _check_expect(value, rules)
                problem = _mismatch(match.state, value)
                if problem is not None:
                    return ScenarioResult(path, name, False, f"step {n}: {problem}")
            elif key == "expect_error":
                before, logged = match.state, len(match.events)
                try:
                    match.apply({k: v for k, v in value.items() if k != "rule"})
                except IllegalEventError as err:
                    if match.state is not before or len(match.events) != logged:
                        return ScenarioResult(path, name, False,
                                              f"step {n}: the refused step changed the state")
                    by = ", ".join(err.rules) or None
                    if "rule" in value and by != value["rule"]:
                        return ScenarioResult(
                            path, name, False, f"step {n}: refused by {by or 'no ruling'}, "
                            f"expected {value['rule'] or 'no ruling'}: {err}")
                    continue
                return ScenarioResult(path, name, False,
                                      f"step {n}: expected a refusal, the step was accepted")
            else:
                match.apply(step)
        except IllegalEventError as err:
            return ScenarioResult(path, name, False, f"step {n}: refused: {err}")
        except Exception as err:  # a bug in the engine must not stop the other files
            return ScenarioResult(path, name, False,
                                  f"step {n}: internal error: {type(err).__name__}: {err}")
    return ScenarioResult(path, name, True)


def run_scenario_file(path: str | Path) -> ScenarioResult:
    """Read and play one scenario file (at most :data:`MAX_FILE_BYTES` of it)."""
    shown = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        return ScenarioResult(shown, shown, False, f"cannot read: {err.strerror or err}",
                              malformed=True)
    if len(data) > MAX_FILE_BYTES:
        return ScenarioResult(shown, shown, False, f"too big for a scenario file (more than "
                              f"{MAX_FILE_BYTES // 2**20} MB)", malformed=True)
    try:
        obj = checks.decode_json(data, "file")
    except MalformedEventError as err:
        return ScenarioResult(shown, shown, False, str(err).removeprefix("file: "),
                              malformed=True)
    return run_scenario(obj, shown)


def run_guarded(path: str | Path,
                run: Callable[[str | Path], ScenarioResult] = run_scenario_file
                ) -> ScenarioResult:
    """``run(path)``, with any error a file could still provoke reported as that file's
    failure, so one strange file never stops the others or the closing line."""
    try:
        return run(path)
    except Exception as err:  # a bug here must cost one line, not the run  # noqa: BLE001
        shown = str(path)
        return ScenarioResult(shown, shown, False,
                              f"internal error: {type(err).__name__}: {show(err)}",
                              malformed=True)


def find_scenario_files(paths: Sequence[str]) -> tuple[list[Path], list[str]]:
    """The scenario files named by ``paths`` (folders searched recursively for ``*.json``,
    in path order) and the paths that do not exist."""
    found: list[Path] = []
    missing: list[str] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found.extend(sorted(f for f in path.rglob("*.json") if f.is_file()))
        elif path.is_file():
            found.append(path)
        else:
            missing.append(p)
    return found, missing


def run_paths(paths: Sequence[str], out: TextIO,
              run: Callable[[str | Path], ScenarioResult] = run_scenario_file,
              t: Words = ENGLISH) -> int:
    """Run every scenario under ``paths``, print one line each and the closing count (the
    command's own words in the language ``t``; a scenario's failure is the rules' text).
    Returns the exit status: 0 all passed, 1 any failed, 2 no file found."""
    files, missing = find_scenario_files(paths)
    passed = failed = 0
    for p in missing:
        print(f"FAIL {p}: " + t.gettext("no such file or folder"), file=out)
        failed += 1
    for f in files:
        result = run_guarded(f, run)
        print(result.line, file=out)
        if result.passed:
            passed += 1
        else:
            failed += 1
    if not files:
        print(t.gettext("no scenario files found in {paths}").format(
            paths=", ".join(paths) or t.gettext("(no paths given)")), file=out)
    print(t.gettext("{passed} passed, {failed} failed").format(passed=passed, failed=failed),
          file=out)
    if not files:
        return 2
    return 0 if failed == 0 else 1
