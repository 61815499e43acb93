"""The overlay's card is written once (``web_common/static/parts``) and served inside both the
board's stream overlay and the hub's table overlay, in the page's language."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from web_common.page_parts import PARTS, with_parts

pytestmark = pytest.mark.unit

CARD = (PARTS / "overlay-card.html").read_text(encoding="utf-8").rstrip("\n")


def test_a_part_comment_is_replaced_by_the_part() -> None:
    assert with_parts("<body>\n<!-- part: overlay-card -->\n</body>") == (
        f"<body>\n{CARD}\n</body>")


def test_the_board_overlay_serves_the_card(client: TestClient) -> None:
    page = client.get("/overlay")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert page.headers["cache-control"] == "no-cache"
    assert CARD in page.text and "<!-- part:" not in page.text


def test_the_hub_overlay_serves_the_card_in_its_language(hub_client: TestClient) -> None:
    english = hub_client.get("/overlay?table=1").text
    assert CARD in english and "<!-- part:" not in english
    german = hub_client.get("/overlay?table=1&lang=de").text
    assert 'aria-label="ist dran"' in german and "<!-- part:" not in german


def test_the_board_overlay_is_served_in_the_pages_language(client: TestClient) -> None:
    """A German stream reads the overlay in German: its words, its ``lang`` and the catalog
    its script words the round and the turn from (as every other page is served)."""
    german = client.get("/overlay?lang=de")
    assert '<html lang="de">' in german.text and 'aria-label="ist dran"' in german.text
    assert 'id="skitter-words"' in german.text
    assert german.headers["vary"] == "Accept-Language"
    by_browser = client.get("/overlay", headers={"Accept-Language": "de-DE,de;q=0.9"})
    assert '<html lang="de">' in by_browser.text
    assert '<html lang="en">' in client.get("/overlay").text
