"""Issue 43, item 8: every page people read, in both languages, at the five sizes, in the
middle of a match with long names: no page scrolls sideways, no visible text is drawn over
other text, no word is broken mid-word, no text is cut off (an ellipsis, a list clipped at
the bottom), and a German page has no English word outside the players' names.

One browser; one context for the screens without touch, each page loaded once and looked at
in each of their sizes in turn, and one for the phone. The board's pages and the hub's are
loaded in a mid-match state (a blockade, a choice still open, points on the board, a kept self-test
sheet; the hub with a round paired, a result in, a player dropped out and a board playing).
Then the moments the standing pages do not show: the last shot's review on the TV, the
overlay and the referee page; the tablet's and the referee page's every form open; the
self-test running on the TV, the referee page and the tablet.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browser_support import (
    SCREENS,
    SIZES,
    LiveServer,
    at_each_size,
    first_size,
    is_touch,
    live_server,
    probe,
    quiet_network,
    serving,
    settled,
    snap,
)
from hub_app_support import QuietSender
from page_walk import look, untranslated
from tv_support import post, step

from hub.app import Hub, create_hub_app
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from web_common.pin import PinStore

pytestmark = [pytest.mark.browser, pytest.mark.timeout(600)]

FIRST, SECOND = "Maximiliane Oberhollenzer-Quast", "Bartholomäus Wunderlich-Schmidt"
BOARD_PAGES = ["/", "/referee", "/tablet", "/board", "/overlay", "/stats", "/selftest/sheet"]
HUB_PAGES = ["/", "/bracket", "/overlay", "/overlay/standings", "/print/pairings",
             "/print/pairings/1", "/print/standings"]
HUB_PLAYERS = [FIRST, SECOND, "Cordula Ebersberger-Hintermaier", "Dietrich Aufderheide"]
HUB_PIN = "1357"
PAPER_SAYS = {  # each: one of these words is seen (a narrow paper keys its short headings)
    "en": (("Opponents' wins", "Buchholz"), ("(dropped out)",)),
    "de": (("Siege der Gegner", "Buchholz"), ("(ausgeschieden)",))}


@pytest.fixture(scope="module")
def board(tmp_path_factory: pytest.TempPathFactory, browser: Any) -> Iterator[LiveServer]:
    """The board mid-match: a self-test sheet kept, then a flipping match with long names,
    points scored, a blockade, and the first player's Hit on Red and unblock choices open."""
    with live_server(tmp_path_factory.mktemp("walk-board")) as server:
        ctx = browser.new_context()
        api = ctx.request
        assert api.post(server.url + "/api/referee/login", data={"pin": server.pin}).ok
        assert api.post(server.url + "/api/referee/selftest/start", data={"run": 0}).ok
        assert api.post(server.url + "/api/referee/selftest/stop", data={"run": 1}).ok
        post(api, server, "/api/match/new", {"names": {"black": FIRST, "white": SECOND},
                                             "first": "black", "flipping": True})
        for by in ("black", "white"):
            step(api, server, {"shot": {"by": by, "big": "placed"}})
        step(api, server, {"correct": {"board": {"white.red": 2, "black.yellow": 1},
                                       "blocked": ["white.blue"],
                                       "score": {"black": 1, "white": 2},
                                       "reason": "Zählfehler"}})
        step(api, server, {"shot": {"by": "black", "delta": {"white.red": 1}}})
        assert api.post(server.url + "/api/board/lay-out",
                        data={"seq": api.get(server.url + "/api/state").json()["seq"]}).ok
        ctx.close()
        yield server


