"""Headless Chromium against the real app served by uvicorn on a loopback port.

Debian's ``chromium`` (``/usr/bin/chromium``) is driven by Playwright; ``playwright install``
is never run. Without it the browser tests skip, except under CI, where they fail.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from threaded_server import serve_in_thread

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium, the browser the kiosk opens: the tests that open a window use it."""
HEADLESS_CHROMIUM = "/usr/bin/chromium-headless-shell"
"""Debian's headless build of the same Chromium (package ``chromium-headless-shell``), the
pages drawn by the same engine but no browser around them (no address bar, no tabs): every
headless test uses it. The full browser readied an address bar of its own pages for every
browser context a test opened, some 0.6 s of processor time each, more than the page the test
loads (``bench/chromium_contexts.py``)."""
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"


def require_chromium(path: str = HEADLESS_CHROMIUM) -> None:
    """Skip without the Chromium at ``path``, but fail under CI (the CI script installs it)."""
    if os.path.exists(path):
        return
    message = (f"Chromium is not installed at {path} "
               f"(apt-get install {Path(path).name.removesuffix('-browser')})")
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


class MovableClock:
    """The live test server's monotonic clock: real time, plus however far the test has moved
    it on (:meth:`advance`), so a test need not wait out the board's settle window."""

    def __init__(self) -> None:
        self._ahead = 0.0
        self._lock = threading.Lock()

    def now(self) -> float:
        return time.monotonic() + self._ahead

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._ahead += seconds


SETTLE_MS = 120
"""The live server's settle window: a board at rest this long is read as a shot's end."""


@dataclass
class LiveServer:
    url: str
    pin: str
    table: object
    clock: MovableClock | None = None
    """The server's monotonic clock (sensing, sessions), for the test to move on."""


@contextmanager
def live_server(tmp: Path, pin: str = "2468", source: str = "sim",
                settle_ms: int = SETTLE_MS) -> Iterator[LiveServer]:
    """The app on the simulated board (``source``: or another, e.g. ``physics``, with the
    ``settle_ms`` it needs), served by uvicorn in a thread; its clock runs in real time and
    moves on when the test says (``server.clock.advance``)."""
    from firmware_bridge.clocks import WallClock
    from web.api.app import create_app
    from web.api.deps import Auth
    from web.table.wiring import open_table
    from web_common.broadcaster import Broadcaster
    from web_common.pin import PinStore

    clock = MovableClock()
    pins = PinStore(tmp / "data")
    pins.set(pin)
    broadcaster = Broadcaster()
    table = open_table(tmp / "skitter.db", source, clock=clock, wall=WallClock(),
                       settle_ms=settle_ms, debounce_ms=10, publish=broadcaster.publish)
    try:
        with serving(lambda url: create_app(table, Auth.create(pins, clock), broadcaster,
                                            public_url=url + "/")) as url:
            yield LiveServer(url, pin, table, clock)
    finally:
        table.close()  # type: ignore[attr-defined]


KEEP_IDLE_S = 3600
"""How long the test server keeps an idle connection open: longer than any test."""


@contextmanager
def serving(make_app: Callable[[str], Any]) -> Iterator[str]:
    """``make_app(url)`` served by uvicorn in a thread on a loopback port the OS chose (bound
    before the app is made, so the app knows its URL); its URL."""
    import uvicorn
    from ports import listening_socket

    sock = listening_socket()
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    try:
        # An idle keep-alive connection is never closed while a test runs: Playwright's
        # request context reuses one without retrying, and a server closing it just as a
        # request goes out (uvicorn's 5 s idle limit, reached on a loaded machine between
        # two calls) is a reset the test did not cause.
        config = uvicorn.Config(make_app(url), log_level="warning", timeout_graceful_shutdown=2,
                                timeout_keep_alive=KEEP_IDLE_S)
        with serve_in_thread(config, sock=sock) as served:
            yield served
    finally:
        sock.close()


SIZES = {"tv": (1920, 1080), "tv-small": (1280, 720), "tablet": (1024, 768),
         "tablet-portrait": (768, 1024), "phone": (390, 844)}
"""The screens people use: two TVs, a tablet both ways, a phone."""


def screenshots_wanted() -> bool:
    """Screenshots to look at are taken only when asked for (``SCREENSHOTS=1``); a failed
    browser test leaves its own (``tests/conftest.py``)."""
    return os.environ.get("SCREENSHOTS") == "1"


