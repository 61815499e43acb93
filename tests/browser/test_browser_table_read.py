"""Issue 43: what the people at the table read on the tablet, in both languages, at the
tablet's and the phone's sizes.

Each flow runs twice: on the tablet (its page turned from landscape to portrait where what
is read is looked at) and on the phone (a touch screen).

A tied shoot-off entered on a tablet lets the next values be entered on the same tablet; a
change refused because the match changed meanwhile says what changed in the page's language.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from browser_support import LiveServer, at_each_size, first_size, is_touch, screen_groups
from tv_support import german, one_server_per_module, post, snap, state, step

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

TABLETS = screen_groups({"1024x768": (1024, 768), "768x1024": (768, 1024),
                         "390x844": (390, 844)})
"""The tablet both ways round, and the phone."""

server, api = one_server_per_module("table-read")


def showing(page: Any, api: Any, server: LiveServer) -> None:
    """Wait until ``page`` shows the match as it is now (the server's seq)."""
    seq = state(api, server)["seq"]
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}")


def tablet_in(browser: Any, server: LiveServer, api: Any, size: tuple[int, int],
              lang: str) -> Any:
    """The tablet page at ``size`` in ``lang``, logged in, its script errors in ``errors``,
    once it shows the match as it is now."""
    page = german(browser, server, "/tablet", size) if lang == "de" else None
    if page is None:
        ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                                  has_touch=is_touch(size))
        assert ctx.request.post(server.url + "/api/referee/login",
                                data={"pin": server.pin}).ok
        page = ctx.new_page()
        page.goto(server.url + "/tablet")
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.wait_for_function("document.body.classList.contains('referee')"
                           " && document.body.dataset.seq !== undefined")
    showing(page, api, server)
    return page


def first(screens: str) -> tuple[int, int]:
    """The size a flow on ``screens`` (of :data:`TABLETS`) begins at."""
    return first_size(TABLETS[screens])


def set_shootoff(page: Any, black: int, white: int) -> None:
    """Step the shoot-off's values from what they show to ``black`` : ``white``."""
    for i, want in enumerate((black, white)):
        stepper = page.locator("#shootoff-steppers .stepper").nth(i)
        now = int(stepper.locator("output").inner_text())
        button = stepper.locator("button").nth(1 if want > now else 0)
        for _ in range(abs(want - now)):
            button.click()


def shootoff_match(api: Any, server: LiveServer) -> None:
    post(api, server, "/api/match/new",
         {"names": {"black": "Anna", "white": "Ben"}, "first": "shootoff"})


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("screens", list(TABLETS))
def test_a_tied_shoot_off_then_the_next_values_on_the_same_tablet(
    browser: Any, server: LiveServer, api: Any, screens: str, lang: str
) -> None:
    from playwright.sync_api import expect

    shootoff_match(api, server)
    page = tablet_in(browser, server, api, first(screens), lang)
    for _ in at_each_size([page], TABLETS[screens]):
        page.locator("#shootoff-send").scroll_into_view_if_needed()
        expect(page.locator("#sec-shootoff")).to_be_visible()
        expect(page.locator("#shootoff-send")).to_be_in_viewport()
    set_shootoff(page, 2, 2)
    page.locator("#shootoff-send").click()
    expect(page.locator("#toast")).to_contain_text(
        "shoot-off entered" if lang == "en" else "Stechen eingetragen")
    page.wait_for_function("document.querySelectorAll('#shootoff-steppers output')[0]"
                           ".value === '0'")
    set_shootoff(page, 4, 3)
    page.locator("#shootoff-send").click()
    page.wait_for_function("document.querySelector('#sec-shootoff').classList.contains('hidden')")
    st = state(api, server)["state"]
    assert st["phase"] == "playing" and st["turn"] == "black", st
    assert not page.locator("#sec-shootoff .conflict.stale").is_visible()
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("screens", list(TABLETS))
def test_a_shoot_off_overtaken_by_another_tablet_is_told_in_german(
    browser: Any, server: LiveServer, api: Any, screens: str
) -> None:
    from playwright.sync_api import expect

    shootoff_match(api, server)
    page = tablet_in(browser, server, api, first(screens), "de")
    set_shootoff(page, 2, 1)  # being filled in: it keeps the state it was begun on
    step(api, server, {"shootoff": {"black": 3, "white": 3}})  # another tablet, meanwhile
    showing(page, api, server)
    page.locator("#shootoff-send").click()
    note = page.locator("#sec-shootoff .conflict.stale")
    expect(note).to_be_visible()
    text = note.inner_text()
    assert "Stechen (3 gegen 3)" in text, text
    assert not re.search(r"\b(?:The|the|shoot-off|against|someone)\b", text), text
    for name, _ in at_each_size([page], TABLETS[screens]):
        note.scroll_into_view_if_needed()
        expect(note).to_be_in_viewport()
        snap(page, f"tablet-de-{name}-shootoff-409")
    # told what changed, the person sends their values again: against the match as it is
    page.locator("#shootoff-send").click()
    page.wait_for_function("document.querySelector('#sec-shootoff').classList.contains('hidden')")
    assert state(api, server)["state"]["phase"] == "playing"
    assert not page.errors, page.errors
    page.context.close()


