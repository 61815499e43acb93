"""The virtual board on the physics board (``skitter serve --board physics``): a person flicks
a skitt, watches it roll over the cells and sees the shot scored, in headless Chromium, on
every screen size, in English and German. The flick is made once on the screens without touch
(the page then resized to each of their sizes, where the board and the flick are looked at)
and once on the phone."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import SCREENS, LiveServer, at_each_size, is_touch, live_server, snap
from physics_flicks import landing_flick
from waiting import wait_until

from firmware_bridge.profile import load_profile

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

PROFILE = load_profile()
WORDS = {"en": ("flicks", "rolling"), "de": ("schnippt", "rollt")}
SEEN_ROLLING = """(word) => {
  window.rollingSeen = false;
  const go = document.querySelector('#flick-go');
  const rolling = document.querySelector('#rolling');
  const look = () => {
    if (rolling.textContent.includes(word) && go.disabled) window.rollingSeen = true;
  };
  new MutationObserver(look).observe(document.body,
    { subtree: true, childList: true, characterData: true, attributes: true });
}"""
"""Latches ``window.rollingSeen`` the moment the page says a skitt is rolling with the flick
button disabled (``word``: "rolling" in the page's language)."""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    # the profile's settle window, as served: a rolling skitt can be out of every cell's
    # reach for longer than the test rig's short window
    with live_server(tmp_path, source="physics", settle_ms=PROFILE.settle_ms) as s:
        yield s


def board_page(browser: Any, server: LiveServer, size: tuple[int, int], lang: str) -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                              has_touch=is_touch(size))
    assert ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    page = ctx.new_page()
    page.goto(f"{server.url}/board?lang={lang}")
    page.wait_for_function("document.body.dataset.seq !== undefined")
    # the board is read once at rest before anything lands (a skitt placed before the first
    # reading is a change made before sensing began: the referee's to decide)
    wait_until(lambda: page.request.get(server.url + "/api/state").json()["tracker"]["mode"]
               == "ready", "the board read at rest")
    return page


def logged(page: Any, server: LiveServer) -> list[dict[str, Any]]:
    return page.request.get(server.url + "/api/state").json()["log"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("screens", list(SCREENS))
def test_a_flicked_skitt_rolls_over_the_board_and_the_shot_is_scored(
        browser: Any, server: LiveServer, screens: str, lang: str) -> None:
    from playwright.sync_api import expect

    sizes = SCREENS[screens]
    size = next(iter(sizes))
    page = board_page(browser, server, sizes[size], lang)
    flicks, rolling = WORDS[lang]
    for steps, player in enumerate(("black", "white"), 1):  # the big skitts first
        page.locator(f"#vboard [data-big={player}]").click()
        wait_until(lambda steps=steps: len(logged(page, server)) >= steps,
                   f"{player}'s big skitt scored")
    speed, angle, field = landing_flick(PROFILE, "black")
    go = page.locator("#flick-go")
    expect(go).to_be_visible()
    expect(go).to_have_attribute("data-player", "black")
    expect(go).to_contain_text(flicks)
    page.locator("#flick-speed").fill(str(int(speed)))
    page.locator("#flick-angle").fill(str(int(angle)))
    expect(page.locator("#flick-speed-shown")).to_contain_text(f"{speed / 1000:.2f}"
                                                               .replace(".", "," if lang == "de"
                                                                        else "."))
    count = page.locator(f'#vboard [data-field="{field}"] .field-count')
    expect(count).to_have_text("0")
    page.evaluate(SEEN_ROLLING, rolling)
    go.click()
    # it moves, and no second flick can be made meanwhile: seen on the page while it rolled
    # (a roll can be over before a check after the click looks, on a loaded machine)
    page.wait_for_function("window.rollingSeen === true")
    snap(page, f"physics-board-{size}-{lang}-rolling")
    expect(page.locator("#rolling")).to_have_text("")  # at rest
    expect(count).to_have_text("1")
    expect(go).to_have_attribute("data-player", "white")  # scored: white is due
    expect(go).to_be_enabled()
    shot = logged(page, server)[-1]
    assert shot["source"] == "sensor"
    assert shot["step"] == {"shot": {"by": "black", "delta": {field: 1}}}
    assert page.evaluate("document.documentElement.lang") == lang
    for name, (w, _) in at_each_size([page], sizes):
        # the flick and the board are on screen together, nothing sticks out sideways
        assert page.evaluate("document.documentElement.scrollWidth") <= w, name
        box = page.locator("#vboard").bounding_box()
        assert box is not None and box["height"] > 150, (name, box)
        expect(go).to_be_visible()
        snap(page, f"physics-board-{name}-{lang}-scored")
    page.context.close()
