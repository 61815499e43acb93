"""The TV scoreboard as players see it from across the room (issue 13, items 1-6).

One browser and one server for the module: a match is played through the API from a clearing
to a round win to game over, and the TV is checked at 1920x1080 and 1280x720 at each moment.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LiveServer, settled
from tv_support import (
    EMPTY_STRETCH,
    ENGINEER_WORDS,
    LAST_SHOT_CLIPPED,
    LONG,
    NAMES,
    TV,
    board_fits,
    in_view,
    one_server_per_module,
    play_a_clearing,
    score_a_point,
    snap,
    state,
    tv,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

server, api = one_server_per_module("tv")


def check_tv(page: Any, seq: int, name: str) -> str:
    """What every TV moment must satisfy; returns the visible text."""
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
    settled(page)
    text = page.locator("body").inner_text()
    assert not ENGINEER_WORDS.search(text), ENGINEER_WORDS.search(text)
    assert in_view(page, "#lastshot"), "the last shot must stay inside the viewport"
    size = f"{page.viewport_size['width']}x{page.viewport_size['height']}"
    clipped = page.evaluate(LAST_SHOT_CLIPPED)
    assert clipped == [], f"the last shot is cut off at {size} ({name}): {clipped}"
    # no big empty area: no column shows more than a quarter of the screen of bare background
    for column in page.evaluate(EMPTY_STRETCH):
        assert column["gap"] <= 0.25 * page.viewport_size["height"], (name, column)
    over = page.evaluate("""() => [...document.querySelectorAll("body *")].filter(
        e => e.getBoundingClientRect().bottom > innerHeight + 0.5).map(e => e.id || e.className)""")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height <= page.viewport_size["height"], over
    # a long name never squeezes the other player's panel or the board
    black = page.locator("#p-black").bounding_box()
    white = page.locator("#p-white").bounding_box()
    assert abs(black["width"] - white["width"]) < 2
    board = page.locator("#board").bounding_box()  # hidden at game over: the result leads
    assert board is None or board["width"] > black["width"]
    snap(page, name)
    return text  # type: ignore[no-any-return]


def font_px(page: Any, selector: str) -> float:
    return float(page.locator(selector).first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)"))


@pytest.mark.parametrize("names", [NAMES, {"black": "Bo", "white": LONG}],
                         ids=["long-name-first", "long-name-second"])
def test_the_tv_from_a_clearing_to_a_round_win_to_game_over(
    browser: Any, server: LiveServer, api: Any, names: dict[str, str]
) -> None:
    """Both ways round: the long name's panel sits above the QR code or above the last shot."""
    from playwright.sync_api import expect

    first, second = names["black"], names["white"]
    tag = "" if first == LONG else "-long-second"
    play_a_clearing(api, server, points_to_win_round=2, names=names)
    pages = [tv(browser, server, size) for size in TV]
    seq = state(api, server)["seq"]

    # a clearing: one calm instruction in names, the effects in names, no cell numbers
    for page, (w, h) in zip(pages, TV, strict=True):
        text = check_tv(page, seq, f"tv-{w}x{h}-clearing{tag}")
        expect(page.locator("#alerts .alert")).to_have_count(1)
        assert page.locator("#alerts .alert").inner_text().startswith("Put back: take ")
        assert f"{second}'s blue" in text and f"{second} to shoot" in text
        assert f"{first} +1" in page.locator("#effects").inner_text()
    big = pages[0]
    # readable from 3 m: 32 px at 1920x1080, and as much in proportion at 1280x720 (21.3 px);
    # the effect lines are the ruled ones (the "whose shot" line above them is a caption)
    for page, (w, h) in zip(pages, TV, strict=True):
        for sel in ("#effects li:not(.muted)", "#alerts .alert", "#turn", ".track-cell",
                    ".player.due .turn-badge"):
            assert font_px(page, sel) >= 32 * h / 1080, (sel, w, h)

    # a round win: a large banner with the winner's name until the next shot
    score_a_point(api, server)  # the second player 1
    score_a_point(api, server)  # the first player 2: the round
    seq = state(api, server)["seq"]
    assert state(api, server)["state"]["round_wins"]["black"] == 1
    for page, (w, h) in zip(pages, TV, strict=True):
        check_tv(page, seq, f"tv-{w}x{h}-round-win{tag}")
        expect(page.locator("#moment .title")).to_have_text(f"{first} wins round 1")
        assert in_view(page, "#moment")
        assert board_fits(page), f"the board is cut off at {w}x{h} after a round win"
    assert font_px(big, "#moment .title") >= 56
    assert big.locator("#board").bounding_box()["height"] >= 300  # the board stays readable

    # game over: the final result is the main thing on the screen
    for _ in range(6):
        if state(api, server)["state"]["phase"] == "game_over":
            break
        score_a_point(api, server)
    final = state(api, server)
    assert final["state"]["phase"] == "game_over"
    for page, (w, h) in zip(pages, TV, strict=True):
        check_tv(page, final["seq"], f"tv-{w}x{h}-game-over{tag}")
        expect(page.locator("#moment .title")).to_contain_text("wins the game")
        expect(page.locator("#moment .detail")).to_contain_text("Final result: 2 round wins")
        assert in_view(page, "#moment")
    assert font_px(big, "#moment .title") >= 90
    for page in pages:
        page.context.close()


def test_a_dropped_connection_shows_a_full_width_bar_that_clears_by_itself(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    links: list[Any] = []

    def through(ws: Any) -> None:
        links.append(ws)  # before it is passed on: once the page is live, the test may close it
        ws.connect_to_server()

    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = ctx.new_page()
    page.route_web_socket(re.compile(r".*/ws(\?.*)?$"), through)
    page.goto(server.url + "/")
    expect(page.locator("body")).not_to_have_class(re.compile("offline"))
    links[-1].close()
    expect(page.locator("body")).to_have_class(re.compile("offline"))
    bar = page.evaluate("""() => {
        const s = getComputedStyle(document.body, '::before');
        return {content: s.content, width: parseFloat(s.width)};
    }""")
    assert "Disconnected, reconnecting" in bar["content"]
    assert bar["width"] >= 1900
    assert float(page.locator("#turn").evaluate("e => getComputedStyle(e).opacity")) < 0.5
    snap(page, "tv-1920x1080-disconnected")
    expect(page.locator("body")).not_to_have_class(re.compile("offline"), timeout=10000)
    ctx.close()
