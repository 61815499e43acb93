"""The pages build their DOM from data with text nodes and attributes, never with HTML.

A player's name, a reason or a sensor's message reaches every page; a page that assembled markup
from it would run whatever the name holds. The shared builders (``h`` and ``svg`` of
``web_common/static/dom.js``, which the hub's modules import too) are the one way the pages make
elements.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted(
    [*(ROOT / "web" / "static").glob("*.js"), *(ROOT / "web_common" / "static").glob("*.js"),
     *(ROOT / "hub").rglob("*.js")]
)
MARKUP_SINKS = re.compile(
    r"\.(innerHTML|outerHTML)\s*\+?=|insertAdjacentHTML|document\.write|createContextualFragment"
)


def test_the_page_scripts_are_all_checked() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"dom.js", "api.js", "words.js", "live.js", "referee.js", "review.js", "stats.js",
            "hub.js"} <= names


def test_no_page_script_turns_text_into_markup() -> None:
    found = [
        f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
        for p in SCRIPTS
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if MARKUP_SINKS.search(line)
    ]
    assert found == [], "build DOM with h / svg of dom.js instead:\n" + "\n".join(found)


def test_only_common_js_calls_the_network() -> None:
    """One API call helper (``api`` and ``data`` of ``api.js``): no page script fetches by
    itself."""
    found = [
        f"{p.relative_to(ROOT)}:{n}: {line.strip()}"
        for p in SCRIPTS if p.name != "api.js"
        for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bfetch\s*\(|XMLHttpRequest", line)
    ]
    assert found == [], "call the API with api / data of api.js instead:\n" + "\n".join(found)
