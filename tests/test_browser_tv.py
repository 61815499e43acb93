"""The TV scoreboard as players see it from across the room (issue 13, items 1-6).

One browser and one server for the module: a match is played through the API from a clearing
to a round win to game over, and the TV is checked at 1920x1080 and 1280x720 at each moment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import SCREENSHOTS, LiveServer, live_server

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

LONG = "Annabel Okonkwo-Lindqvist"
NAMES = {"black": LONG, "white": "Bo"}
TV = [(1920, 1080), (1280, 720)]
ENGINEER_WORDS = re.compile(
    r"\bcell \d+|0x[0-9a-f]{2}|\bGP[AB]\d|\b(?:black|white)\.[a-z]+|\{\"|\b(?:black|white)\b",
    re.IGNORECASE,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("tv")) as s:
        yield s


@pytest.fixture(scope="module")
def api(browser: Any, server: LiveServer) -> Iterator[Any]:
    """A logged-in request context for driving the match."""
    ctx = browser.new_context()
    r = ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin})
    assert r.ok, r.text()
    try:
        yield ctx.request
    finally:
        ctx.close()


def state(api: Any, server: LiveServer) -> dict[str, Any]:
    return api.get(server.url + "/api/state").json()  # type: ignore[no-any-return]


def post(api: Any, server: LiveServer, path: str, body: dict[str, Any]) -> dict[str, Any]:
    body = {"seq": state(api, server)["seq"], **body}
    r = api.post(server.url + path, data=body)
    assert r.ok, r.text()
    return r.json()  # type: ignore[no-any-return]


def step(api: Any, server: LiveServer, s: dict[str, Any]) -> dict[str, Any]:
    return post(api, server, "/api/match/steps", {"step": s})


def wait_for(api: Any, server: LiveServer, ok: Any, timeout: float = 10.0) -> dict[str, Any]:
    import time

    deadline = time.monotonic() + timeout
    while True:
        s = state(api, server)
        if ok(s):
            return s
        assert time.monotonic() < deadline, s["tracker"]
        time.sleep(0.05)


def other(p: str) -> str:
    return "white" if p == "black" else "black"


def score_a_point(api: Any, server: LiveServer) -> None:
    """The player due scores one point on the other's yellow (a third skitt, R3)."""
    st = state(api, server)["state"]
    if st["phase"] == "shootoff":
        step(api, server, {"shootoff": {"black": 5, "white": 3}})
        st = state(api, server)["state"]
    turn = st["turn"]
    if st.get("must_place_big"):
        step(api, server, {"shot": {"by": turn, "big": "placed"}})
        st = state(api, server)["state"]
        turn = st["turn"]
        if st.get("must_place_big"):
            step(api, server, {"shot": {"by": turn, "big": "placed"}})
            turn = state(api, server)["state"]["turn"]
    target = f"{other(turn)}.yellow"
    step(api, server, {"correct": {"board": {target: 2}, "reason": "set up the next point"}})
    step(api, server, {"shot": {"by": turn, "delta": {target: 1}}})


def play_a_clearing(api: Any, server: LiveServer, points_to_win_round: int) -> None:
    """A new match in which the first player clears Bo's blue on the (virtual) board, so the
    board waits for a restore: skitts to take off before the next shot."""
    post(api, server, "/api/match/new", {
        "names": NAMES, "first": "black", "points_to_win_round": points_to_win_round,
        "rounds_to_win_game": 2,
    })
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})
    step(api, server, {"correct": {
        "board": {"white.blue": 1, "black.blue": 2, "white.yellow": 1}, "reason": "set-up"}})
    assert api.post(server.url + "/api/board/lay-out", data={}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    for action, field in (("place", "white.blue"), ("place", "white.blue"),
                          ("remove", "white.yellow")):
        assert api.post(server.url + f"/api/board/{action}", data={"field": field}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "restore")


def tv(browser: Any, server: LiveServer, size: tuple[int, int]) -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_function("document.body.dataset.seq !== undefined")
    return page


def snap(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def in_view(page: Any, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    vp = page.viewport_size
    return bool(box and box["height"] > 0 and box["y"] >= 0 and box["x"] >= 0
                and box["y"] + box["height"] <= vp["height"] + 0.5
                and box["x"] + box["width"] <= vp["width"] + 0.5)


def board_fits(page: Any) -> bool:
    """The whole board drawing is on screen: inside the viewport and not clipped by its column."""
    board = page.locator("#board").bounding_box()
    mid = page.locator(".sb .mid").bounding_box()
    bottom = board["y"] + board["height"]
    return in_view(page, "#board") and bottom <= mid["y"] + mid["height"] + 0.5


def check_tv(page: Any, seq: int, name: str) -> str:
    """What every TV moment must satisfy; returns the visible text."""
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
    page.wait_for_timeout(100)
    text = page.locator("body").inner_text()
    assert not ENGINEER_WORDS.search(text), ENGINEER_WORDS.search(text)
    assert in_view(page, "#lastshot"), "the last shot must stay inside the viewport"
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


def test_the_tv_from_a_clearing_to_a_round_win_to_game_over(
    browser: Any, server: LiveServer, api: Any
) -> None:
    from playwright.sync_api import expect

    play_a_clearing(api, server, points_to_win_round=2)
    pages = [tv(browser, server, size) for size in TV]
    seq = state(api, server)["seq"]

    # a clearing: one calm instruction in names, the effects in names, no cell numbers
    for page, (w, h) in zip(pages, TV, strict=True):
        text = check_tv(page, seq, f"tv-{w}x{h}-clearing")
        expect(page.locator("#alerts .alert")).to_have_count(1)
        assert page.locator("#alerts .alert").inner_text().startswith("Put back: take ")
        assert "Bo's blue" in text and "Bo to shoot" in text
        assert f"{LONG} +1" in page.locator("#effects").inner_text()
    big = pages[0]
    for sel in ("#effects li", "#alerts .alert", "#turn", ".track-cell", ".turn-badge"):
        if sel == ".turn-badge":
            sel = ".player.due .turn-badge"
        assert font_px(big, sel) >= 32, sel

    # a round win: a large banner with the winner's name until the next shot
    score_a_point(api, server)  # Bo 1
    score_a_point(api, server)  # Annabel 2: the round
    seq = state(api, server)["seq"]
    assert state(api, server)["state"]["round_wins"]["black"] == 1
    for page, (w, h) in zip(pages, TV, strict=True):
        check_tv(page, seq, f"tv-{w}x{h}-round-win")
        expect(page.locator("#moment .title")).to_have_text(f"{LONG} wins round 1")
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
        check_tv(page, final["seq"], f"tv-{w}x{h}-game-over")
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
        ws.connect_to_server()
        links.append(ws)

    ctx = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = ctx.new_page()
    page.route_web_socket(re.compile(r".*/ws$"), through)
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
