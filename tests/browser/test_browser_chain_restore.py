"""Issue 43, item 7: a chain's restore names the bridge to take off.

Ann's skitt comes to rest on the bridge between Bo's red and yellow fields: a chain (R15),
whose skitt the rules send back to the pot. Until the bridge is clear the TV, the tablet and
the referee page say which bridge to clear, by the two fields it joins in Bo's name, in
English and German, at every size people use; once it is clear, play goes on.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import SIZES, LiveServer, at_every_size, board_act, page_at, settled, snap
from tv_support import ENGINEER_WORDS, bigs_in_centre, german, post, state, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

BO = "Bartholomäus Wunderlich-Schmidt"
NAMES = {"black": "Ann", "white": BO}
CHAIN = ["white.red", "white.yellow"]
SAID = {
    "en": f"Put back: take the skitt off the bridge between {BO}'s red and yellow",
    "de": f"Zurücklegen: den Skitt von der Brücke zwischen Rot und Gelb bei {BO} nehmen",
}


def chain_on_the_bridge(api: Any, server: LiveServer) -> None:
    """A match between Ann and Bo with both big skitts in the centre; Ann's skitt lands on
    the bridge between Bo's red and yellow and stays there."""
    post(api, server, "/api/match/new", {"names": NAMES, "first": "black"})
    bigs_in_centre(api, server)
    board_act(api, server, "/api/board/bridge", {"fields": CHAIN, "on": True})
    s = wait_for(api, server, lambda s: s["tracker"]["mode"] == "restore")
    assert s["log"][-1]["step"]["shot"]["chain"] == CHAIN
    assert s["tracker"]["bridges"] == [CHAIN]


def opened(browser: Any, server: LiveServer, path: str, size: tuple[int, int], lang: str) -> Any:
    if lang == "de":
        return german(browser, server, path, size)
    return page_at(browser, server, path, size)


def says_the_bridge(page: Any, path: str, lang: str, said: str, name: str) -> None:
    """The page, at the size it now has, names the bridge to clear, in player's words, and
    fits the screen."""
    from playwright.sync_api import expect

    expect(page.locator("#alerts")).to_contain_text(said)
    if path == "/tablet":  # the board line: the same sentence, Bo named once
        line = page.locator("#board-message")
        expect(line).to_contain_text(said)
        assert line.inner_text().count(BO) == 1, line.inner_text()
    for where in ("#alerts", "#board-message"):
        for text in page.locator(where).all_inner_texts():
            assert not ENGINEER_WORDS.search(text), (path, lang, text)
    settled(page)
    assert page.evaluate("document.documentElement.scrollWidth <= "
                         "document.documentElement.clientWidth"), (path, lang, name)
    snap(page, f"chain-restore-{path.strip('/') or 'tv'}-{lang}-{name}")


def test_the_restore_after_a_chain_names_the_bridge_on_every_page_and_size(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    setup = page_at(browser, server, "/", SIZES["tv"])
    api = setup.context.request
    chain_on_the_bridge(api, server)
    setup.context.close()
    for lang, said in SAID.items():
        for path in ("/", "/tablet"):
            for name, _, page in at_every_size(lambda size, path=path, lang=lang: opened(
                    browser, server, path, size, lang)):
                says_the_bridge(page, path, lang, said, name)
        referee = opened(browser, server, "/referee", SIZES["tablet"], lang)
        expect(referee.locator("#tracker")).to_contain_text(said)
        expect(referee.locator("#alerts")).to_contain_text(said)
        referee.context.close()
    tv = page_at(browser, server, "/", SIZES["tv"])
    board_act(tv.context.request, server, "/api/board/bridge", {"fields": CHAIN, "on": False})
    wait_for(tv.context.request, server, lambda s: s["tracker"]["mode"] == "ready")
    expect(tv.locator("#alerts")).not_to_contain_text("bridge")
    assert state(tv.context.request, server)["tracker"]["bridges"] == []
    tv.context.close()
