"""The hub's board cards say which skitter each board runs, and warn on each card when the
boards at the event differ, in English and German, on every screen, within the card."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import at_every_size, require_chromium, shown_box, snap
from hub_app_support import served_hub, tournament_of

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    require_chromium()
    with tournament_of(tmp_path, ()) as t:
        store = t.store
        for board, version in (("board-1", "0.4.0"), ("board-2", "0.5.0")):
            store.set_board_status(board, True, at=1.0, version=version)
            store.set_board_state(board, {"match_id": 1, "seq": 1, "names": {},
                                          "state": None}, at=1.0)
        with served_hub(t, tmp_path, "2468") as (served, _):
            yield served + "/"


@pytest.mark.parametrize("lang, shown, warned", [
    ("en", "skitter version 0.4.0", "this board runs skitter 0.4.0, other boards here run "
     "0.5.0"),
    ("de", "skitter-Version 0.4.0", "auf diesem Brett läuft skitter 0.4.0, andere Bretter "
     "hier haben 0.5.0"),
])
def test_each_card_shows_its_version_and_the_difference(url: str, browser: Any, lang: str,
                                                        shown: str, warned: str) -> None:
    from playwright.sync_api import expect

    def opened(size: tuple[int, int]) -> Any:
        page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        page.goto(f"{url}?lang={lang}")
        return page

    for name, _, page in at_every_size(opened):
        card = page.locator('article.board[data-board="board-1"]')
        expect(card.locator(".version")).to_have_text(shown)
        expect(card.locator(".alerts")).to_contain_text(warned)
        box, outer = shown_box(card.locator(".alerts")), shown_box(card)
        assert box["x"] + box["width"] <= outer["x"] + outer["width"] + 1, name
        wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
        assert wide <= 0, f"the page scrolls sideways by {wide} px at {name}"
        if name in ("tv", "phone"):
            snap(page, f"hub-versions-{lang}-{name}", full_page=True)
