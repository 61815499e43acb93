"""The referee page says when the last check sheet could not be saved yet (the disk refused
it), in English and German, at every screen size; once it is written the sentence goes."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import LiveServer, live_server, settled
from tv_support import snap

from web.table import selftest_record

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

SIZES = [(1920, 1080), (1280, 720), (1024, 768), (768, 1024), (390, 844)]
WORDS = {"en": "could not be saved yet", "de": "konnte noch nicht gespeichert werden"}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(tmp_path) as s:
        yield s


def referee_page(browser: Any, server: LiveServer, size: tuple[int, int], lang: str) -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                              locale="de-DE" if lang == "de" else "en-GB")
    assert ctx.request.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
    page = ctx.new_page()
    page.goto(server.url + f"/referee?lang={lang}")
    page.wait_for_function("document.body.classList.contains('referee')")
    return page


def test_an_unsaved_check_sheet_is_said_on_the_referee_page(
    browser: Any, server: LiveServer, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from playwright.sync_api import expect

    def full(directory: Path, sheet: Any) -> Path:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as disk:
        disk.setattr(selftest_record, "save", full)
        ctx = browser.new_context()
        assert ctx.request.post(server.url + "/api/referee/login",
                                data={"pin": server.pin}).ok
        assert ctx.request.post(server.url + "/api/referee/selftest/start", data={"run": 0}).ok
        stopped = ctx.request.post(server.url + "/api/referee/selftest/stop", data={"run": 1})
        assert stopped.ok and stopped.json()["saved"] is False
        ctx.close()
        for lang, words in WORDS.items():
            # one page, seen at each size in turn (it lays itself out again when resized)
            page = referee_page(browser, server, SIZES[0], lang)
            for size in SIZES:
                page.set_viewport_size({"width": size[0], "height": size[1]})
                unsaved = page.locator("#st-unsaved")
                expect(unsaved).to_contain_text(words)
                expect(unsaved).to_be_visible()
                settled(page)
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= size[0], (lang, size, width)
                if size in ((1280, 720), (390, 844)):
                    unsaved.scroll_into_view_if_needed()
                    snap(page, f"referee-selftest-unsaved-{lang}-{size[0]}x{size[1]}")
            page.context.close()
    page = referee_page(browser, server, (1280, 720), "en")  # the disk has room again
    expect(page.locator("#st-last")).to_contain_text("Last self-test")
    expect(page.locator("#st-unsaved")).to_have_count(0)
    page.context.close()
