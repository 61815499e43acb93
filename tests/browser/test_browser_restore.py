"""Issue 22, items 3 and 4 as the people at the table see them.

The virtual board's "Put the board as the match expects" says beside it why it cannot act;
the tablet ends any restore in one step; a shot played during a restore reaches the referee
in players' words ("this looks like Ann's shot: score it, or put the board back") and the
restore instruction on the TV counts down as skitts are put back.
"""

from __future__ import annotations

from typing import Any

import pytest
from browser_support import SIZES, LiveServer, page_at, snap
from tv_support import ENGINEER_WORDS, bigs_in_centre, state, step, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

NAMES = {"black": "Ann", "white": "Bo"}


def start(api: Any, server: LiveServer) -> None:
    r = api.post(server.url + "/api/match/new", data={
        "seq": state(api, server)["seq"], "names": NAMES, "first": "black"})
    assert r.ok, r.text()
    bigs_in_centre(api, server)


def on_screen(page: Any, selector: str, size: tuple[int, int]) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    assert box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 1, (selector, box)


def test_a_restore_that_is_not_completed_lets_the_tablet_go_on_in_one_step(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    setup = page_at(browser, server, "/", SIZES["tv"])
    api = setup.context.request
    start(api, server)
    step(api, server, {"correct": {"board": {"white.blue": 5}, "reason": "seen"}})
    for _ in range(4):
        assert api.post(server.url + "/api/board/place", data={"field": "white.blue"}).ok
    wait_for(api, server, lambda s: s["tracker"]["differences"] == {"white.blue": -1})
    setup.context.close()
    for name, size in SIZES.items():
        if name not in ("tablet", "phone"):
            continue
        page = page_at(browser, server, "/tablet", size)
        page.wait_for_function("document.body.classList.contains('referee')")
        expect(page.locator("#sec-board")).to_be_visible()
        button = page.locator("#board-as-expected")
        button.scroll_into_view_if_needed()
        on_screen(page, "#board-as-expected", size)
        snap(page, f"restore-tablet-{size[0]}x{size[1]}-as-expected")
        page.context.close()
    page = page_at(browser, server, "/tablet", SIZES["tablet"])
    page.wait_for_function("document.body.classList.contains('referee')")
    page.locator("#board-as-expected").click()
    expect(page.locator("#toast")).to_contain_text("play goes on")
    expect(page.locator("#sec-board")).to_be_hidden()
    # the next shot scores
    assert page.context.request.post(server.url + "/api/board/place",
                                     data={"field": "white.red"}).ok
    s = wait_for(page.context.request, server, lambda s: s["state"]["turn"] == "white")
    assert s["log"][-1]["step"]["shot"]["delta"] == {"white.red": 1}
    page.context.close()


def test_a_shot_during_a_restore_reaches_the_referee_and_the_tv_counts_down(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tv = page_at(browser, server, "/", SIZES["tv"])
    api = tv.context.request
    start(api, server)
    step(api, server, {"correct": {"board": {"white.red": 2}, "reason": "seen"}})
    alerts = tv.locator("#alerts")
    expect(alerts).to_contain_text("Put back: add 2 skitts to Bo's red")
    assert api.post(server.url + "/api/board/place", data={"field": "white.red"}).ok
    expect(alerts).to_contain_text("Put back: add 1 skitt to Bo's red")
    tablet = page_at(browser, server, "/tablet", SIZES["tablet"])
    tablet.wait_for_function("document.body.classList.contains('referee')")
    # Ann shoots before the restore is done
    assert api.post(server.url + "/api/board/place", data={"field": "white.yellow"}).ok
    message = tablet.locator("#board-message")
    expect(message).to_contain_text("this looks like Ann's shot: score it, or put the board back")
    assert not ENGINEER_WORDS.search(message.inner_text()), message.inner_text()
    expect(alerts).to_contain_text("the referee decides")
    snap(tablet, "restore-tablet-1024x768-shot-during-restore")
    snap(tv, "restore-tv-1920x1080-shot-during-restore")
    tablet.locator("#accept-board").click()
    s = wait_for(api, server, lambda s: s["state"]["turn"] == "white")
    assert s["log"][-1]["step"]["shot"] == {"by": "black", "delta": {"white.yellow": 1}}
    expect(alerts).to_contain_text("Put back: add 1 skitt to Bo's red")
    tablet.context.close()
    tv.context.close()
