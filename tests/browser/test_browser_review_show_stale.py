"""Two people at once (issue 38, item 6): the referee opens a shot's review; meanwhile the
tablet, in another browser, scores the next shot. Showing the review on the scoreboard was
decided on the match as it was: it is refused, the referee page says what changed, in English
and in German, and the next tap (on the match as it is now) shows it."""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import LiveServer, keep_screenshot
from test_review_browser import play_shots, post, state, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

SAID = {"en": ("Not shown on the scoreboard: the match changed meanwhile.",
               "This page now shows the match as it is."),
        "de": ("Nicht auf der Anzeigetafel gezeigt: das Spiel hat sich inzwischen geändert.",
               "Diese Seite zeigt jetzt das Spiel, wie es ist.")}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_review_shown_after_the_match_moved_on_is_refused_and_explained(
    browser: Any, server: LiveServer, lang: str
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=8000)
    referee = browser.new_context(viewport={"width": 1280, "height": 860})
    tablet = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = referee.new_page()
        page.goto(server.url + f"/referee?lang={lang}")
        seq = play_shots(referee, server)
        page.reload()
        page.wait_for_function("document.body.classList.contains('referee')")
        page.locator(f'#log tr[data-seq="{seq}"] button[data-review]').click()
        expect(page.locator("#review")).to_be_visible()

        # The other person, at the tablet, scores Bo's next shot on the match as it is.
        post(tablet, server, "/api/referee/login", {"pin": server.pin})
        n = state(tablet, server)["log_length"]
        post(tablet, server, "/api/match/steps", {"seq": state(tablet, server)["seq"],
                                                  "step": {"shot": {"by": "white", "delta": {}}}})
        wait_for(tablet, server, lambda s: s["log_length"] == n + 1, "Bo's shot")

        with page.expect_response(lambda r: "/api/referee/review-show" in r.url) as answer:
            page.click("#review-show")
        assert answer.value.status == 409
        toast = page.locator("#toast")
        first, last = SAID[lang]
        expect(toast).to_contain_text(first)
        expect(toast).to_contain_text(last)
        assert state(tablet, server)["review_shown"] is None
        keep_screenshot(page, f"review-show-stale-{lang}")

        # Told, the referee taps again: shown, on the match as it is now.
        with page.expect_response(lambda r: "/api/referee/review-show" in r.url) as again:
            page.click("#review-show")
        assert again.value.ok
        wait_for(tablet, server, lambda s: (s["review_shown"] or {}).get("seq") == seq,
                 "the review on the scoreboard")
    finally:
        tablet.close()
        referee.close()
