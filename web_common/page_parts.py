"""Markup that two servers' pages show alike, kept once in ``web_common/static/parts``.

The board's stream overlay (``/overlay``) and the hub's table overlay draw one match with one
script (``web_common/static/overlay.js``), which fills the same elements; each page names the piece
with a comment ``<!-- part: NAME -->`` and is served with ``parts/NAME.html`` in its place.
"""

from __future__ import annotations

import re

from web_common.page_files import COMMON

PARTS = COMMON / "parts"
_PART = re.compile(r"<!-- part: ([\w-]+) -->")


def with_parts(source: str) -> str:
    """A page's HTML with every ``<!-- part: NAME -->`` replaced by that part's markup."""
    return _PART.sub(
        lambda m: (PARTS / f"{m.group(1)}.html").read_text(encoding="utf-8").rstrip("\n"),
        source)
