"""What the board's browser tests share: one live server per module with a referee's request
context on it, a match driven through the API with a long name (a clearing, points, a round
win), the TV and the tablet pages at a size, and checks of what is on screen.

The TV's tests (test_browser_tv.py at the TV sizes, test_browser_tv_narrow.py on a phone and
an upright tablet), the tablet's, the offer's and the overlay's use it; a test module never
imports another test module.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from browser_support import (
    SCREENSHOTS,
    LiveServer,
    at_once,
    board_act,
    is_touch,
    keep_screenshot,
    live_server,
)
from waiting import wait_until

LONG = "Annabel Okonkwo-Lindqvist"
NAMES = {"black": LONG, "white": "Bo"}
TV = [(1920, 1080), (1280, 720)]
ENGINEER_WORDS = re.compile(
    r"\bcell \d+|0x[0-9a-f]{2}|\bGP[AB]\d|\b(?:black|white)\.[a-z]+|\{\"|\b(?:black|white)\b",
    re.IGNORECASE,
)



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
    seen: list[dict[str, Any]] = []

    def check() -> dict[str, Any] | None:
        seen[:] = [state(api, server)]
        return seen[0] if ok(seen[0]) else None

    try:
        return wait_until(check, "the state asked for", timeout=timeout, every=0.02)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; the tracker: {seen[0]['tracker']}") from None


def bigs_in_centre(api: Any, server: LiveServer) -> None:
    """Both players' big skitts placed on the board's centre, one after the other, each read
    as its shot (the board at rest at once: :func:`browser_support.board_act`)."""
    for player in ("black", "white"):
        board_act(api, server, "/api/board/big", {"player": player, "on": True})
        wait_for(api, server, lambda s, p=player: s["state"]["big"][p] == "center"
                 and s["tracker"]["mode"] == "ready")


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


def play_a_clearing(
    api: Any, server: LiveServer, points_to_win_round: int, names: dict[str, str] = NAMES
) -> None:
    """A new match in which the first player clears Bo's blue on the (virtual) board, so the
    board waits for a restore: skitts to take off before the next shot."""
    post(api, server, "/api/match/new", {
        "names": names, "first": "black", "points_to_win_round": points_to_win_round,
        "rounds_to_win_game": 2,
    })
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})
    step(api, server, {"correct": {
        "board": {"white.blue": 1, "black.blue": 2, "white.yellow": 1}, "reason": "set-up"}})
    assert api.post(server.url + "/api/board/lay-out",
                    data={"seq": state(api, server)["seq"]}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    at_once(server, ("place", "white.blue"), ("place", "white.blue"), ("remove", "white.yellow"))
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "restore")


def one_server_per_module(name: str) -> tuple[Any, Any]:
    """The ``server`` and ``api`` fixtures of a module whose tests play on one live server in
    turn (``server, api = one_server_per_module("tablet")``): the server on a folder named
    ``name``, and a request context logged in as its referee, for driving the match."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
        with live_server(tmp_path_factory.mktemp(name)) as s:
            yield s

    @pytest.fixture(scope="module")
    def api(browser: Any, server: LiveServer) -> Iterator[Any]:
        with logged_in(browser, server) as request:
            yield request

    return server, api


def tablet(browser: Any, server: LiveServer, size: tuple[int, int] = (1024, 768), *,
           touch: bool = False) -> Any:
    """The tablet page at ``size`` in a browser context of its own (a touch screen when
    ``touch``), logged in as the referee through its form; the page's script errors gather in
    ``page.errors``."""
    page = browser.new_context(viewport={"width": size[0], "height": size[1]},
                               has_touch=touch).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(server.url + "/tablet")
    page.fill("#login input[name=pin]", server.pin)
    page.click("#login button[type=submit]")
    page.wait_for_function("document.body.classList.contains('referee')")
    return page


def tv(browser: Any, server: LiveServer, size: tuple[int, int]) -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.goto(server.url + "/")
    page.wait_for_function("document.body.dataset.seq !== undefined")
    return page


def snap(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    keep_screenshot(page, f"{name}")


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


# Every word of the visible text under the selector `root` (outside a board drawing) whose
# letters land on more than one line: a word broken inside. A hyphen is a fair place to
# break a name.
BROKEN_WORDS = """(root) => {
  const broken = [];
  const walk = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const el = n.parentElement;
    if (el.closest("svg") || !el.getClientRects().length) continue;
    for (const m of n.data.matchAll(/[^\\s-]+-?/g)) {
      const r = document.createRange();
      r.setStart(n, m.index);
      r.setEnd(n, m.index + m[0].length);
      const tops = new Set([...r.getClientRects()].filter((b) => b.width > 0)
        .map((b) => Math.round(b.top)));
      if (tops.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


# Every line of the last shot that is not wholly on screen: outside the #lastshot box (cut off
# by its overflow) or outside the viewport; and whether the box holds more than it shows.
LAST_SHOT_CLIPPED = """() => {
  const box = document.querySelector("#lastshot"), b = box.getBoundingClientRect();
  const out = [];
  if (box.scrollHeight > box.clientHeight) out.push(`${box.scrollHeight} > ${box.clientHeight}`);
  for (const li of box.querySelectorAll("#effects li")) {
    const r = li.getBoundingClientRect();
    if (r.top < Math.max(b.top, 0) - 0.5 || r.bottom > Math.min(b.bottom, innerHeight) + 0.5
        || r.left < Math.max(b.left, 0) - 0.5 || r.right > Math.min(b.right, innerWidth) + 0.5) {
      out.push(li.textContent);
    }
  }
  return out;
}"""

# The tallest stretch of bare page background in each column of the TV layout: the column's
# height minus what its painted boxes (a panel's background, text, an image, the board) cover.
EMPTY_STRETCH = """() => [...document.querySelectorAll(".sb > .side, .sb > .mid")].map((col) => {
  const c = col.getBoundingClientRect(), top = c.top, bottom = Math.min(c.bottom, innerHeight);
  const spans = [];
  for (const e of col.querySelectorAll("*")) {
    if (!e.getClientRects().length || getComputedStyle(e).visibility === "hidden") continue;
    const painted = getComputedStyle(e).backgroundColor !== "rgba(0, 0, 0, 0)"
      || e.matches("img, svg") || [...e.childNodes].some((n) => n.nodeType === 3 && n.data.trim());
    if (!painted) continue;
    const r = e.getBoundingClientRect();
    spans.push([Math.max(r.top, top), Math.min(r.bottom, bottom)]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  let reach = top, gap = 0;
  for (const [t, b] of spans) { gap = Math.max(gap, t - reach); reach = Math.max(reach, b); }
  return {column: [...col.parentNode.children].indexOf(col), gap: Math.max(gap, bottom - reach)};
})"""


@contextmanager
def logged_in(browser: Any, server: LiveServer) -> Iterator[Any]:
    """A request context logged in as the referee, for driving the match."""
    ctx = browser.new_context()
    r = ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin})
    assert r.ok, r.text()
    try:
        yield ctx.request
    finally:
        ctx.close()


def german(browser: Any, server: LiveServer, path: str, size: tuple[int, int]) -> Any:
    """``path`` opened with ``?lang=de`` by a referee whose browser asks for English (so the
    page follows the address, not the browser), once it shows a state."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                              has_touch=is_touch(size), locale="en-GB")
    assert ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    page = ctx.new_page()
    page.goto(server.url + path + "?lang=de")
    page.wait_for_function("document.body.dataset.seq !== undefined")
    return page
