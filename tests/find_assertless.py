"""List the tests that cannot fail: they assert nothing, or only an ``isinstance``.

Run as ``python tests/find_assertless.py [FOLDER]`` (``make test`` runs it); exits 1 and
names each such test when it finds one. A test asserts when its body, or a function it calls
that is defined in the same file, in a ``conftest.py`` or in ``tests/support``, holds:

- an ``assert`` statement other than ``assert isinstance(...)``;
- ``pytest.raises``, ``pytest.warns`` or ``pytest.fail``;
- ``raise AssertionError``, or a call of an ``assert_...`` method;
- Playwright's ``expect(...)`` or a ``wait_for_function`` (it fails on a timeout);
- a call of a ``wait_until``-like helper (``wait_until``, ``wait_for``, ``until``...), which
  fails when what it waits for does not come.

It reads the code (``ast``) and runs nothing.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
FAILING_CALLS = frozenset({"raises", "warns", "fail", "expect", "wait_for_function",
                           "wait_until", "wait_until_async", "wait_for", "until", "pump_until",
                           "wait_answer_read", "expect_request", "expect_response"})
"""Names whose call fails the test when what it checks does not hold."""


def called_names(node: ast.AST) -> Iterator[str]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            if isinstance(func, ast.Name):
                yield func.id
            elif isinstance(func, ast.Attribute):
                yield func.attr


def only_isinstance(node: ast.Assert) -> bool:
    test = node.test
    return (isinstance(test, ast.Call) and isinstance(test.func, ast.Name)
            and test.func.id == "isinstance")


def asserts_itself(node: ast.AST) -> bool:
    """A real assert statement, or a call that fails by itself, directly in ``node``."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assert) and not only_isinstance(sub):
            return True
        if isinstance(sub, ast.Raise) and sub.exc is not None and "AssertionError" in {
                n.id for n in ast.walk(sub.exc) if isinstance(n, ast.Name)}:
            return True
    return any(name in FAILING_CALLS or name.startswith("assert_")
               for name in called_names(node))


def functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node


Facts = dict[str, list[tuple[bool, frozenset[str]]]]
"""Function name: for each function of that name, (asserts itself, names it calls)."""


def facts(trees: list[ast.AST]) -> Facts:
    out: Facts = {}
    for tree in trees:
        for fn in functions(tree):
            out.setdefault(fn.name, []).append((asserts_itself(fn), frozenset(called_names(fn))))
    return out


def asserting_helpers(known: Facts, found: frozenset[str] = frozenset()) -> frozenset[str]:
    """Names of the functions in ``known`` that assert, directly or through another such
    function (or one of ``found``), with ``found``."""
    names = set(found) | {name for name, fns in known.items() if any(a for a, _ in fns)}
    while True:
        more = {name for name, fns in known.items() if name not in names
                and any(calls & names for _, calls in fns)}
        if not more:
            return frozenset(names)
        names |= more


def parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def shared_trees(root: Path) -> list[ast.AST]:
    paths = [*sorted((root / "support").rglob("*.py")), *sorted(root.rglob("conftest.py"))]
    return [parse(p) for p in paths]


def tests_in(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name.startswith("test"):
                yield node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if (isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
                        and item.name.startswith("test")):
                    yield item


def assertless(root: Path, folder: Path) -> list[str]:
    shared = asserting_helpers(facts(shared_trees(root)))
    found: list[str] = []
    for path in sorted(folder.rglob("test_*.py")):
        tree = parse(path)
        helpers = asserting_helpers(facts([tree]), shared)
        for test in tests_in(tree):
            if asserts_itself(test) or set(called_names(test)) & helpers:
                continue
            where = f"{path.relative_to(root.parent)}:{test.lineno} {test.name}"
            isinstances = [a for a in ast.walk(test) if isinstance(a, ast.Assert)]
            found.append(where + (" (asserts only isinstance)" if isinstances else ""))
    return found


def main(argv: list[str]) -> int:
    folder = Path(argv[0]).resolve() if argv else TESTS
    found = assertless(TESTS, folder)
    for line in found:
        print(f"asserts nothing: {line}")
    if found:
        print(f"{len(found)} tests cannot fail: make each assert what it means", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
