"""A board with the longest id the hub accepts (64 characters, no space to break at), and a
long match id, still fits a phone: the card wraps the ids instead of widening the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import SIZES, require_chromium, snap
from hub_app_support import served_hub, tournament_of

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

BOARD = "clubhouse-upstairs-" + "x" * 45  # 64 characters, the most BOARD_ID_RE takes


@pytest.fixture
def url(tmp_path: Path) -> Iterator[str]:
    require_chromium()
    assert len(BOARD) == 64
    with tournament_of(tmp_path, ()) as t:
        store = t.store
        store.set_board_status(BOARD, True, at=1.0)
        store.set_board_state(BOARD, {"match_id": "m" * 40, "seq": 12345, "names": {},
                                      "state": None}, at=1.0)
        with served_hub(t, tmp_path, "2468") as (served, _):
            yield served + "/"


@pytest.mark.parametrize("size", ["phone", "tablet-portrait"])
def test_a_long_board_id_wraps_inside_its_card(url: str, browser: Any, size: str) -> None:
    from playwright.sync_api import expect

    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    expect(page.locator("article.board .id")).to_have_text(BOARD)
    wide = page.evaluate("document.documentElement.scrollWidth - innerWidth")
    assert wide <= 0, f"the page scrolls sideways by {wide} px at {size}"
    snap(page, f"hub-long-board-id-{size}", full_page=True)
    page.close()
