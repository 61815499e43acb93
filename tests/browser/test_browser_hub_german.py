"""Issue 29: the tournament page in German at the five sizes.

The page's own words (its HTML and its scripts' sentences) read in German: the board cards,
the rounds' tables, the referee's buttons, dialogs and toasts; German words are long, so
nothing may push the page sideways. The players' names stay as given.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import SIZES, snap
from test_hub_browser import page_url  # noqa: F401  (the hub with boards, a round and games)

from hub.app import Hub

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

OVERFLOW = """() => {
  const d = document.documentElement;
  const wide = [...document.querySelectorAll("body *")].filter((e) =>
    e.getClientRects().length && getComputedStyle(e).overflowX === "visible"
    && !e.closest("table") && e.getBoundingClientRect().right > innerWidth + 1)
    .map((e) => e.id || e.className || e.tagName);
  return {scroll: d.scrollWidth, client: d.clientWidth, wide: wide.slice(0, 5)};
}"""
ENGLISH = ("no match yet", "Enter result", "Table", "round paired", "not paired", "broker")


def test_the_tournament_page_reads_in_german_and_fits_every_size(
    page_url: tuple[str, Hub], browser: Any,  # noqa: F811
) -> None:
    from playwright.sync_api import expect

    url, hub = page_url
    for name, (w, h) in SIZES.items():
        page = browser.new_page(viewport={"width": w, "height": h}, locale="en-GB")
        errors: list[str] = []
        page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
        page.goto(url + "?lang=de")
        assert page.evaluate("document.documentElement.lang") == "de"
        idle = page.locator('article.board[data-board="board-4"]')
        expect(idle.locator(".match")).to_have_text("noch keine Partie")
        expect(idle.locator(".detail")).to_have_text(
            "an diesem Brett hat noch kein Spiel begonnen")
        expect(idle.locator(".selftest")).to_have_text("kein Selbsttest gemeldet")
        busy = page.locator('article.board[data-board="board-2"]')
        pair = hub.tournament.store.pairings(1)[1]
        expect(busy.locator(".cw-who")).to_have_text(f"Punkte von {pair.white}")
        expect(busy.locator(".detail")).to_contain_text("Runde 1 · gewonnene Runden 0–0")
        expect(busy.locator(".detail")).to_contain_text("Turnierrunde 1, Tisch 2")
        expect(busy.locator(".alerts")).to_contain_text("warte auf die Ereignisse 1 bis 4")
        expect(busy.locator(".alerts")).to_contain_text("sensor link down")  # the board's own
        unnamed = page.locator('article.board[data-board="board-3"]')
        expect(unnamed.locator(".cb-who")).to_have_text("Punkte von Erster Spieler")
        expect(unnamed.locator(".detail")).to_contain_text("Zweiter Spieler ist dran")
        expect(page.locator("#attention")).to_contain_text(
            "Brett board-3: Das Spiel von ")
        expect(page.locator("#attention")).to_contain_text(
            "zählt aber erst, wenn der Schiedsrichter es annimmt")
        expect(page.locator("#attention")).to_contain_text(  # why it waits, in German too
            "ist Brett board-2 zugeteilt, nicht Brett board-3")
        expect(page.locator("#rounds h3").first).to_have_text("Runde 1")
        expect(page.locator("#rounds th").first).to_have_text("Tisch")
        expect(page.locator("#system")).to_contain_text("3 Runden, 4 Spieler.")
        expect(page.locator("#broker")).to_have_text("Broker verbunden")
        expect(page.locator("#games tbody")).to_contain_text("Runde 1, Tisch 1")
        # the hub's own sentences: why the next round waits, the field's log
        expect(page.locator("#pair-blocked")).to_have_text(
            "in Runde 1 haben noch Spiele kein Ergebnis")
        expect(page.locator("#field-log")).to_contain_text("Runde 1 ausgelost")
        page.fill("#pin", "1357")
        page.click("#login button")
        expect(page.locator("#toast")).to_have_text("angemeldet")
        expect(busy.locator(".undo")).to_be_visible()
        enter = page.locator("#rounds button.enter")
        expect(enter.first).to_have_text("Ergebnis eintragen")
        fits(page, name)
        snap(page, f"german-hub-{name}", full_page=True)
        enter.first.click()
        expect(page.locator("#enter-title")).to_contain_text("Ergebnis eintragen – Runde 1, Tisch")
        expect(page.locator("#enter-winner option").last).to_have_text("niemand (unentschieden)")
        fits(page, name)
        snap(page, f"german-hub-{name}-enter")
        page.click("#enter-cancel")
        page.locator("#games tbody button").click()
        expect(page.locator("#log-title")).to_contain_text("Brett board-1, Partie 1:")
        text = page.locator("main").inner_text()
        for english in ENGLISH:
            assert english not in text, (name, english)
        assert errors == [], errors
        page.close()


def fits(page: Any, name: str) -> None:
    got = page.evaluate(OVERFLOW)
    assert got["scroll"] <= got["client"], (name, got)
