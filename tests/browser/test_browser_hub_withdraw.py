"""A board's card says, in words, that the hub took back the game it offered (its result was
entered by hand, or it moved to another board), at every size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import SIZES, require_chromium, shown_box, snap
from hub_app_support import served_hub, tournament_of

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One hub for every size: the tests only read its page."""
    require_chromium()
    tmp_path = tmp_path_factory.mktemp("hub-withdraw")
    with tournament_of(tmp_path, ()) as t:
        store = t.store
        store.set_board_status("table-4", True, at=1.0)
        store.set_board_state("table-4", {"match_id": None, "seq": 0, "names": {},
                                          "state": None}, at=1.0)
        store.add_command("w1", "table-4",
                          {"id": "w1", "kind": "withdraw", "offer": "ab12-2-4"}, at=2.0)
        store.set_command_result("w1", {"id": "w1", "ok": True, "kind": "withdraw",
                                        "result": {"withdrawn": "ab12-2-4", "held": True}},
                                 board="table-4", at=3.0)
        with served_hub(t, tmp_path, "2468") as (served, _):
            yield served + "/"


@pytest.mark.parametrize("size", SIZES)
def test_the_card_says_the_offered_game_was_taken_back(url: str, browser: Any,
                                                       size: str) -> None:
    from playwright.sync_api import expect

    width, height = SIZES[size]
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    answer = page.locator("article.board .answer")
    expect(answer).to_have_text("the offered game is taken back from the board's tablet")
    assert "correction" not in answer.inner_text()
    box = shown_box(answer)
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 1
    snap(page, f"hub-withdraw-{size}")
    page.close()
