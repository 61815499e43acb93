"""The stream overlay (issue 28, item 3): a transparent page for a streaming tool's browser
source, with names, score, rounds, whose turn, the last shot on one line and the round-win
banner; its corner and scale set by the address; never an alarm or the PIN screen.

Checked at 1920x1080 over a coloured page (the overlay in an iframe on magenta, as a
streaming tool lays it over video) and alone with its background left out of the screenshot
(every pixel off the panels fully transparent).
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
from browser_support import LiveServer, at_every_size, keep_png, settled
from tv_support import (
    ENGINEER_WORDS,
    LONG,
    one_server_per_module,
    play_a_clearing,
    score_a_point,
    state,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

NAMES = {"black": LONG, "white": "Bo"}
MAGENTA = (255, 0, 255)
SIZES = [(1920, 1080), (1280, 720), (1024, 768), (768, 1024), (390, 844)]


server, api = one_server_per_module("overlay")


def overlay(browser: Any, server: LiveServer, size: tuple[int, int], query: str = "") -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.goto(server.url + "/overlay" + query)
    page.wait_for_function(f"document.body.dataset.seq === '{state_seq(server)}'")
    settled(page)
    return page


def state_seq(server: LiveServer) -> int:
    import httpx

    return int(httpx.get(server.url + "/api/state").json()["seq"])


def pixels(page: Any, png: bytes, points: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    """RGBA of ``png`` at each point, read by the browser itself (no image library)."""
    url = "data:image/png;base64," + base64.b64encode(png).decode()
    return [tuple(p) for p in page.evaluate("""async ([url, points]) => {
        const img = new Image(); img.src = url; await img.decode();
        const c = document.createElement("canvas"); c.width = img.width; c.height = img.height;
        const g = c.getContext("2d"); g.drawImage(img, 0, 0);
        return points.map(([x, y]) => [...g.getImageData(x, y, 1, 1).data]);
    }""", [url, points])]


def save(name: str, png: bytes) -> None:
    """Keep a screenshot taken for its pixels, to look at (with ``SCREENSHOTS=1``)."""
    keep_png(name, png)


def box(page: Any, selector: str) -> dict[str, float]:
    b = page.locator(selector).bounding_box()
    assert b is not None, selector
    return b  # type: ignore[no-any-return]


def inside(b: dict[str, float]) -> tuple[int, int]:
    """A point of a panel's own background: in its top padding, away from the round corners."""
    return int(b["x"] + b["width"] / 2), int(b["y"] + 3)


def test_contents_in_player_words_and_no_alarm(browser: Any, server: LiveServer, api: Any) -> None:
    from playwright.sync_api import expect

    # A clearing leaves the board to restore: the TV shows an alert, the overlay does not.
    play_a_clearing(api, server, points_to_win_round=2, names=NAMES)
    s = state(api, server)
    assert s["alerts"], "the TV has an alert at this moment"
    page = overlay(browser, server, (1920, 1080))
    text = page.locator("body").inner_text()
    assert LONG in text and "Bo" in text
    assert not ENGINEER_WORDS.search(text), ENGINEER_WORDS.search(text)
    for alert in s["alerts"]:
        assert alert["message"] not in text
    assert page.locator("input").count() == 0, "no PIN or any other form"
    score = s["state"]["score"]
    expect(page.locator('[data-player="black"] .ov-points')).to_have_text(str(score["black"]))
    expect(page.locator('[data-player="white"] .ov-points')).to_have_text(str(score["white"]))
    expect(page.locator('[data-player="black"] .ov-rounds')).to_have_text("○○")
    expect(page.locator(".ov-info")).to_have_text(f"Round 1 · {s['words']['turn']}")
    due = s["state"]["turn"]
    assert page.locator(f'[data-player="{due}"]').evaluate("e => e.classList.contains('due')")
    last = page.locator(".ov-last")
    expect(last).to_have_text(s["words"]["last_shot"])
    assert s["words"]["last_shot"].startswith(f"{LONG}'s shot: ")
    assert "blue" in s["words"]["last_shot"]
    # read whole (issue 43: never cut with an ellipsis), in a few lines however long
    assert last.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    assert box(page, ".ov-last")["height"] < 3.6 * last.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)")
    assert page.locator(".ov-banner").is_hidden()
    page.context.close()


