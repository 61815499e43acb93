"""The pages load their scripts as ES modules (issue 26, item 5; the hub's, issue 41): each
page has one ``<script type="module">``, every file imports what it uses from the file that
makes it, and no file leaves a global for another to find (no reliance on script order). One
DOM module (``dom.js``: ``h``, ``svg``, ``$``, ``toast``) builds every element, and the player
panel's markup is made once (``player-panel.js``). The hub's modules import the board's from
``/shared/`` as they are: no bundle.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import LiveServer, live_server, settled

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "web" / "static"
HUB_STATIC = ROOT / "hub" / "static"
COMMON = ROOT / "web_common" / "static"
"""Both apps' modules: the board serves them beside its own under /static/, the hub at
/shared/."""
PAGES = sorted(STATIC.glob("*.html"))
HUB_PAGES = sorted(HUB_STATIC.glob("*.html"))
MODULES = sorted([*STATIC.glob("*.js"), *COMMON.glob("*.js")])
HUB_MODULES = sorted(HUB_STATIC.glob("*.js"))
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.I)
IMPORT = re.compile(r'^import\s*(?:\{([^}]*)\}\s*from\s*)?"(\./|/shared/)([\w.-]+)";', re.M)
ANY_IMPORT = re.compile(r"^import\b", re.M)
EXPORTED = re.compile(r"^export\s+(?:async\s+)?(?:function|const|let|class)\s+([\w$]+)", re.M)
ADDRESSES = ["/", "/tablet", "/referee", "/board", "/stats", "/overlay", "/selftest/sheet"]
GLOBALS = ["Common", "Skitter", "Referee", "Review", "Question", "Overlay", "toast", "$", "h",
           "t", "nt", "renderPlayers", "renderEffects", "boardOptions", "drawBoard", "send",
           "S", "amendRed", "setupNewMatch", "profile"]


def test_every_page_script_is_a_module() -> None:
    found = []
    for page in PAGES + HUB_PAGES:
        for attrs in SCRIPT_TAG.findall(page.read_text(encoding="utf-8")):
            src = re.search(r'src="([^"]+)"', attrs)
            if src and src.group(1).startswith("/static/vendor/"):
                continue  # a library's own build (uPlot), not a page script
            if 'type="module"' not in attrs:
                found.append(f"{page.name}: <script{attrs}>")
    assert found == []
    assert all(len(re.findall(r'type="module"', p.read_text(encoding="utf-8"))) == 1
               for p in PAGES + HUB_PAGES)


def _beside(module: Path, name: str) -> Path:
    """The file ``./name`` names from ``module``: a hub module's folder is its own; the board's
    /static/ is its own folder and the common one, served as one."""
    if module.parent == HUB_STATIC:
        return HUB_STATIC / name
    return STATIC / name if (STATIC / name).exists() else COMMON / name


def test_every_import_names_an_export_of_an_existing_file_and_is_used() -> None:
    """A board module imports from beside it (``./``); a hub module from beside it or the
    board's from ``/shared/`` (as the hub serves them)."""
    exports = {m: set(EXPORTED.findall(m.read_text(encoding="utf-8")))
               for m in MODULES + HUB_MODULES}
    wrong = []
    for module in MODULES + HUB_MODULES:
        text = module.read_text(encoding="utf-8")
        code = IMPORT.sub("", text).replace("...", " ")  # a spread is a use
        if len(ANY_IMPORT.findall(text)) != len(IMPORT.findall(text)):
            wrong.append(f"{module.name}: an import of another shape or from elsewhere")
        for names, where, name_of_file in IMPORT.findall(text):
            if where == "/shared/" and module.parent != HUB_STATIC:
                wrong.append(f"{module.name}: only the hub's modules import from /shared/")
            source = (COMMON / name_of_file if where == "/shared/"
                      else _beside(module, name_of_file))
            if source not in exports:
                wrong.append(f"{module.name}: no file {where}{name_of_file}")
                continue
            for part in filter(None, (n.strip() for n in names.split(","))):
                name, _, local = (x.strip() for x in part.partition(" as "))
                if name not in exports[source]:
                    wrong.append(f"{module.name}: {source.name} exports no {name}")
                if not re.search(rf"(?<![\w.$]){re.escape(local or name)}(?![\w$])", code):
                    wrong.append(f"{module.name}: {local or name} is imported, never used")
    assert wrong == []


