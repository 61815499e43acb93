"""The TV scoreboard on a phone and a portrait tablet (issue 13, items 3 and 5).

A spectator who scans the TV's QR code sees the same page on a 390x844 phone; a tablet may
stand upright at 768x1024. There the three TV columns stack: the players, the turn and the
moment, the board at full width, the last shot. Checked with a long name while a restore is
pending, after a round win and at game over.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import LiveServer, keep_screenshot, settled
from tv_support import (
    BROKEN_WORDS,
    LONG,
    in_view,
    one_server_per_module,
    play_a_clearing,
    score_a_point,
    snap,
    state,
    tv,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

NARROW = [(390, 844), (768, 1024)]

# Each player's name box against the widest word of the name, as drawn.
NAME_ROOM = """() => [...document.querySelectorAll(".player .pname")].map((e) => {
  const n = e.firstChild, words = [];
  for (const m of n.data.matchAll(/[^\\s-]+-?/g)) {
    const r = document.createRange();
    r.setStart(n, m.index);
    r.setEnd(n, m.index + m[0].length);
    words.push(r.getBoundingClientRect().width);
  }
  const s = getComputedStyle(e.closest(".name"));
  return {box: e.closest(".name").clientWidth, word: Math.max(...words),
          wordBreak: s.wordBreak, overflowWrap: s.overflowWrap};
})"""


server, api = one_server_per_module("tv-narrow")


def check_narrow(page: Any, seq: int, name: str, *, due: bool) -> None:
    """What the scoreboard must satisfy on a phone or an upright tablet at any moment."""
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
    settled(page)
    w = page.viewport_size["width"]
    size = f"{w}x{page.viewport_size['height']}"
    assert page.evaluate("document.documentElement.scrollWidth") <= w, f"sideways scroll at {size}"
    assert page.evaluate(BROKEN_WORDS, ".sb") == [], f"a word broken inside at {size}"
    for room in page.evaluate(NAME_ROOM):
        assert room["word"] <= room["box"], room
        assert room["wordBreak"] not in ("break-all", "break-word"), room
    cells = page.locator(".track-cell").all()
    assert len(cells) == 2 * 7  # -1 to 5 for each player
    for cell in cells:
        box = cell.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= w + 0.5, f"track cut off at {size}"
    # a long name never squeezes the other player's panel
    black = page.locator("#p-black").bounding_box()
    white = page.locator("#p-white").bounding_box()
    assert abs(black["width"] - white["width"]) < 2
    if due:
        assert in_view(page, "#turn") and in_view(page, ".player.due .turn-badge"), size
    board = page.locator("#board").bounding_box()  # hidden at game over: the result leads
    if board is not None:
        assert board["width"] >= 0.9 * w, f"the board is a thumbnail at {size}"
    page.locator("#lastshot").scroll_into_view_if_needed()
    assert in_view(page, "#lastshot")
    page.evaluate("window.scrollTo(0, 0)")
    snap(page, name)
    keep_screenshot(page, f"{name}-full", full_page=True)


def test_the_scoreboard_stacks_on_a_phone_and_an_upright_tablet(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    play_a_clearing(api, server, points_to_win_round=5)
    pages = [tv(browser, server, size) for size in NARROW]
    seq = state(api, server)["seq"]
    for page, (w, h) in zip(pages, NARROW, strict=True):
        check_narrow(page, seq, f"tv-{w}x{h}-restore", due=True)
        expect(page.locator("#alerts .alert")).to_contain_text("Put back: take ")
        assert in_view(page, "#alerts .alert")
        assert page.locator(".pname").first.inner_text() == LONG

    while state(api, server)["state"]["round_wins"] == {"black": 0, "white": 0}:
        score_a_point(api, server)
    seq = state(api, server)["seq"]
    for page, (w, h) in zip(pages, NARROW, strict=True):
        check_narrow(page, seq, f"tv-{w}x{h}-round-win", due=True)
        expect(page.locator("#moment .title")).to_contain_text("wins round 1")
        assert in_view(page, "#moment"), f"the round-win banner is out of view at {w}x{h}"

    while state(api, server)["state"]["phase"] != "game_over":
        score_a_point(api, server)
    seq = state(api, server)["seq"]
    for page, (w, h) in zip(pages, NARROW, strict=True):
        check_narrow(page, seq, f"tv-{w}x{h}-game-over", due=False)
        expect(page.locator("#moment .title")).to_contain_text("wins the game")
        assert in_view(page, "#moment"), f"the result is out of view at {w}x{h}"
    assert not pages[0].locator(".qr").is_visible(), "the phone already has the page: no QR code"
    for page in pages:
        page.context.close()