def test_a_german_stream_reads_the_overlay_in_german(browser: Any, server: LiveServer,
                                                     api: Any) -> None:
    """Issue 29: the overlay follows ``?lang=de`` as every page does (it was served
    untranslated: "Round 1" and the turn in English over a German stream)."""
    from playwright.sync_api import expect

    play_a_clearing(api, server, points_to_win_round=2, names=NAMES)
    page = overlay(browser, server, (1920, 1080), "?lang=de")
    try:
        assert page.evaluate("document.documentElement.lang") == "de"
        german = api.get(server.url + "/api/state?lang=de").json()["words"]
        expect(page.locator(".ov-info")).to_have_text(f"Runde 1 · {german['turn']}")
        expect(page.locator(".ov-last")).to_have_text(german["last_shot"])
        assert german["last_shot"] != state(api, server)["words"]["last_shot"]
        save("overlay-german-1920x1080", page.screenshot())
    finally:
        page.context.close()


def test_transparent_over_a_coloured_page_at_1920x1080(browser: Any, server: LiveServer) -> None:
    page = overlay(browser, server, (1920, 1080))
    panel = box(page, ".ov-score")
    # alone, background left out: off the panels every pixel is fully transparent
    png = page.screenshot(omit_background=True)
    save("overlay-1920x1080-alpha", png)
    far = (1900, 1060)
    (alpha_far, alpha_panel) = pixels(page, png, [far, inside(panel)])
    assert alpha_far[3] == 0, alpha_far
    assert alpha_panel[3] > 200, alpha_panel

    # laid over a coloured page, as a streaming tool lays it over video
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    host = ctx.new_page()
    host.set_content(f"""<body style="margin:0;background:rgb{MAGENTA}">
        <iframe src="{server.url}/overlay" style="border:0;width:1920px;height:1080px;
        display:block"></iframe></body>""")
    frame = host.frame_locator("iframe")
    frame.locator(".ov-score").wait_for()
    settled(host.frames[-1])
    settled(host)
    png = host.screenshot()
    save("overlay-1920x1080-over-colour", png)
    (bg, panel_px, mid) = pixels(host, png, [far, inside(panel), (960, 540)])
    assert bg[:3] == MAGENTA and mid[:3] == MAGENTA, (bg, mid)
    assert panel_px[:3] != MAGENTA and max(panel_px[:3]) < 160, panel_px  # the dark panel
    ctx.close()
    page.context.close()


@pytest.mark.parametrize("corner", ["top-left", "top-right", "bottom-left", "bottom-right"])
def test_corner_and_scale_from_the_address(browser: Any, server: LiveServer, corner: str) -> None:
    plain = overlay(browser, server, (1920, 1080))
    base = box(plain, ".ov-score")
    base_font = plain.locator(".ov-name").first.evaluate(
        "e => parseFloat(getComputedStyle(e).fontSize)")
    plain.context.close()
    page = overlay(browser, server, (1920, 1080), f"?corner={corner}&scale=1.5")
    b = box(page, ".ov")
    font = page.locator(".ov-name").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert font == pytest.approx(1.5 * base_font)
    assert box(page, ".ov-score")["height"] == pytest.approx(1.5 * base["height"], rel=0.05)
    vertical, horizontal = corner.split("-")
    edge = 0.05 * 1920
    if horizontal == "left":
        assert b["x"] < edge
    else:
        assert 1920 - (b["x"] + b["width"]) < edge
    if vertical == "top":
        assert b["y"] < edge
    else:
        assert 1080 - (b["y"] + b["height"]) < edge
    save(f"overlay-1920x1080-{corner}-x1.5", page.screenshot(omit_background=True))
    page.context.close()


def test_nonsense_options_fall_back(browser: Any, server: LiveServer) -> None:
    page = overlay(browser, server, (1280, 720), "?corner=middle&scale=banana")
    assert page.evaluate("document.body.dataset.corner") == "top-left"
    assert page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--scale')").strip() == "1"
    page.context.close()
    page = overlay(browser, server, (1280, 720), "?scale=40")
    assert page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--scale')").strip() == "3"
    page.context.close()


