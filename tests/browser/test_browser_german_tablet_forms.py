"""Issue 29: the tablet's forms in German: the choices of "change the last shot" (where the
big skitt went, a blockade's way, an unblock) and of the correction's turn are words, never
the English or a field id like ``minus``."""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import SIZES, LiveServer, snap
from tv_support import ENGINEER_WORDS, german, post, step

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


def test_the_amend_and_correction_choices_read_in_german(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    page = german(browser, server, "/tablet", SIZES["tablet"])
    api = page.context.request
    post(api, server, "/api/match/new", {"names": {"black": "Annegret", "white": "Bo"},
                                         "first": "black", "flipping": True})
    step(api, server, {"shot": {"by": "black", "big": "placed"}})
    expect(page.locator("#last-shot")).to_contain_text("Annegret")
    page.locator("#sec-correct summary").click()
    expect(page.locator("#corr-turn option").first).not_to_have_text("")
    chosen = {sel: page.locator(f"{sel} option").all_inner_texts()
              for sel in ("#amend-big", "#amend-blockade-from", "#amend-blockade-to",
                          "#amend-unblock", "#corr-turn")}
    assert chosen["#amend-big"][:2] == ["in der Mitte gelandet",
                                        "verfehlt (noch in der Hand)"], chosen
    assert chosen["#amend-blockade-from"][0] == "keine", chosen
    assert chosen["#amend-blockade-to"][:2] == ["vom Brett", "Feld Minus"], chosen
    assert chosen["#amend-unblock"][0] == "keine", chosen
    assert chosen["#corr-turn"][0] == "Bo (wie jetzt)", chosen
    for texts in chosen.values():
        for text in texts:
            assert not ENGINEER_WORDS.search(text), text
            assert "the " not in text and "none" not in text and "(as now)" not in text, text
    # what a screen reader says: the players' names and the fields in words, in German
    labels = page.evaluate("[...document.querySelectorAll('[aria-label]')].map(e => "
                           "e.getAttribute('aria-label'))")
    assert "Punkte von Annegret: eins mehr" in labels, labels
    assert "Rundensiege von Bo" in labels and "Rot bei Bo: eins weniger" in labels, labels
    assert "Skitts vom Brett" in labels, labels
    english = [x for x in labels if ENGINEER_WORDS.search(x) or re.search(
        r"\b(?:plus|minus|score|board|round wins|shoot-off|off the)\b", x)]
    assert english == [], english
    snap(page, "german-tablet-amend", full_page=True)
    page.context.close()


def test_the_board_drawings_fields_are_named_in_german(browser: Any, server: LiveServer) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    assert ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    post(ctx.request, server, "/api/match/new", {"names": {"black": "Annegret", "white": "Bo"},
                                                 "first": "black"})
    for path, board in (("/", "#board"), ("/referee", "#board"), ("/board", "#vboard")):
        page = ctx.new_page()
        page.goto(server.url + path + "?lang=de")
        page.wait_for_function("document.body.dataset.seq !== undefined")
        page.wait_for_selector(f"{board} g.field")
        labels = page.evaluate(f"[...document.querySelectorAll('{board} g.field')].map(e => "
                               "e.getAttribute('aria-label'))")
        assert "Rot bei Bo: 0 Skitts" in labels and "Feld Minus: 0 Skitts" in labels, labels
        assert not [x for x in labels if ENGINEER_WORDS.search(x)], (path, labels)
        page.close()
    page.context.close()