def snap(page: Any, name: str, *, full_page: bool = False) -> None:
    """A screenshot to look at, under test-artifacts/screenshots (with ``SCREENSHOTS=1``)."""
    keep_screenshot(page, name, full_page=full_page)


def keep_screenshot(target: Any, name: str, **options: Any) -> None:
    """``target.screenshot`` (a page or a locator) into test-artifacts/screenshots/NAME.png,
    with ``SCREENSHOTS=1``."""
    if screenshots_wanted():
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(SCREENSHOTS / f"{name}.png"), **options)


SETTLED = """() => document.fonts.status === 'loaded' && document.getAnimations().every(
  (a) => a.playState !== 'running' || a.effect.getComputedTiming().endTime === Infinity)"""
NEXT_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def settled(page: Any) -> None:
    """Wait until ``page`` (or a frame) has drawn what it was given: its fonts loaded, no
    transition or finite animation running, and two frames laid out since.

    The page is brought to the front first: of the pages of one browser context only the
    one in front is drawn at the display's pace, and the frames of one behind came some
    2 s apart (a test with a TV, a tablet and a board page open waited 2 s a look)."""
    front = getattr(page, "page", page)  # a frame's page
    front.bring_to_front()
    page.wait_for_function(SETTLED)
    page.evaluate(NEXT_FRAMES)


PROBES = """(() => {
  // answers read: counted once the code that awaited the body has run on (a task later)
  window.answersRead = {};
  window.readsPending = 0;
  const json = Response.prototype.json;
  Response.prototype.json = function () {
    const path = new URL(this.url).pathname;
    window.readsPending += 1;
    return json.call(this).finally(() => setTimeout(() => {
      window.answersRead[path] = (window.answersRead[path] || 0) + 1;
      window.readsPending -= 1;
    }, 0));
  };
  // requests asked and not yet answered (and the code awaiting them run on)
  window.fetchesPending = 0;
  const native = window.fetch;
  window.fetch = function (...args) {
    window.fetchesPending += 1;
    return native.apply(this, args).finally(() => setTimeout(() => {
      window.fetchesPending -= 1; }, 0));
  };
})()"""


def probe(page: Any) -> None:
    """Count, on ``page`` from its next load on, the answers its scripts have read
    (:func:`answers_read`)."""
    page.add_init_script(PROBES)


def answers_read(page: Any, path: str) -> int:
    """How many answers from ``path`` the page's scripts have read and acted on (after
    :func:`probe`)."""
    return int(page.evaluate("(p) => window.answersRead[p] || 0", path))


def wait_answer_read(page: Any, path: str, more_than: int = 0) -> None:
    """Wait until the page's scripts have read and acted on an answer from ``path`` (more
    than ``more_than`` of them), after :func:`probe`."""
    page.wait_for_function("([p, n]) => (window.answersRead[p] || 0) > n", arg=[path, more_than])


def quiet_network(page: Any) -> None:
    """Wait until every request the page asked (after :func:`probe`) is answered and its
    answer read."""
    page.wait_for_function("window.fetchesPending === 0 && window.readsPending === 0")


def pump_until(page: Any, condition: Callable[[], Any], what: str, *,
               timeout: float = 20.0, every: float = 0.02) -> Any:
    """:func:`waiting.wait_until` for a condition that a Playwright handler (a route's, a
    WebSocket route's) makes true: each ask is a round trip to the page, during which
    Playwright runs the handlers due."""
    from waiting import wait_until

    def asked() -> Any:
        page.evaluate("0")
        return condition()

    return wait_until(asked, what, timeout=timeout, every=every)


def keep_png(name: str, png: bytes) -> None:
    """A screenshot already taken (for its pixels) kept to look at, with ``SCREENSHOTS=1``."""
    if screenshots_wanted():
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        (SCREENSHOTS / f"{name}.png").write_bytes(png)


def shown_box(locator: Any) -> dict[str, float]:
    """Scroll ``locator``'s element into view and measure it, in one step inside the page.

    A page that draws a part again (the hub replaces a board's card on every change) can
    detach the element between Playwright's separate scroll and measure calls; done in one
    evaluation, the element is the one on the page at that instant."""
    box: dict[str, float] = locator.evaluate(
        "(e) => { e.scrollIntoView({ block: 'nearest' });"
        " const r = e.getBoundingClientRect();"
        " return { x: r.x, y: r.y, width: r.width, height: r.height }; }")
    return box


