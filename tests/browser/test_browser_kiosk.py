"""The kiosk's TV speaks with nobody tapping it, in a Chromium started the way the kiosk does.

The flags and the address are taken from ``hardware/pi/skitter-kiosk`` itself (run with a
stand-in chromium that records them), so the test checks what a Pi's TV runs. Headless
Chromium ignores the autoplay rule altogether, so these run a windowed Chromium on a virtual
screen (Xvfb, as the TV's desktop would be): there the usual rule holds (sound only after a
tap), and the control shows that the same page stays silent without the kiosk's flag.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    SCREENSHOTS,
    LiveServer,
    keep_screenshot,
    require_chromium,
)
from kiosk_support import kiosk_browser_args
from speech_support import require_espeak

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

SIZES = {"tv": (1920, 1080), "tv720": (1280, 720), "tablet": (1024, 768),
         "tablet-portrait": (768, 1024), "phone": (390, 844)}
HEADLESS_UNFIT = {"--kiosk"}  # full screen means nothing without a screen


@pytest.fixture(scope="module")
def screen() -> Iterator[str]:
    """A virtual X screen for a windowed Chromium; its DISPLAY."""
    if shutil.which("Xvfb") is None:
        message = "Xvfb is not installed (apt-get install xvfb)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1920x1080x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as f:
        number = f.readline().strip()
    try:
        assert number.isdigit(), "Xvfb did not start"
        yield f":{number}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def post(request: Any, server: LiveServer, path: str, body: dict[str, Any]) -> None:
    seq = request.get(server.url + "/api/state").json()["seq"]
    r = request.post(server.url + path, data={"seq": seq, **body})
    assert r.ok, r.text()


def kiosk_address(server: LiveServer, tmp_path: Path) -> tuple[list[str], str]:
    args, url = kiosk_browser_args(tmp_path)
    parts = urlsplit(url)
    return ([a for a in args if a not in HEADLESS_UNFIT],
            f"{server.url}{parts.path}?{parts.query}")


def play_one_shot(playwright: Any, display: str, args: list[str], url: str,
                  server: LiveServer, size: tuple[int, int] = SIZES["tv"]) -> Any:
    """Open ``url`` in a windowed Chromium with ``args``, let the referee record a shot, and
    return the page (nobody touches it) once it has shown the caller's words."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=False,
                                         args=[*CHROMIUM_ARGS, *args],
                                         env={**os.environ, "DISPLAY": display})
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    request = ctx.request
    assert request.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    post(request, server, "/api/match/new", {"names": {"black": "Ann", "white": "Bo"},
                                             "first": "black"})
    page = ctx.new_page()
    page.goto(url)
    page.wait_for_function("document.body.dataset.caller !== undefined")
    post(request, server, "/api/match/steps", {"step": {"shot": {"by": "black", "big": "placed"}}})
    page.wait_for_function("document.body.dataset.callerSaid === 'Ann places the big skitt'",
                           timeout=20000)
    return browser, page


def test_the_kiosk_tv_plays_the_caller_with_no_tap(server: LiveServer, tmp_path: Path,
                                                  screen: str, playwright_driver: Any) -> None:
    require_espeak()
    require_chromium(CHROMIUM)  # the browser the kiosk opens, windowed
    args, url = kiosk_address(server, tmp_path)
    browser, page = play_one_shot(playwright_driver, screen, args, url, server)
    try:
        assert page.evaluate("document.body.dataset.caller") == "on"
        page.wait_for_function(
            "document.body.dataset.callerPlayed === 'Ann places the big skitt'",
            timeout=20000)
        # "playing" fires as the clip starts; Chromium adds the stretch to ``played`` only
        # once its clock has moved on, which on a loaded machine can come a moment later.
        page.wait_for_function(
            "document.getElementById('caller-audio').played.length >= 1", timeout=20000)
        played = page.evaluate(
            "(() => { const a = document.getElementById('caller-audio');"
            " return {src: a.currentSrc, played: a.played.length, error: a.error}; })()")
        assert played["src"].endswith(".wav") and played["played"] >= 1
        assert not played["error"]
    finally:
        browser.close()


def test_the_kiosk_address_shows_sound_on_at_every_size(server: LiveServer,
                                                        tmp_path: Path, browser: Any) -> None:
    require_chromium()
    _, url = kiosk_address(server, tmp_path)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, (width, height) in SIZES.items():
        page = browser.new_page(viewport={"width": width, "height": height})
        try:
            page.goto(url)
            toggle = page.locator("#caller-toggle")
            toggle.wait_for(state="visible")
            assert toggle.inner_text() == "Sound on · tap to mute"
            box = toggle.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 1
            keep_screenshot(page, f"kiosk-caller-on-{name}")
            toggle.click()  # a tap on the TV still mutes it
            assert toggle.inner_text() == "Tap to turn on the caller's voice"
        finally:
            page.close()
