"""No state is compared against a string literal (issue 41, item 3): a mode, a phase, a kind,
a choice is an enum declared where it is owned, and compared with its members. The check reads
the source of the four packages and lists every comparison of a state-named value (``mode``,
``kind``, ``choice``... as a name, an attribute, a key or a ``.get``) with a string literal;
only the edges below, where a word from outside is decoded, may do so."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scorekeeper", "firmware_bridge", "web", "hub", "web_common", "tournament_wire",
            "skitter_cli")
STATE_WORDS = frozenset({
    "mode", "phase", "kind", "status", "state", "type", "big", "landing", "choice", "red",
    "end_round", "variant", "role", "who", "which", "credit", "dst", "verdict", "source",
    "reason", "outcome", "name", "answer",
})
"""Names of values that hold a state (as a variable, an attribute or a key)."""

EDGES: dict[tuple[str, str], str] = {
    ("firmware_bridge/linkproto.py", "_parse_payload"):
        "decodes a frame's type letter from the serial link into a typed frame",
    ("firmware_bridge/calibrate.py", "_field"):
        "reads the letter a person typed at the calibration prompt",
    ("skitter_cli/log.py", "_export"):
        "reads the command line's word (\"latest\" or a match number)",
    ("hub/intake_why.py", "_value"):
        "decodes a tagged value of a board's message from its JSON",
    ("hub/view.py", "board_alerts"):
        "reads the alert kinds in a board's published JSON as received over MQTT",
    ("web_common/broadcaster.py", "_watch_for_close"): "ASGI's message type (Starlette's protocol)",
    ("web_common/guards.py", "*"): "ASGI's scope and message types (the protocol's words)",
    ("web_common/serving.py", "__call__"): "ASGI's scope type (the protocol's words)",
    ("web_common/i18n.py", "__call__"): "ASGI's scope type (the protocol's words)",
}
"""Where a word from outside is decoded: (file, function, or ``*`` for the whole file of
ASGI middleware) with why."""


def _is_str(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _words(node: ast.AST) -> bool:
    return _is_str(node) or (isinstance(node, (ast.Tuple, ast.List, ast.Set)) and bool(node.elts)
                             and all(_is_str(e) for e in node.elts))


def _subject(node: ast.AST) -> str | None:
    """The name a compared value goes by: ``mode``, ``x.mode``, ``x["mode"]``,
    ``x.get("mode")``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Subscript) and _is_str(node.slice):
        return str(node.slice.value)  # type: ignore[attr-defined]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get" and node.args and _is_str(node.args[0])):
        return str(node.args[0].value)  # type: ignore[attr-defined]
    return None


def _state_compared(node: ast.Compare) -> bool:
    left = node.left
    for op, right in zip(node.ops, node.comparators, strict=True):
        if isinstance(op, (ast.Eq, ast.NotEq)) and (
                (_words(right) and _subject(left) in STATE_WORDS)
                or (_is_str(left) and _subject(right) in STATE_WORDS)):
            return True
        if isinstance(op, (ast.In, ast.NotIn)) and _words(right) and not _is_str(right) \
                and _subject(left) in STATE_WORDS:
            return True
        left = right
    return False


def state_string_comparisons(source: str) -> list[tuple[int, str, str]]:
    """Each comparison of a state with a string literal in ``source``: (line, function, text)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    found: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            function = node.name
        if isinstance(node, ast.Compare) and _state_compared(node):
            found.append((node.lineno, function, lines[node.lineno - 1].strip()))
        if isinstance(node, ast.Match) and _subject(node.subject) in STATE_WORDS:
            for case in node.cases:
                if isinstance(case.pattern, ast.MatchValue) and _is_str(case.pattern.value):
                    found.append((case.pattern.lineno, function,
                                  lines[case.pattern.lineno - 1].strip()))
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "")
    return found


def _all() -> list[tuple[str, int, str, str]]:
    out = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            out += [(name, line, function, text)
                    for line, function, text in state_string_comparisons(path.read_text())]
    return out


def test_no_state_is_compared_with_a_string_literal_outside_the_edges() -> None:
    offending = [f"{path}:{line}: {text}" for path, line, function, text in _all()
                 if (path, function) not in EDGES and (path, "*") not in EDGES]
    assert not offending, "compare with the state's enum instead:\n" + "\n".join(offending)


def test_every_edge_listed_still_decodes_a_word() -> None:
    used = {(path, function) for path, _, function, _ in _all()} | {
        (path, "*") for path, _, _, _ in _all()}
    assert set(EDGES) <= used, set(EDGES) - used


@pytest.mark.parametrize("source", [
    'if tracker.get("mode") == "restore": pass',
    'if shot.big == "placed": pass',
    'ok = choice in ("advance", "back")',
    'ok = "trio" == self.variant',
    'match kind:\n    case "single": pass',
])
def test_the_check_finds_a_state_compared_with_a_word(source: str) -> None:
    assert state_string_comparisons(source)


@pytest.mark.parametrize("source", [
    'if tracker.get("mode") == Mode.RESTORE: pass',
    'if "mode" in data: pass',
    'if field == MINUS: pass',
])
def test_the_check_leaves_enums_and_keys_alone(source: str) -> None:
    assert not state_string_comparisons(source)
