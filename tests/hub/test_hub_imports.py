"""Issue 41: the hub is its own package and reads one way. No module of ``hub`` imports,
at any level (the top, a function, a type check), a module that imports it back, and
nothing in ``hub`` reaches into the board's match or its MQTT side."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HUB = ROOT / "hub"


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _found(path: Path, *, names: bool) -> set[str]:
    """The modules ``path`` imports, wherever the import is written (``names``: with each
    name imported from a module as ``module.name`` too, as it may be a submodule)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if names:
                found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def _imports() -> dict[str, set[str]]:
    """Every hub module and the hub modules it imports."""
    graph = {_module(path): _found(path, names=True) for path in sorted(HUB.rglob("*.py"))}
    return {m: {i for i in found if i in graph and i != m} for m, found in graph.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    circles: list[list[str]] = []

    def walk(module: str, path: list[str]) -> None:
        for nxt in sorted(graph[module]):
            if nxt == path[0]:
                circles.append([*path, nxt])
            elif nxt not in path and nxt > path[0]:
                walk(nxt, [*path, nxt])

    for start in sorted(graph):
        walk(start, [start])
    return circles


def test_no_hub_module_imports_one_that_imports_it_back() -> None:
    assert _circles(_imports()) == []


def test_the_hub_takes_from_web_only_the_wire_the_offer_and_generic_helpers() -> None:
    board_only = ("web.table.", "web.tournament.mqtt_", "web.tournament.board_",
                  "web.api.routers.match")
    reached = sorted({i for found in _all_imports() for i in found if i.startswith(board_only)})
    assert [i for i in reached if not i.startswith("tournament_wire.offer")] == []


def _all_imports() -> list[set[str]]:
    return [_found(path, names=False) for path in sorted(HUB.rglob("*.py"))]
