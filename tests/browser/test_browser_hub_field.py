"""The tournament page's field (issue 27, items 3 to 5), in headless Chromium: two referees in
two browser contexts change the field; a change decided on an old picture is refused in
words and the form being filled in is kept; a swap, the standings' tie-breaks, the knockout
on the page and the bracket's own printable page, at the screens people use."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import SIZES, at_every_size, is_touch, require_chromium, snap
from hub_app_support import served_hub, tournament_of
from hub_support import play_round

from hub.app import Hub

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]
PIN = "2580"
PLAYERS = ("Anna", "Ben", "Cleo", "Dev", "Esme", "Farid")


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[tuple[str, Hub]]:
    """Six players, Swiss, two rounds; round 1 played."""
    require_chromium()
    with tournament_of(tmp_path, ()) as t:
        t.set_system("swiss")
        for name in PLAYERS:
            t.add_player(name)
        t.set_swiss_rounds(2)
        t.pair_next_round()
        play_round(t)
        with served_hub(t, tmp_path, PIN) as served:
            yield served


def referee_at(browser: Any, url: str, size: tuple[int, int]) -> Any:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                              has_touch=is_touch(size))
    assert ctx.request.post(url + "/api/referee/login", data={"pin": PIN}).ok
    page = ctx.new_page()
    page.goto(url + "/")
    page.wait_for_function("document.body.dataset.version !== undefined")
    page.locator("#late-form").wait_for(state="visible")
    return page


def no_sideways_page(page: Any) -> None:
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_a_late_entry_decided_before_another_referees_drop_is_refused_in_words_and_kept(
        hub: tuple[str, Hub], browser: Any) -> None:
    from playwright.sync_api import expect

    url, h = hub
    first = referee_at(browser, url, SIZES["tv-small"])
    second = referee_at(browser, url, SIZES["phone"])
    first.fill("#late-name", "Gus")
    first.select_option("#late-credit", "zero")
    first.fill("#late-reason", "came on the late train")
    # meanwhile the other referee drops Farid
    second.select_option("#drop-player", "Farid")
    second.fill("#drop-reason", "feeling unwell")
    second.click("#drop-form button")
    expect(first.locator("#standings")).to_contain_text("Farid (dropped out)")
    # the first referee's entries survived the redraw
    assert first.input_value("#late-name") == "Gus"
    assert first.input_value("#late-reason") == "came on the late train"
    first.click("#late-form button")
    refusal = first.locator("#late-form .refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text("the tournament changed since you looked (Farid dropped "
                                    "out after round 1)")
    expect(refusal).to_contain_text("Your entries are kept")
    assert first.input_value("#late-name") == "Gus"
    assert "Gus" not in h.tournament.store.players()
    snap(first, "hub-field-stale-1280")
    first.click("#late-form button")  # now decided on the tournament as it is
    expect(first.locator("#standings")).to_contain_text("Gus")
    expect(refusal).to_be_hidden()
    expect(first.locator("#field-log")).to_contain_text("came on the late train")
    assert first.input_value("#late-name") == ""
    expect(second.locator("#field-log")).to_contain_text("Gus entered late, with no games won")
    snap(second, "hub-field-log-390", full_page=True)
    no_sideways_page(second)


def test_a_swap_from_the_page_and_a_refused_one_in_words(hub: tuple[str, Hub],
                                                        browser: Any) -> None:
    from playwright.sync_api import expect

    url, h = hub
    round2 = h.tournament.pair_next_round()
    h.changed()
    page = referee_at(browser, url, SIZES["phone"])
    a, b = round2[0].white, round2[1].white
    assert a and b
    expect(page.locator("#swap-round")).to_have_text("2")
    page.select_option("#swap-first", a)
    page.select_option("#swap-second", round2[0].black)  # their own opponent
    page.fill("#swap-reason", "asked to")
    page.click("#swap-form button")
    expect(page.locator("#swap-form .refusal")).to_contain_text(
        "play each other: changing their seats changes nothing")
    page.select_option("#swap-second", b)
    page.check("#swap-rematch")
    page.click("#swap-form button")
    expect(page.locator("#swap-form .refusal")).to_be_hidden()
    expect(page.locator("#field-log")).to_contain_text(f"{a} and {b} changed seats in round 2")
    assert h.tournament.store.pairings(2)[0].white == b
    snap(page, "hub-field-swap-390")
    no_sideways_page(page)


@pytest.mark.parametrize("size", ["tv-small", "phone"])
def test_the_standings_name_the_tie_breaks_in_words(hub: tuple[str, Hub], browser: Any,
                                                    size: str) -> None:
    url, _ = hub
    page = referee_at(browser, url, SIZES[size])
    headers = page.locator("#standings thead th").all_inner_texts()
    assert "Opponents' wins" in headers
    note = page.inner_text("#tie-breaks")
    assert "Buchholz" in note and "won against each other" in note
    assert "round difference" in note and "points difference" in note
    rows = page.locator("#standings tbody tr").count()
    assert rows == len(PLAYERS)
    page.locator("#standings").scroll_into_view_if_needed()
    snap(page, f"hub-standings-{size}")
    no_sideways_page(page)


def test_the_knockout_starts_from_the_page_and_its_bracket_prints_on_white(
        hub: tuple[str, Hub], browser: Any) -> None:
    from playwright.sync_api import expect

    url, h = hub
    page = referee_at(browser, url, SIZES["tv-small"])
    expect(page.locator("#knockout-blocked")).to_contain_text(
        "Not yet: the Swiss rounds are not over (1 of 2 played)")
    h.tournament.pair_next_round()
    play_round(h.tournament)
    h.changed()
    expect(page.locator("#knockout-start")).to_be_enabled()
    page.select_option("#knockout-size", "4")
    page.check("#knockout-third")
    page.click("#knockout-start")
    box = page.locator("#bracket-box")
    expect(box).to_be_visible()
    top = [s.player for s in h.tournament.standings()][:4]
    expect(box.locator(".stage").first).to_contain_text("Semi-finals")
    expect(box.locator(".game").first).to_contain_text(f"1.{top[0]}")
    expect(box.locator(".game").first).to_contain_text(f"4.{top[3]}")
    expect(box).to_contain_text("Played by the losers of the semi-finals.")
    box.scroll_into_view_if_needed()
    snap(page, "hub-bracket-1280")
    def bracket(size: tuple[int, int]) -> Any:
        paper = browser.new_context(viewport={"width": size[0], "height": size[1]}).new_page()
        paper.goto(url + "/bracket")
        paper.wait_for_function("document.body.dataset.loaded === 'yes'")
        return paper

    for name, _, paper in at_every_size(bracket):
        expect(paper.locator(".game")).to_have_count(4)
        expect(paper.locator(".rule")).to_contain_text("A knockout game needs a winner")
        assert paper.evaluate("getComputedStyle(document.body).backgroundColor") == \
            "rgb(255, 255, 255)"
        assert paper.evaluate("getComputedStyle(document.body).color") == "rgb(0, 0, 0)"
        no_sideways_page(paper)
        snap(paper, f"bracket-{name}")
    # the paper bracket in German (issue 29): the stages and the games to come in its words
    for w, hgt in ((1920, 1080), (1280, 720)):
        ctx = browser.new_context(viewport={"width": w, "height": hgt}, locale="de-DE")
        paper = ctx.new_page()
        paper.goto(url + "/bracket")
        paper.wait_for_function("document.body.dataset.loaded === 'yes'")
        expect(paper.locator("h1")).to_have_text("K.-o.-Runde")
        expect(paper.locator(".stage h3")).to_have_text(["Halbfinale", "Finale"])
        expect(paper.locator(".waits").last).to_have_text(
            "Es spielen: die Verlierer der Halbfinale.")
        expect(paper.locator(".waits").first).to_have_text(
            "Es spielen: die Sieger der Halbfinale 1 und 2.")
        no_sideways_page(paper)
        snap(paper, f"bracket-de-{w}x{hgt}")
        ctx.close()
    play_round(h.tournament)  # the better seeds win the semi-finals
    h.tournament.pair_next_round()
    paper = browser.new_context(viewport={"width": 1280, "height": 720}).new_page()
    paper.goto(url + "/bracket")
    paper.wait_for_function("document.body.dataset.loaded === 'yes'")
    expect(paper.locator(".game li.won")).to_have_count(2)
    expect(paper.locator(".stage").nth(1).locator(".game").first).to_contain_text(top[0])
    expect(paper.locator(".stage").nth(1).locator(".game").first).to_contain_text(top[1])
    expect(paper.locator(".stage").nth(1)).to_contain_text(top[2])  # third place: 3 v 4
    snap(paper, "bracket-final-1280")
    paper.wait_for_function("document.body.dataset.loaded === 'yes'")
    paper.emulate_media(media="print")
    assert paper.locator(".noprint").is_hidden()
    paper.pdf(path=str(Path(__file__).resolve().parents[2] / "test-artifacts"
                       / "bracket.pdf"), format="A4", landscape=True)


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[tuple[str, Hub]]:
    """Four players registered, nothing paired yet."""
    require_chromium()
    with tournament_of(tmp_path, PLAYERS[:4]) as t, served_hub(t, tmp_path, PIN) as served:
        yield served


def test_the_organiser_chooses_swiss_pairing_for_a_small_field_before_round_one(
        fresh: tuple[str, Hub], browser: Any) -> None:
    from playwright.sync_api import expect

    url, h = fresh
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    assert ctx.request.post(url + "/api/referee/login", data={"pin": PIN}).ok
    page = ctx.new_page()
    page.goto(url + "/")
    page.wait_for_function("document.body.dataset.version !== undefined")
    expect(page.locator("#system")).to_contain_text("Round robin")
    assert page.input_value("#system-choice") == "round_robin"
    page.select_option("#system-choice", "swiss")
    page.click("#system-form button")
    expect(page.locator("#system")).to_contain_text("Swiss pairing")
    expect(page.locator("#swiss")).to_be_visible()
    assert h.tournament.system == "swiss"
    page.click("#pair")
    expect(page.locator("#system-form")).to_be_hidden()
    expect(page.locator("#add-player")).to_be_hidden()  # a newcomer is a late entry now
    expect(page.locator("#late-form")).to_be_visible()
    page.locator("#field-box").scroll_into_view_if_needed()
    snap(page, "hub-field-1280")


SYSTEM_STALE = {
    "en": ("the tournament changed since you looked (Gus registered)", "Your entries are kept",
           "Swiss pairing"),
    "de": ("das Turnier hat sich geändert, seit du nachgesehen hast (Gus angemeldet)",
           "Deine Eingaben bleiben erhalten", "Schweizer System"),
}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_pairing_system_chosen_on_an_old_picture_is_refused_saying_what_changed_and_kept(
        fresh: tuple[str, Hub], browser: Any, lang: str) -> None:
    """Two referees before round 1: one registers a player while the other is choosing
    Swiss; the choice made on the old picture is refused under the form in words (who was
    registered), the choice stays through the redraw and the refusal, and a second press
    makes it on the tournament as it is now, the choice still shown."""
    from playwright.sync_api import expect

    url, h = fresh
    changed, kept, swiss = SYSTEM_STALE[lang]
    first = referee_at_start(browser, url, SIZES["tv-small"], lang)
    second = referee_at_start(browser, url, SIZES["phone"], lang)
    first.select_option("#system-choice", "swiss")
    # meanwhile the other referee registers a player
    second.fill("#player-name", "Gus")
    second.click("#add-player button")
    expect(first.locator("#players")).to_contain_text("Gus")
    assert first.input_value("#system-choice") == "swiss"  # not redrawn away
    first.click("#system-form button")
    refusal = first.locator("#system-form .refusal")
    expect(refusal).to_be_visible()
    expect(refusal).to_contain_text(changed)
    expect(refusal).to_contain_text(kept)
    assert first.input_value("#system-choice") == "swiss"
    assert h.tournament.system == "round_robin"
    snap(first, f"hub-system-stale-{lang}-1280")
    first.click("#system-form button")  # now decided on the tournament as it is
    expect(first.locator("#system")).to_contain_text(swiss)
    expect(refusal).to_be_hidden()
    assert h.tournament.system == "swiss"
    assert first.input_value("#system-choice") == "swiss"  # kept, not reset to the first
    expect(second.locator("#system")).to_contain_text(swiss)
    assert second.input_value("#system-choice") == "swiss"  # the other page follows
    no_sideways_page(second)


def referee_at_start(browser: Any, url: str, size: tuple[int, int], lang: str) -> Any:
    """The hub referee's page before round 1 (the pairing system still open), in the
    browser's language ``lang``."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]},
                              has_touch=is_touch(size), locale={"en": "en-GB", "de": "de-DE"}[lang])
    assert ctx.request.post(url + "/api/referee/login", data={"pin": PIN}).ok
    page = ctx.new_page()
    page.goto(url + "/")
    page.wait_for_function("document.body.dataset.version !== undefined")
    page.locator("#system-form").wait_for(state="visible")
    return page