def test_round_win_banner_then_every_size(browser: Any, server: LiveServer, api: Any) -> None:
    from playwright.sync_api import expect

    play_a_clearing(api, server, points_to_win_round=2, names=NAMES)  # the first player 1
    page = overlay(browser, server, (1920, 1080))
    score_a_point(api, server)  # the second player 1
    score_a_point(api, server)  # the first player 2 of 2: the round
    s = state(api, server)
    moment = s["words"]["moment"]
    assert moment and moment["kind"] == "round"
    page.wait_for_function(f"document.body.dataset.seq === '{s['seq']}'")
    banner = page.locator(".ov-banner")
    expect(banner).to_be_visible()
    expect(banner.locator(".title")).to_have_text(f"{LONG} wins round 1")
    expect(page.locator('[data-player="black"] .ov-rounds')).to_have_text("●○")
    page.context.close()
    sizes = {f"{w}x{h}": (w, h) for w, h in SIZES}
    opened = at_every_size(lambda size: overlay(browser, server, size, "?corner=bottom-left"),
                           sizes)
    for _, (w, h), page in opened:
        b = box(page, ".ov")
        assert b["x"] >= 0 and b["y"] >= 0, (w, h, b)
        assert b["x"] + b["width"] <= w + 0.5 and b["y"] + b["height"] <= h + 0.5, (w, h, b)
        assert page.evaluate("document.documentElement.scrollWidth") <= w
        for part in (".ov-score", ".ov-info", ".ov-last", ".ov-banner"):
            p = box(page, part)
            assert p["x"] + p["width"] <= w + 0.5, (w, h, part, p)
        png = page.screenshot(omit_background=True)
        save(f"overlay-{w}x{h}-round-win", png)
        assert pixels(page, png, [(w - 2, 2)])[0][3] == 0


def test_the_instant_replay_plays_on_the_overlay(browser: Any, server: LiveServer,
                                                 api: Any) -> None:
    """The referee's "show the review on the scoreboard" plays on the overlay too, animated
    from the shot's sensor timeline, beside the score and not over the whole picture."""
    from playwright.sync_api import expect
    from tv_support import post, wait_for

    post(api, server, "/api/match/new", {"names": NAMES, "first": "black"})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    before = state(api, server)["log_length"]
    assert api.post(server.url + "/api/board/big", data={"player": "black", "on": True}).ok
    sensed = wait_for(api, server, lambda s: s["log_length"] > before)
    assert sensed["last_step"]["source"] == "sensor"
    page = overlay(browser, server, (1920, 1080), "?corner=top-left")
    post(api, server, "/api/referee/review-show",
         {"seen": state(api, server)["seq"], "seq": sensed["last_step"]["seq"],
          "playing": True, "ms": 0, "speed": 1})
    replay = page.locator("#review-mirror")
    expect(replay).to_be_visible()
    expect(page.locator("#review-mirror-words")).to_contain_text("Replay of the shot")
    expect(page.locator("#review-mirror-board .field")).to_have_count(7)
    text = page.locator("body").inner_text()
    assert not ENGINEER_WORDS.search(text), ENGINEER_WORDS.search(text)
    b = box(page, "#review-mirror")
    score = box(page, ".ov-score")
    assert b["x"] > score["x"] + score["width"], "the replay sits beside the score"
    for part in (".ov-score", ".ov-info", ".ov-last"):
        p = box(page, part)
        assert p["x"] + p["width"] <= b["x"], f"the replay covers {part}"
    assert b["width"] < 0.5 * 1920 and b["y"] < 0.1 * 1080  # top right, not a full cover
    settled(page)
    png = page.screenshot(omit_background=True)
    save("overlay-1920x1080-replay", png)
    (far, centre) = pixels(page, png, [(960, 1060), (960, 700)])
    assert far[3] == 0 and centre[3] == 0, (far, centre)
    assert pixels(page, png, [inside(b)])[0][3] > 200
    post(api, server, "/api/referee/review-show",
         {"seq": None, "seen": state(api, server)["seq"]})
    expect(replay).to_be_hidden()
    page.context.close()
