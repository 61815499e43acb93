"""The virtual board holds still under a finger while its words change.

After every shot the words above the board change: the rules' answer, what to put back, a
field fuller than its sensors count. When they took more lines, or fewer, the board moved by
those lines between one tap and the next, and the next tap landed beside its field (seen: a
long press that should have taken a skitt off Bo's red came down 72 px above it, after the
rules' refusal had grown the message by three lines, and nothing was taken off). The words
have a box of their own height: a long message is set smaller to fit it, and the fields stay
where they were, at every screen size and in both languages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from browser_support import LiveServer, at_every_size, at_once, page_at, snap
from tv_support import german, wait_for

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

FIELD = '#vboard [data-field="white.red"] .field-rect'
WORDS_SHOWN = """() => {
  const box = document.getElementById('words');
  return {fits: box.scrollHeight <= box.clientHeight + 1,
          text: box.textContent.replace(/\\s+/g, ' ').trim()};
}"""


def board_page(browser: Any, server: LiveServer, lang: str) -> Callable[[tuple[int, int]], Any]:
    """Opens the virtual board in ``lang`` at a size, logged in as the referee."""
    def open_page(size: tuple[int, int]) -> Any:
        page = (german if lang == "de" else page_at)(browser, server, "/board", size)
        page.wait_for_function("document.body.classList.contains('referee')")
        page.locator(FIELD).wait_for()
        return page
    return open_page


def drawn(page: Any, server: LiveServer, settled: Callable[[dict[str, Any]], bool]) -> None:
    """The server's board at rest as ``settled`` says, and ``page`` showing that state."""
    seq = wait_for(page.context.request, server, settled)["seq"]
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")


def top(page: Any) -> float:
    box = page.locator(FIELD).bounding_box()
    assert box is not None, "Bo's red is not on screen"
    return float(box["y"])


def lay_out(page: Any, server: LiveServer) -> None:
    api = page.context.request
    seq = api.get(server.url + "/api/state").json()["seq"]
    assert api.post(server.url + "/api/board/lay-out", data={"seq": seq}).ok
    drawn(page, server, lambda s: s["tracker"]["mode"] == "ready")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_fields_stay_under_a_finger_while_the_words_above_them_change(
    browser: Any, server: LiveServer, lang: str
) -> None:
    for name, size, page in at_every_size(board_page(browser, server, lang)):
        lay_out(page, server)
        short = page.evaluate(WORDS_SHOWN)
        before = top(page)

        # a shot the rules refuse: the longest words the board page shows, what to put back
        at_once(server, ("place", "white.red"), ("place", "black.blue"))
        drawn(page, server, lambda s: s["tracker"]["settled"]
              and s["tracker"]["differences"].get("white.red") == 1)
        refused = page.evaluate(WORDS_SHOWN)
        assert len(refused["text"]) > len(short["text"]) + 60, (short, refused)
        assert top(page) == pytest.approx(before, abs=0.5), (name, short, refused)
        assert refused["fits"], (name, refused)  # every word of it shows

        # more skitts on a field than its sensors count: a note of its own joins the words
        at_once(server, *[("place", "white.blue")] * 15)
        drawn(page, server, lambda s: s["tracker"]["settled"]
              and "white.blue" in s["virtual"]["over"])
        full = page.evaluate(WORDS_SHOWN)
        assert full["text"] != refused["text"]
        assert top(page) == pytest.approx(before, abs=0.5), (name, full)
        assert full["fits"], (name, full)
        snap(page, f"board-still-{lang}-{size[0]}x{size[1]}")

        lay_out(page, server)  # the short words again: the board has not moved either way
        assert top(page) == pytest.approx(before, abs=0.5), name
        assert page.evaluate("document.documentElement.scrollWidth") <= size[0], name