TOUCH_BELOW = 600
"""Screens narrower than this (the phone) are touch screens (``has_touch``)."""


def is_touch(size: tuple[int, int]) -> bool:
    """A screen of ``size`` is a touch screen (:data:`TOUCH_BELOW`)."""
    return size[0] < TOUCH_BELOW


def first_size(group: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """The size a flow on a group of screens starts at (its first)."""
    return next(iter(group.values()))


def screen_groups(sizes: dict[str, tuple[int, int]]) -> dict[str, dict[str, tuple[int, int]]]:
    """``sizes`` in the groups one flow is looked at in: the screens without touch
    ("screens": a page is loaded once and resized to each of their sizes in turn, for the
    pages lay themselves out again when the window changes size), and the touch screens
    ("touch": a context of their own, with ``has_touch``); a group with no size is left out."""
    groups = {
        "screens": {name: wh for name, wh in sizes.items() if not is_touch(wh)},
        "touch": {name: wh for name, wh in sizes.items() if is_touch(wh)},
    }
    return {group: chosen for group, chosen in groups.items() if chosen}


SCREENS = screen_groups(SIZES)
""":data:`SIZES` in the groups one flow is looked at in (:func:`screen_groups`)."""


def at_each_size(pages: list[Any], sizes: dict[str, tuple[int, int]],
                 wait: Callable[[Any], None] = settled
                 ) -> Iterator[tuple[str, tuple[int, int]]]:
    """``(name, size)`` for each of ``sizes`` in turn, with every one of ``pages`` resized to
    it and at rest (``wait(page)``: :func:`settled` unless given)."""
    for name, (width, height) in sizes.items():
        for page in pages:
            page.set_viewport_size({"width": width, "height": height})
            wait(page)
        yield name, (width, height)


def at_every_size(open_page: Callable[[tuple[int, int]], Any],
                  sizes: dict[str, tuple[int, int]] | None = None
                  ) -> Iterator[tuple[str, tuple[int, int], Any]]:
    """``(name, size, page)`` for each of ``sizes`` (:data:`SIZES`) in turn, on as few page
    loads as the screens allow (:func:`screen_groups`): ``open_page(size)`` opens a page (in a
    context of its own) at the first size of a group, and it is resized to each of the
    group's sizes in turn. Each page is at rest at its size when it is yielded, and its
    context is closed after its last size."""
    for group in screen_groups(sizes or SIZES).values():
        page = open_page(first_size(group))
        try:
            for name, size in at_each_size([page], group):
                yield name, size, page
        finally:
            page.context.close()


def page_at(browser: Any, server: LiveServer, path: str, size: tuple[int, int]) -> Any:
    """A page at ``size`` in a context of its own, logged in as the referee (touch on a
    phone), once its first state is drawn."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                              has_touch=is_touch(size))
    r = ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin})
    assert r.ok, r.text()
    page = ctx.new_page()
    page.goto(server.url + path)
    page.wait_for_function("document.body.dataset.seq !== undefined")
    return page


def board_act(api: Any, server: LiveServer, path: str, data: dict[str, Any]) -> None:
    """A move on the virtual board through the page's API (``/api/board/big``, ``place``,
    ``bridge``...), and the board at rest at once: the server's clock is moved past the
    settle window after it (the move is done when the request is answered), so the next
    sensing step reads the shot instead of the test waiting out the window in real time."""
    r = api.post(server.url + path, data=data)
    assert r.ok, r.text()
    if server.clock is not None:
        server.clock.advance(2 * SETTLE_MS / 1000)


def at_once(server: LiveServer, *moves: tuple[str, str]) -> None:
    """Skitts that move in one instant of the virtual board (``("place", "minus")``,
    ``("remove", "white.red")``), as one shot moves them on a real board. Taps sent one after
    another can fall into two settle windows (120 ms here) on a loaded machine and be scored
    as two shots; this makes them one act on the board's sensing thread, as a tap is."""
    table = server.table

    def act(sim: Any) -> None:
        for what, field in moves:
            {"place": sim.place_skitt, "remove": sim.remove_skitt}[what](field)
        if server.clock is not None:  # the board is at rest at once: the shot is read next
            server.clock.advance(2 * SETTLE_MS / 1000)

    table.feed.thread.submit(lambda: table.on_simulator(act)).result(timeout=10)
