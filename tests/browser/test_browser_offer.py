"""The tournament game the hub offers a board, on the tablet and the TV, at every size.

The flow runs twice, on the screens without touch and on the phone (a touch screen); the
pages are resized to each size of their group in turn where the layout is checked.

Two tablets (each its own browser context) show the offer with both names and the format;
a match is running, so each asks before ending it. The first tablet starts the game; the
second, whose person decided on the picture before, is refused and told what changed (the
match in play is now the offered game), and nothing else starts. The TV shows "Next: Anna v
Ben, round 2, table 3" while the board waits, and drops it once the game is started.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import SCREENS, LiveServer, at_each_size, first_size, is_touch
from tv_support import (
    board_fits,
    in_view,
    one_server_per_module,
    post,
    snap,
    state,
    step,
    tablet,
    tv,
)

from tournament_wire.offer import GameFormat, Offer

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

FORMAT = GameFormat(points_to_win_round=7, rounds_to_win_game=3, flipping=True)


server, api = one_server_per_module("offer")


def offer(server: LiveServer, made: Offer) -> None:
    """The hub's offer arrives at the board (what the tournament link hands the table)."""
    table: Any = server.table
    assert table.writer.submit(lambda: table.offer_game(made)).result(5)


def no_sideways_scroll(page: Any) -> bool:
    return bool(page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"))


@pytest.mark.parametrize("screens", list(SCREENS))
def test_two_tablets_one_starts_the_offered_game_the_other_is_told(
    browser: Any, server: LiveServer, api: Any, screens: str
) -> None:
    from playwright.sync_api import expect

    sizes = SCREENS[screens]
    size = first_size(sizes)
    table_no = list(SCREENS).index(screens) + 1
    post(api, server, "/api/match/new", {"names": {"black": "Cleo", "white": "Dev"},
                                          "first": "black"})
    step(api, server, {"shot": {"by": "black", "big": "placed"}})  # a match is running
    made = Offer(f"t0001-2-{table_no}", 2, table_no, "Anna", "Ben", FORMAT)
    screen = tv(browser, server, size)
    offer(server, made)
    words = f"Anna v Ben, round 2, table {table_no}"
    # The caller calls the offered game once; the next step is called, not the offer again.
    screen.wait_for_function(f"document.body.dataset.callerSaid === 'Next: {words}'")
    step(api, server, {"shot": {"by": "white", "big": "placed"}})
    screen.wait_for_function("document.body.dataset.callerSaid === 'Dev places the big skitt'")

    touch = is_touch(size)
    a, b = tablet(browser, server, size, touch=touch), tablet(browser, server, size, touch=touch)
    for page in (a, b):
        expect(page.locator("#offer-who")).to_have_text(words)
        expect(page.locator("#offer-format")).to_have_text(
            "Played to 7 points a round, 3 round wins take the game, with flipping, "
            "as the tournament plays.")
        expect(page.locator("#offer-start")).to_have_text("Start Anna v Ben")
    expect(screen.locator("#next")).to_have_text(f"Next: {words}")
    for size_name, (w, h) in at_each_size([a, b, screen], sizes):
        for page in (a, b):
            page.locator("#offer-start").scroll_into_view_if_needed()
            assert in_view(page, "#offer-start"), size_name
            assert no_sideways_scroll(page), size_name
        assert in_view(screen, "#next"), size_name
        if w >= 1280:  # read from 3 m: at least as large as the turn line
            px = float(screen.eval_on_selector(
                "#next", "e => parseFloat(getComputedStyle(e).fontSize)"))
            assert px >= 0.02 * h, (size_name, px)
        if w > h and w > 700:  # the TV layouts: the whole board still shows
            assert board_fits(screen), size_name
        snap(screen, f"offer-tv-{size_name}")
        snap(a, f"offer-tablet-{size_name}")

    # Both people tap Start: each is asked first, for a match is running.
    for page in (b, a):
        page.click("#offer-start")
        expect(page.locator("#offer-confirm-text")).to_contain_text(
            "This ends the match in play: Cleo v Dev")
    a.click("#offer-confirm-yes")
    expect(a.locator("#st-black")).to_contain_text("Anna")
    expect(a.locator("#sec-offer")).to_be_hidden()
    expect(screen.locator("#next")).to_be_hidden()
    started = state(api, server)
    assert started["names"] == {"black": "Anna", "white": "Ben"}
    assert started["pairing"] == made.ref() and started["offered"] is None
    assert started["state"]["rules"]["points_to_win_round"] == 7

    # The second tablet's confirmation stays (its person is deciding); its Yes is stale.
    expect(b.locator("#offer-confirm")).to_be_visible()
    b.click("#offer-confirm-yes")
    stale = b.locator("#sec-offer .conflict.stale p")
    expect(stale).to_have_text(
        "Not started: the match changed meanwhile. The match in play is now Anna v Ben "
        f"(match {started['match_id']}). This page now shows the match as it is.")
    expect(b.locator("#offer-start")).to_be_hidden()
    expect(b.locator("#offer-who")).to_have_text("")
    for size_name, _ in at_each_size([b], sizes):
        stale.scroll_into_view_if_needed()
        assert in_view(b, "#sec-offer .conflict.stale p"), size_name
        assert no_sideways_scroll(b), size_name
        snap(b, f"offer-stale-{size_name}")
    assert state(api, server)["match_id"] == started["match_id"]
    assert not a.errors and not b.errors
    for page in (a, b, screen):
        page.context.close()