@pytest.fixture(scope="module")
def hub(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The hub with a round paired on two boards, one game in, one board playing."""
    from test_hub_browser import finish

    from hub.field_changes import drop_player

    tmp = tmp_path_factory.mktemp("walk-hub")
    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp / "hub.db"), clock)
    pins = PinStore(tmp / "pin")
    pins.set(HUB_PIN)
    for name in HUB_PLAYERS:
        tournament.add_player(name)
    tournament.set_system("swiss")  # (a round robin's field is fixed: nobody may drop)
    pairs = tournament.pair_next_round(["board-1", "board-2"])
    store = tournament.store
    for b in ("board-1", "board-2"):
        store.set_board_status(b, True, at=1.0)
    store.set_board_state("board-2", {
        "match_id": 1, "seq": 4, "names": {"black": pairs[1].black, "white": pairs[1].white},
        "state": {"phase": "playing", "turn": "white", "round": 1,
                  "score": {"black": 3, "white": 1}, "round_wins": {"black": 0, "white": 0}}},
        at=1.0)
    finish(tournament, "board-1", (pairs[0].black, pairs[0].white or ""))
    # a player whose game is in drops out: the printed standings mark it
    drop_player(tournament, pairs[0].black, reason="krank", seq=store.field_version())
    try:
        with serving(lambda url: create_hub_app(Hub(tournament, QuietSender(), pins,
                                                    clock))) as url:
            yield url
    finally:
        store.close()


SEQ = "document.body.dataset.seq !== undefined"
VERSION = "document.body.dataset.version !== undefined"
DRAWN = {  # what each page marks once it has drawn what it read (the prints are drawn as sent)
    "board": {"/": SEQ, "/referee": SEQ, "/tablet": SEQ, "/board": SEQ, "/overlay": SEQ,
              "/stats": "document.body.dataset.loaded === 'yes'",
              "/selftest/sheet": "document.body.dataset.passed !== undefined"},
    "hub": {"/": f"{VERSION} && document.body.dataset.ratings === 'loaded'",
            "/bracket": "document.body.dataset.loaded === 'yes'",
            "/overlay": VERSION, "/overlay/standings": VERSION},
}


def drawn(page: Any) -> None:
    """Wait until every answer the page asked for is in and acted on, and the page has drawn
    it (after :func:`browser_support.probe`)."""
    quiet_network(page)
    settled(page)


def check(page: Any, app: str, base: str, path: str, lang: str,
          sizes: dict[str, tuple[int, int]],
          problems: list[str]) -> None:
    """``path`` of ``app`` ("board" or "hub", served at ``base``) in ``lang``, loaded once
    and judged at each of ``sizes`` once drawn."""
    page.goto(f"{base}{path}?lang={lang}")
    page.wait_for_function(DRAWN[app].get(path, "true"))
    for size, (w, h) in at_each_size([page], sizes, drawn):
        judge(page, lang, f"{app} {path} {lang} {w}x{h}", problems)
        if app == "hub" and path == "/print/standings":  # what the live standings rank by
            paper = page.locator("body").inner_text()
            for said in PAPER_SAYS[lang]:
                if not any(words in paper for words in said):
                    problems.append(f"hub {path} {lang} {w}x{h}: the printed standings lack "
                                    f"{said[0]!r}")
        snap(page, f"walk-{size}-{lang}-{app}{path.replace('/', '-')}", full_page=True)


def judge(page: Any, lang: str, where: str, problems: list[str],
          skip: Any = lambda text: False) -> None:
    """The page as it stands: sideways scroll, text over text, words broken or cut off,
    English on a German page; ``skip``: texts whose words may break and need no
    translation (the log's raw steps, JSON on purpose)."""
    seen = look(page)
    if seen["scroll"] > 1:
        problems.append(f"{where}: scrolls {seen['scroll']} px sideways")
    for a, b in seen["overlaps"]:
        problems.append(f"{where}: {a!r} is drawn over {b!r}")
    for word in seen["broken"]:
        if not skip(word):
            problems.append(f"{where}: {word!r} is broken mid-word")
    for text in [text for text in seen["cut"] if not skip(text)]:
        problems.append(f"{where}: {text!r} is cut off")
    if lang == "de":
        if seen["lang"] != "de":
            problems.append(f"{where}: the page is not in German ({seen['lang']})")
        words = [text for text in seen["texts"] if not skip(text)]
        for text in untranslated(words, [*HUB_PLAYERS, "Zählfehler", "default"]):
            problems.append(f"{where}: English on a German page: {text}")


@pytest.mark.parametrize("screens", list(SCREENS))
def test_every_page_fits_and_reads_in_both_languages(
    browser: Any, board: LiveServer, hub: str, screens: str
) -> None:
    sizes = SCREENS[screens]
    w, h = first_size(sizes)
    ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=is_touch((w, h)),
                              locale="en-GB")
    assert ctx.request.post(board.url + "/api/referee/login", data={"pin": board.pin}).ok
    assert ctx.request.post(hub + "/api/referee/login", data={"pin": HUB_PIN}).ok
    page = ctx.new_page()
    probe(page)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    problems: list[str] = []
    for lang in ("en", "de"):
        for path in BOARD_PAGES:
            check(page, "board", board.url, path, lang, sizes, problems)
        for path in HUB_PAGES:
            check(page, "hub", hub, path, lang, sizes, problems)
    walk_the_moments(page, board, sizes, problems)
    ctx.close()
    assert not errors, errors
    assert not problems, "\n".join(problems)


def walk_the_moments(page: Any, board: LiveServer, sizes: dict[str, tuple[int, int]],
                     problems: list[str]) -> None:
    """The moments the standing pages do not show, in both languages, at each of
    ``sizes``: the last shot's review on the TV, the stream overlay's replay and the referee's
    review panel; the self-test running (the TV, the referee's walk, the tablet). The board
    is left as it was found for the next screens."""
    from playwright.sync_api import expect

    api = page.context.request
    log = api.get(board.url + "/api/state").json()["log"]
    shot = max(entry["seq"] for entry in log if "shot" in entry["step"])
    post(api, board, "/api/referee/review-show",
         {"seen": api.get(board.url + "/api/state").json()["seq"], "seq": shot,
          "playing": False, "ms": 0, "speed": 1})
    for lang in ("en", "de"):
        for path in ("/", "/overlay"):
            page.goto(f"{board.url}{path}?lang={lang}")
            expect(page.locator("#review-mirror-words")).to_be_visible()
            for size, (w, h) in at_each_size([page], sizes, drawn):
                judge(page, lang, f"board {path} review shown {lang} {w}x{h}", problems)
                snap(page, f"walk-{size}-{lang}-review{path.replace('/', '-')}",
                     full_page=True)
        page.goto(f"{board.url}/referee?lang={lang}")
        page.locator(f'#log tr[data-seq="{shot}"] button[data-review]').click()
        expect(page.locator("#review")).to_be_visible()
        for size, (w, h) in at_each_size([page], sizes, drawn):
            page.locator("#review").scroll_into_view_if_needed()
            drawn(page)
            judge(page, lang, f"board /referee review open {lang} {w}x{h}", problems)
            snap(page, f"walk-{size}-{lang}-review-referee", full_page=True)
    post(api, board, "/api/referee/review-show",
         {"seq": None, "seen": api.get(board.url + "/api/state").json()["seq"]})
    for lang in ("en", "de"):  # every form and details box open (the log's raw steps aside)
        for path in ("/tablet", "/referee"):
            page.goto(f"{board.url}{path}?lang={lang}")
            page.wait_for_function("document.body.dataset.seq !== undefined")
            page.evaluate(OPEN_EVERY_DETAILS)
            for size, (w, h) in at_each_size([page], sizes, drawn):
                judge(page, lang, f"board {path} every details open {lang} {w}x{h}", problems,
                      skip=lambda text: text.startswith("{"))
                snap(page, f"walk-{size}-{lang}-details{path.replace('/', '-')}",
                     full_page=True)
    run = api.get(board.url + "/api/selftest").json()["run"]
    assert api.post(board.url + "/api/referee/selftest/start", data={"run": run}).ok
    try:
        for lang in ("en", "de"):
            for path in ("/", "/referee", "/tablet"):
                # (the pages ask after the walk all the time: the network is never idle)
                page.goto(f"{board.url}{path}?lang={lang}")
                expect(page.locator("#alerts .alert-selftest")).to_be_visible()
                if path == "/referee":
                    expect(page.locator("#st-walk")).to_be_visible()
                    expect(page.locator("#st-instruction")).not_to_be_empty()
                for size, (w, h) in at_each_size([page], sizes):
                    judge(page, lang, f"board {path} self-test running {lang} {w}x{h}",
                          problems)
                    snap(page, f"walk-{size}-{lang}-selftest{path.replace('/', '-')}",
                         full_page=True)
    finally:
        assert api.post(board.url + "/api/referee/selftest/stop", data={"run": run + 1}).ok


ROUND_CIRCLES = """() => [...document.querySelectorAll('.player')].map((panel) => {
  const inner = panel.getBoundingClientRect();
  const dots = [...panel.querySelectorAll('.round-dot')].map((d) => d.getBoundingClientRect());
  return { rows: new Set(dots.map((d) => Math.round(d.top))).size,
           inside: dots.every((d) => d.left >= inner.left && d.right <= inner.right) };
})"""


@pytest.mark.parametrize("size", ["tv", "tv-small", "tablet"])
def test_the_round_circles_stay_on_one_line_inside_the_panel_in_german(
    browser: Any, board: LiveServer, size: str
) -> None:
    """A German "Runden" with its five circles: the circles never wrap, never leave the card."""
    w, h = SIZES[size]
    page = browser.new_context(viewport={"width": w, "height": h}).new_page()
    for path in ("/", "/referee"):
        page.goto(f"{board.url}{path}?lang=de")
        page.wait_for_function("document.querySelectorAll('.round-dot').length >= 10")
        panels = page.evaluate(ROUND_CIRCLES)
        assert panels and all(p["rows"] == 1 and p["inside"] for p in panels), (path, panels)
    page.context.close()


OPEN_EVERY_DETAILS = "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"


@pytest.mark.parametrize("size", ["tablet", "tablet-portrait"])
def test_the_referee_pages_do_not_scroll_sideways_in_german_with_a_question_and_details_open(
    browser: Any, server: LiveServer, size: str
) -> None:
    """The referee page and the tablet on a tablet, both ways, in German with the long names:
    a full field's question open (its sentence names both players) and every details box
    open (the log's raw steps, the sensor audit's and the self-test's every cell, the
    tablet's forms): nothing pushes the page wider than the screen."""
    from playwright.sync_api import expect
    from tv_support import bigs_in_centre, german, wait_for

    w, h = SIZES[size]
    page = german(browser, server, "/referee", (w, h))
    api = page.context.request
    run = api.get(server.url + "/api/selftest").json()["run"]  # a kept sheet
    assert api.post(server.url + "/api/referee/selftest/start", data={"run": run}).ok
    assert api.post(server.url + "/api/referee/selftest/stop", data={"run": run + 1}).ok
    post(api, server, "/api/match/new", {"names": {"black": FIRST, "white": SECOND},
                                         "first": "black"})
    bigs_in_centre(api, server)
    step(api, server, {"correct": {"board": {"white.blue": 13}, "reason": "Zählfehler"}})
    seen = api.get(server.url + "/api/state").json()["seq"]
    assert api.post(server.url + "/api/board/lay-out", data={"seq": seen}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "ready")
    # the first player's skitt fills the second player's blue: the referee is asked
    assert api.post(server.url + "/api/board/place", data={"field": "white.blue"}).ok
    wait_for(api, server, lambda s: s["tracker"]["mode"] == "question")
    problems: list[str] = []
    for path, question in (("/referee", "#question"), ("/tablet", "#sec-question")):
        page.goto(f"{server.url}{path}?lang=de")
        expect(page.locator(f"{question} .question-text")).to_contain_text(SECOND)
        page.evaluate(OPEN_EVERY_DETAILS)
        if path == "/referee":
            expect(page.locator("#audit-summary")).not_to_have_text("Spielprotokoll wird "
                                                                    "gelesen…")
        settled(page)
        width = page.evaluate("[document.documentElement.scrollWidth, "
                              "document.documentElement.clientWidth]")
        if width[0] > width[1]:
            problems.append(f"{path} {w}x{h}: scrolls {width[0] - width[1]} px sideways")
        seen = look(page)
        for a, b in seen["overlaps"]:
            problems.append(f"{path} {w}x{h}: {a!r} is drawn over {b!r}")
        # (the log's raw step behind "Einzelheiten" is the step as stored, JSON on purpose)
        words = [text for text in seen["texts"] if not text.startswith("{")]
        for text in untranslated(words, [FIRST, SECOND, "Zählfehler"]):
            problems.append(f"{path} {w}x{h}: English on a German page: {text}")
        snap(page, f"walk-question-details-{size}-de{path.replace('/', '-')}", full_page=True)
    page.context.close()
    assert not problems, "\n".join(problems)
