"""The referee's question about a full field, as the tablet, the referee page and the TV show
it (issue 24): one sentence in the players' words, one tap per count, a calm line on the TV.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LiveServer
from test_browser_board_referee import NAMES, SIZES, logged_in, snap
from tv_support import post, state, step, tv, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

TEXT = "Bo's blue is as full as its sensors can count: did Ann's skitt land there?"
ALERT = "The referee is counting Bo's blue"
FOR_REFEREE = {k: SIZES[k] for k in ("tablet", "tablet-portrait", "phone")}


def pile_up(api: Any, server: LiveServer) -> None:
    """A new match whose board holds Bo's blue as full as its 14 cells count, laid out and
    ready for Ann's shot."""
    post(api, server, "/api/match/new", {"names": NAMES, "first": "black"})
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})
    step(api, server, {"correct": {"board": {"white.blue": 14}, "reason": "a pile-up"}})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")


def ask(api: Any, server: LiveServer) -> dict[str, Any]:
    """Ann shoots while Bo's blue is as full as its 14 cells count: the referee is asked."""
    pile_up(api, server)
    assert api.post(server.url + "/api/board/launch", data={"player": "black"}).ok
    return wait_for(api, server, lambda s: s["tracker"]["mode"] == "question")


def check_question(page: Any, section: str, size: tuple[int, int]) -> None:
    from playwright.sync_api import expect

    box = page.locator(section)
    expect(box).to_be_visible()
    expect(box.locator(".question-text")).to_have_text(TEXT)
    buttons = box.locator(".question-choices button")
    expect(buttons).to_have_text(["0", "1", "2"])
    for i in range(3):
        b = buttons.nth(i).bounding_box()
        assert b["height"] >= 44 and b["width"] >= 44, b  # one tap, a finger wide
        assert b["x"] >= 0 and b["x"] + b["width"] <= size[0], b
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    assert not re.search(r"\b(cell|white|black)\b", box.inner_text(), re.IGNORECASE)


@pytest.mark.parametrize("name", list(FOR_REFEREE))
def test_the_question_on_the_tablet_and_the_referee_page(
    browser: Any, server: LiveServer, name: str
) -> None:
    size = FOR_REFEREE[name]
    tablet = logged_in(browser, server, "/tablet", size)
    ask(tablet.context.request, server)
    check_question(tablet, "#sec-question", size)
    tablet.locator("#sec-question").scroll_into_view_if_needed()
    snap(tablet, f"question-tablet-{size[0]}x{size[1]}")
    referee = logged_in(browser, server, "/referee", size)
    check_question(referee, "#question", size)
    referee.locator("#question").scroll_into_view_if_needed()
    snap(referee, f"question-referee-{size[0]}x{size[1]}")
    referee.context.close()
    tablet.context.close()


def test_one_tap_records_the_shot_and_both_pages_move_on(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tablet = logged_in(browser, server, "/tablet", SIZES["tablet-portrait"])
    referee = logged_in(browser, server, "/referee", SIZES["tablet"])
    api = tablet.context.request
    asked = ask(api, server)
    expect(referee.locator("#question .question-text")).to_have_text(TEXT)
    expect(tablet.locator("#sec-question .question-text")).to_have_text(TEXT)
    tablet.locator("#sec-question button", has_text="1").click()
    expect(tablet.locator("#toast")).to_have_text("recorded: 1")
    expect(tablet.locator("#sec-question")).to_be_hidden()
    expect(referee.locator("#question")).to_be_hidden()  # the other page follows at once
    after = state(api, server)
    assert after["log_length"] == asked["log_length"] + 1
    assert after["state"]["board"]["white.blue"] == 15
    assert after["state"]["score"]["black"] == 1  # the fifteenth skitt scores for Ann
    last = api.get(server.url + "/api/match/log").json()["entries"][-1]
    assert last["source"] == "sensor" and last["step"]["shot"]["delta"] == {"white.blue": 1}
    referee.context.close()
    tablet.context.close()


@pytest.mark.parametrize("name", ["tv", "tv-small"])
def test_the_tv_says_the_referee_is_counting_in_the_players_words(
    browser: Any, server: LiveServer, name: str
) -> None:
    from playwright.sync_api import expect

    size = SIZES[name]
    page = tv(browser, server, size)
    api = page.context.request
    assert api.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    ask(api, server)
    alert = page.locator(".alert-question")
    expect(alert).to_have_text(ALERT)
    box = alert.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= size[0], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= size[1], box
    snap(page, f"question-tv-{size[0]}x{size[1]}")
    page.context.close()


def test_the_no_change_button_on_a_full_board_asks_instead(
    browser: Any, server: LiveServer
) -> None:
    from playwright.sync_api import expect

    tablet = logged_in(browser, server, "/tablet", SIZES["tablet"])
    api = tablet.context.request
    pile_up(api, server)
    steps = state(api, server)["log_length"]
    tablet.locator("#no-change").click()
    expect(tablet.locator("#toast")).to_have_text(
        "Not recorded yet: say how many skitts the shot added to the full field")
    expect(tablet.locator("#sec-question .question-text")).to_have_text(TEXT)
    assert state(api, server)["log_length"] == steps
    tablet.locator("#sec-question button", has_text="0").click()
    expect(tablet.locator("#sec-question")).to_be_hidden()
    assert state(api, server)["log_length"] == steps + 1
    tablet.context.close()