def flipping_match(api: Any, server: LiveServer) -> None:
    """Anna v Ben with flipping, Anna first; both have placed their big skitts."""
    post(api, server, "/api/match/new", {"names": {"black": "Anna", "white": "Ben"},
                                         "first": "black", "flipping": True})
    for by in ("black", "white"):
        step(api, server, {"shot": {"by": by, "big": "placed"}})


def open_choices_match(api: Any, server: LiveServer) -> None:
    """Anna v Ben with flipping: Anna's third skitt on Ben's red clears it (Ben's blue blocked
    before), so Anna may still set Ben back (Hit on Red) and lift a blockade."""
    flipping_match(api, server)
    step(api, server, {"correct": {"board": {"white.red": 2}, "blocked": ["white.blue"],
                                   "score": {"black": 1, "white": 2}, "reason": "set-up"}})
    step(api, server, {"shot": {"by": "black", "delta": {"white.red": 1}}})
    pending = state(api, server)["state"]["pending"]
    assert pending["unblock"] and pending["unblock"]["player"] == "black", pending
    assert pending["red"] and pending["red"][0]["player"] == "black", pending


CLOSES = {
    "en": ("This correction cancels Anna's right to lift a blockade.",
           "This correction cancels Anna's Hit on Red choice (to set Ben back).",
           "Ending the turn cancels Anna's right to lift a blockade."),
    "de": ("Diese Korrektur streicht das Recht von Anna, eine Blockade aufzuheben.",
           "Diese Korrektur streicht die Wahl von Anna bei Treffer auf Rot (Ben zurücksetzen).",
           "Das Ende dieses Zugs streicht das Recht von Anna, eine Blockade aufzuheben."),
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("screens", list(TABLETS))
def test_a_step_that_costs_an_open_choice_says_so_before_it_is_sent(
    browser: Any, server: LiveServer, api: Any, screens: str, lang: str
) -> None:
    from playwright.sync_api import expect

    open_choices_match(api, server)
    page = tablet_in(browser, server, api, first(screens), lang)
    unblock, red, turn = CLOSES[lang]
    expect(page.locator("#turn-closes")).to_contain_text(turn)
    page.locator("#sec-correct summary").click()
    closes = page.locator("#corr-closes")
    expect(closes).to_be_visible()
    expect(closes).to_contain_text(unblock)
    expect(closes).to_contain_text(red)
    for name, _ in at_each_size([page], TABLETS[screens]):
        closes.scroll_into_view_if_needed()
        expect(closes).to_be_in_viewport()
        snap(page, f"tablet-{lang}-{name}-correction-closes")
    # once Anna has used her right and chosen, nothing is left to lose
    step(api, server, {"decide": {"by": "black", "unblock": "white.blue"}})
    step(api, server, {"decide": {"by": "black", "red": ["back"]}})
    showing(page, api, server)
    expect(closes).to_be_hidden()
    expect(page.locator("#turn-closes")).to_be_hidden()
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("screens", list(TABLETS))
def test_the_correction_conflict_shows_the_blockades_as_the_other_tablet_left_them(
    browser: Any, server: LiveServer, api: Any, screens: str
) -> None:
    from playwright.sync_api import expect

    flipping_match(api, server)
    page = tablet_in(browser, server, api, first(screens), "en")
    page.locator("#sec-correct summary").click()
    page.locator("#corr-score .stepper").first.locator("button").nth(1).click()  # Anna +1
    page.fill("#corr-reason", "a point missed")
    # meanwhile another tablet blocks Ben's red
    step(api, server, {"correct": {"blocked": ["white.red"], "reason": "blockade"}})
    showing(page, api, server)
    page.locator("#corr-send").click()
    for _ in at_each_size([page], TABLETS[screens]):
        page.locator("#corr-conflict").scroll_into_view_if_needed()
        expect(page.locator("#corr-conflict")).to_be_in_viewport()
    checked = page.evaluate("[...document.querySelectorAll('#corr-blocked input:checked')]"
                            ".map((i) => i.value)")
    assert checked == ["white.red"], checked
    assert page.locator("#corr-score output").first.inner_text() == "1"  # theirs stays
    page.locator("#corr-conflict-ok").click()
    expect(page.locator("#toast")).to_contain_text("correction applied")
    st = state(api, server)["state"]
    assert st["blocked"] == ["white.red"] and st["score"]["black"] == 1, st
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("screens", list(TABLETS))
def test_trio_says_at_the_choice_that_flipping_stays_off_and_the_start_reads_in_german(
    browser: Any, server: LiveServer, api: Any, screens: str
) -> None:
    from playwright.sync_api import expect

    post(api, server, "/api/match/new", {"names": {"black": "Anna", "white": "Ben"},
                                         "first": "black", "variant": "trio"})
    page = tablet_in(browser, server, api, first(screens), "de")
    page.locator("#sec-new summary").click()
    form = page.locator("#new-match")
    form.locator("select[name=flipping]").select_option("true")
    form.locator("select[name=variant]").select_option("trio")
    expect(page.locator("#new-trio-note")).to_have_text(
        "Trio hat keine Blockaden: Umdrehen bleibt aus.")
    for _ in at_each_size([page], TABLETS[screens]):
        page.locator("#new-trio-note").scroll_into_view_if_needed()
        expect(page.locator("#new-trio-note")).to_be_in_viewport()
    expect(form.locator("select[name=flipping]")).to_be_disabled()
    expect(form.locator("select[name=flipping]")).to_have_value("false")
    form.locator("#new-send").click()
    page.wait_for_function("!document.getElementById('new-confirm').classList.contains('hidden')"
                           " || document.getElementById('toast').textContent !== ''")
    if page.locator("#new-confirm-yes").is_visible():
        page.locator("#new-confirm-yes").click()
    toast = page.locator("#toast")
    expect(toast).to_have_text("neues Spiel begonnen")
    expect(toast).to_have_class(re.compile(r"\bok\b"))  # a success is never shown in red
    rules = state(api, server)["state"]["rules"]
    assert rules["variant"] == "trio" and rules["flipping"] is False, rules
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize(("lang", "said"), [("en", "Trio has no blockades"),
                                           ("de", "Trio hat keine Blockaden")])
def test_a_refusal_toast_on_the_tablet_has_no_rule_codes(
    browser: Any, server: LiveServer, api: Any, lang: str, said: str
) -> None:
    from playwright.sync_api import expect

    post(api, server, "/api/match/new", {"names": {"black": "Anna", "white": "Ben"},
                                         "first": "black", "variant": "trio"})
    page = tablet_in(browser, server, api, (768, 1024), lang)
    # a request the rules refuse with a code in its words (Trio and flipping, R17)
    page.evaluate("""async () => {
      const { send, drawn } = await import('/static/tablet-send.js');
      await send('/api/match/new', { names: { black: 'Anna', white: 'Ben' }, variant: 'trio',
        flipping: true, first: 'black' }, { seen: drawn() });
    }""")
    toast = page.locator("#toast")
    expect(toast).to_contain_text(said)
    assert not re.search(r"\bR\d{1,2}\b", toast.inner_text()), toast.inner_text()
    page.context.close()


def test_a_big_skitt_in_hand_reads_as_german_a_player_says(
    browser: Any, server: LiveServer, api: Any
) -> None:
    post(api, server, "/api/match/new", {"names": {"black": "Anna", "white": "Ben"},
                                         "first": "black"})
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(server.url + "/?lang=de")
    page.wait_for_selector("#board .spot-label")
    labels = page.eval_on_selector_all(  # a label's lines are its <tspan>s
        "#board .spot-label", "els => els.map(e => [...e.children].map(c => c.textContent)"
        ".join(' ') || e.textContent)")
    assert "großer Skitt von Anna: noch in der Hand" in labels, labels
    assert not any("Großer in Hand" in x for x in labels), labels
    page.context.close()
