"""The board's ES modules (``web/static``) as one classic script, for pages that still load
helpers by ``<script src>`` and use them as a global (the tournament hub's ``Common``).

A module cannot be loaded as a classic script, and a classic script cannot import a module,
so the hub is served the same files wrapped: each module becomes a function returning what
it exports, its imports are the earlier modules' names. One source for both kinds of page.
"""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.responses import Response

IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w.-]+)";[ \t]*\n', re.M)
EXPORTED = re.compile(r"^export\s+(?:async\s+)?(?:function|const|let|class)\s+([\w$]+)", re.M)
EXPORT = re.compile(r"^export\s+", re.M)


class ScriptResponse(Response):
    """A script made here (never a JSON answer): served as JavaScript."""

    media_type = "text/javascript"


def wrap_module(text: str) -> tuple[str, list[str]]:
    """A module's text as a function body returning its exports, and the exported names."""
    names = EXPORTED.findall(text)
    body = EXPORT.sub("", IMPORT.sub("", text))
    return f"(() => {{\n{body}\nreturn {{ {', '.join(names)} }};\n}})()", names


def classic_script(folder: Path, modules: tuple[str, ...], global_name: str) -> str:
    """``modules`` (in import order) as one script defining ``global_name``: the export of
    that name if one of them has it, else an object of every name they export."""
    parts: list[str] = []
    every: list[str] = []
    for module in modules:
        text = (folder / module).read_text(encoding="utf-8")
        for imported, source in IMPORT.findall(text):
            # an import is the earlier module's name itself: renamed or from elsewhere, the
            # wrapped script would miss it
            if source not in modules[:modules.index(module)] or " as " in imported:
                raise ValueError(f"{module}: cannot wrap its import from {source}")
        wrapped, names = wrap_module(text)
        parts.append(f"// {module}\nconst {{ {', '.join(names)} }} = {wrapped};")
        every += names
    inner = "\n".join(parts)
    value = global_name if global_name in every else f"{{ {', '.join(every)} }}"
    return f'"use strict";\nconst {global_name} = (() => {{\n{inner}\nreturn {value};\n}})();\n'
