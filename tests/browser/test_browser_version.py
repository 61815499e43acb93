"""The referee page says which skitter runs the board, in the page's language, on every
screen, within the page's width."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import LiveServer, at_every_size, page_at, shown_box, snap

from web_common.version import skitter_version

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


@pytest.mark.parametrize("lang, words", [("en", "skitter version {v}"),
                                         ("de", "skitter-Version {v}")])
def test_the_referee_page_shows_the_version(browser: Any, server: LiveServer, lang: str,
                                            words: str) -> None:
    from playwright.sync_api import expect

    for name, size, page in at_every_size(
            lambda size: page_at(browser, server, f"/referee?lang={lang}", size)):
        version = page.locator("#version")
        expect(version).to_have_text(words.format(v=skitter_version()))
        box = shown_box(version)
        assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], (name, box)
        if name in ("tv", "phone"):
            snap(page, f"referee-version-{lang}-{name}", full_page=True)
