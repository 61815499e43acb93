"""Issue 29: every message reaches the catalogs. Babel's extractor reads no call inside an
f-string, so a ``t.gettext("...")`` written there is never extracted and stays English in
German (the stats table's "Pts/shot" did); each message is said outside f-strings."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("scorekeeper", "firmware_bridge", "web", "hub")
CALLS = {"gettext", "ngettext", "refuse", "refused", "because"}


def _called(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
        if name in CALLS:
            return name
    return None


def test_no_message_is_said_inside_an_f_string() -> None:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for joined in (n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)):
                for part in ast.walk(joined):
                    if _called(part):
                        found.append(f"{path.relative_to(ROOT)}:{part.lineno}")
    assert found == [], found
