"""The tournament page shows the registered players' ratings (headless Chromium)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from browser_support import SCREENSHOTS, keep_screenshot, serving

from hub.app import Hub, create_hub_app
from hub.model import GameResult
from hub.store import HubStore, StoredGame
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from web_common.pin import PinStore

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


class Sender:
    connected = True

    def problems(self) -> list[str]:
        return []

    def send_command(self, board: str, kind: str, **kw: Any) -> str:
        raise AssertionError("nothing is sent")


def test_the_hub_lists_ratings_best_first(tmp_path: Path, browser: Any) -> None:
    from playwright.sync_api import expect

    clock = FakeClock(1_700_000_000.0)
    store = HubStore(tmp_path / "hub.db")
    tournament = Tournament(store, clock)
    for name in ("Ann", "Bo", "Cy"):
        tournament.add_player(name)
    store.save_game(StoredGame("b1", 1, 9, GameResult("Ann", "Bo", "Bo", 0, 2, 1, 4),
                               1001.0, None, None))
    hub = Hub(tournament, Sender(), PinStore(tmp_path / "pin"), clock)
    try:
        with serving(lambda url: create_hub_app(hub)) as url:
            for width, height in ((1920, 1080), (390, 844)):
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(url + "/")
                page.wait_for_function("document.body.dataset.ratings === 'loaded'")
                rows = page.locator("#ratings tbody tr")
                expect(rows).to_have_count(3)
                assert rows.nth(0).inner_text().split("\t")[0] == "Bo"
                assert "not rated yet" in rows.nth(2).inner_text()
                page.locator("#ratings-section").scroll_into_view_if_needed()
                SCREENSHOTS.mkdir(parents=True, exist_ok=True)
                keep_screenshot(page, f"hub-ratings-{width}x{height}")
                page.close()
    finally:
        store.close()