def test_one_dom_module_and_one_player_panel() -> None:
    """Elements come from ``h``/``svg``, the toast and ``$`` from dom.js; no page holds the
    player panel's inner markup (player-panel.js builds it)."""
    copies = [
        f"{m.name}: {line.strip()}"
        for m in MODULES if m.name != "dom.js"
        for line in m.read_text(encoding="utf-8").splitlines()
        if re.search(r"document\.createElement(NS)?\(|function toast\b|const \$ =|<template", line)
    ]
    assert copies == []
    assert [p.name for p in PAGES if 'class="pname"' in p.read_text(encoding="utf-8")] == []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("modules")) as s:
        yield s


@pytest.mark.browser
@pytest.mark.parametrize("address", ADDRESSES)
def test_no_page_leaves_a_global_for_another_file(browser: Any, server: LiveServer,
                                                   address: str) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + address)
    page.wait_for_function("document.body.dataset.seq !== undefined"
                           " || document.readyState === 'complete'")
    settled(page)
    # an element's id is a name on window too (the toast's box): only scripts' names count
    left = page.evaluate(
        "(names) => names.filter((n) => n in window && !(window[n] instanceof Element))", GLOBALS)
    modules = page.evaluate(
        "[...document.scripts].filter((s) => s.src && !s.src.includes('/vendor/'))"
        ".map((s) => s.type)")
    page.close()
    assert errors == []
    assert left == []
    assert modules == ["module"]


@pytest.fixture(scope="module")
def hub_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    from browser_support import serving
    from hub_app_support import QuietSender

    from hub.app import Hub, create_hub_app
    from hub.store import HubStore
    from hub.tournament import Tournament
    from scorekeeper.clock import FakeClock
    from web_common.pin import PinStore

    tmp = tmp_path_factory.mktemp("hub-modules")
    clock = FakeClock(1_700_000_000.0)
    tournament = Tournament(HubStore(tmp / "hub.db"), clock)
    pins = PinStore(tmp / "pin")
    pins.set("1357")
    for name in ("Ann", "Bob"):
        tournament.add_player(name)
    tournament.pair_next_round(["board-1"])
    try:
        hub = Hub(tournament, QuietSender(), pins, clock)
        with serving(lambda url: create_hub_app(hub)) as url:
            yield url
    finally:
        tournament.store.close()


HUB_GLOBALS = ["Common", "Overlay", "HubField", "HubOverlay", "Bracket", "renderBoards",
               "said", "saidOr", "signed", "resultWords", "act", "snap", "referee", "$", "h",
               "t", "watchForms", "drawBracket"]


@pytest.mark.browser
@pytest.mark.parametrize("address, drawn", [
    ("/", "document.body.dataset.version !== undefined && document.body.dataset.ratings"),
    ("/bracket", "document.body.dataset.loaded === 'yes'"),
    ("/overlay?board=board-1", "document.body.dataset.version !== undefined"),
    ("/overlay/standings", "document.body.dataset.version !== undefined")])
def test_the_hub_pages_run_from_modules_and_leave_no_global(
    browser: Any, hub_url: str, address: str, drawn: str,
) -> None:
    """Each hub page loads one module, which imports the rest (the board's from
    ``/shared/``); the page is drawn from the live state without an error, and no script
    leaves a name on ``window`` for another."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(hub_url + address)
    page.wait_for_function(drawn)
    settled(page)
    left = page.evaluate(
        "(names) => names.filter((n) => n in window && !(window[n] instanceof Element))",
        HUB_GLOBALS)
    modules = page.evaluate("[...document.scripts].filter((s) => s.src).map((s) => s.type)")
    page.close()
    assert errors == []
    assert left == []
    assert modules == ["module"]


@pytest.mark.browser
def test_the_tablet_shows_a_hit_on_red_choice_in_the_servers_words(
    browser: Any, server: LiveServer,
) -> None:
    from playwright.sync_api import expect
    from tv_support import logged_in, state, step

    with logged_in(browser, server) as api:
        st = state(api, server)["state"]
        for _ in range(2):
            if st.get("must_place_big"):
                step(api, server, {"shot": {"by": st["turn"], "big": "placed"}})
                st = state(api, server)["state"]
        by = st["turn"]
        target = f"{'white' if by == 'black' else 'black'}.red"
        step(api, server, {"correct": {"board": {target: 2}, "reason": "set up Hit on Red"}})
        after = step(api, server, {"shot": {"by": by, "delta": {target: 1}}})
        said = after["words"]["red_choices"][by]
        assert after["state"]["pending"]["red"], after["state"]["pending"]
        context = browser.new_context(storage_state=api.storage_state())
        tablet = context.new_page()
        tablet.goto(server.url + "/tablet")
        buttons = tablet.locator(f'#red-choices button[data-player="{by}"]')
        expect(buttons.first).to_have_text(said["advance"])
        expect(tablet.locator('#red-choices button[data-choice="back"]').first).to_have_text(
            said["back"])
        assert " sets " in said["back"]
        context.close()
