"""Issue 29: the board's stream overlay in German (``/overlay?lang=de``, or a browser source
whose browser prefers German): the page's own words and the state's words from its feed."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import LiveServer, snap
from tv_support import post, score_a_point

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.mark.parametrize("query, locale", [("?lang=de", "en-GB"), ("", "de-DE")])
def test_the_overlay_reads_in_german(browser: Any, server: LiveServer, query: str,
                                     locale: str) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale=locale)
    assert ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    page = ctx.new_page()
    page.goto(server.url + "/overlay" + query)
    page.wait_for_function("document.body.dataset.seq !== undefined")
    assert page.evaluate("document.documentElement.lang") == "de"
    info = page.locator(".ov-info")
    expect(info).to_have_text("Runde 1 · Erster Spieler: den großen Skitt in die Mitte schießen")
    assert page.locator(".ov-mark").first.get_attribute("aria-label") == "ist dran"
    post(ctx.request, server, "/api/match/new", {
        "names": {"black": "Annegret", "white": "Bo"}, "first": "black",
        "points_to_win_round": 1, "rounds_to_win_game": 2})
    score_a_point(ctx.request, server)
    expect(page.locator(".ov-banner .title")).to_have_text("Annegret gewinnt Runde 1")
    snap(page, f"german-overlay{query.replace('?', '-').replace('=', '')}")
    ctx.close()
