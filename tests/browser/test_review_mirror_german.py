"""Issue 29: the review the referee shows on the scoreboard (``review_shown``) reads in the
TV's own language: an English referee page mirrors a shot on a German TV, and the TV says
what the shot did in German (the review's words are made per request, in the page's
language), while the referee's page stays English."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import LiveServer
from test_review_browser import mirrored_review, shot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def test_a_review_mirrored_on_a_german_tv_reads_in_german(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    try:
        page, tv, _ = mirrored_review(ctx, server, "/?lang=de")
        words = tv.locator("#review-mirror-words")
        expect(words).to_contain_text("Wiederholung des Schusses: Ann: ")
        expect(words).to_contain_text("1 Skitt weg von Rot bei Bo")
        expect(page.locator("#review-concluded")).to_contain_text("1 skitt off Bo's red")

        shot(tv, "review-mirror-tv-de")
        page.click("#review-show")
        expect(tv.locator("#review-mirror")).to_be_hidden()
    finally:
        ctx.close()
