"""``web/table/`` reads one way: no module imports, even for type hints only, a module that
imports it back (the table used to hand itself to ``records`` and ``snapshot``)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "web" / "table"


def imports_of(path: Path) -> set[str]:
    """The ``web.table`` modules ``path`` imports, anywhere in it (``TYPE_CHECKING`` too)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "web.table":
                out.update(alias.name for alias in node.names)
            elif node.module.startswith("web.table."):
                out.add(node.module.split(".")[2])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[2] for a in node.names
                       if a.name.startswith("web.table."))
    return out


def test_no_module_of_web_table_imports_itself_round_a_circle() -> None:
    graph = {p.stem: imports_of(p) for p in PACKAGE.glob("*.py")}
    assert len(graph) > 10 and "records" in graph["core"]  # the walk sees the imports

    def circle_from(start: str) -> list[str] | None:
        path: list[str] = []

        def walk(name: str) -> list[str] | None:
            if name in path:
                return [*path[path.index(name):], name]
            path.append(name)
            for nxt in sorted(graph.get(name, ())):
                found = walk(nxt)
                if found:
                    return found
            path.pop()
            return None

        return walk(start)

    circles = [c for name in sorted(graph) if (c := circle_from(name))]
    assert not circles, " -> ".join(circles[0])
