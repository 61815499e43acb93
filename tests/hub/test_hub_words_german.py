"""Issue 29: the hub's sentences and the tournament offer in the page's language.

The hub builds one view for all its pages, so each sentence it makes for a card or for the
referee carries its catalog key and arguments (``hub.said``) and each page
words it; the board's offer is made again in the language of the state asked for."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from test_tournament_offers import FORMAT, OFFER, on_writer

from hub import view
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from tournament_wire.offer import GameFormat
from web.table.table import Table
from web_common.i18n import language

GERMAN = language("de")


def worded(m: dict[str, Any]) -> str:
    """What hub-words.js ``said`` does, with the German catalog."""
    w = m["words"]
    if "plural" in w:
        return GERMAN.ngettext(w["id"], w["plural"], w["n"]).format(n=w["n"], **w["args"])
    return GERMAN.gettext(w["id"]).format(**w["args"])


@pytest.fixture
def t(tmp_path: Path) -> Iterator[Tournament]:
    store = HubStore(tmp_path / "hub.db")
    tournament = Tournament(store, FakeClock(1_700_000_000.0))
    for name in ("Ann", "Ben"):
        tournament.add_player(name)
    tournament.pair_next_round(["b1"])
    try:
        yield tournament
    finally:
        store.close()


def test_a_cards_alerts_carry_their_key_and_read_in_german(t: Tournament) -> None:
    t.store.set_board_status("b1", False, at=1.0)
    t.store.set_board_state("b1", {
        "match_id": 3, "seq": 4, "names": {"black": "Zoe", "white": "Ann"},
        "state": {"phase": "playing", "score": {"black": 0, "white": 0}}}, at=2.0)
    (card,) = view.boards_view(t, ["b1"])
    english = {a["kind"]: a["message"] for a in card["alerts"]}
    german = {a["kind"]: worded(a) for a in card["alerts"]}
    assert english["offline"] == "board offline (no link to the broker)"
    assert german["offline"] == "Brett offline (keine Verbindung zum Broker)"
    assert english["missing"] == "waiting for events 1 to 4"
    assert german["missing"] == "warte auf die Ereignisse 1 bis 4"
    assert german["names"].startswith("Die Spieler Zoe und Ann sind nicht die Paarung")
    assert card["seats"] == []


def test_a_refused_count_takes_the_plural_german_needs() -> None:
    entry = {"online": True, "state": {}}
    (one,) = view.board_alerts(entry, 0, (1, "bad seq"))
    (many,) = view.board_alerts(entry, 0, (3, "bad seq"))
    assert one["message"].startswith("1 message from this board refused")
    assert worded(one).startswith("1 Nachricht dieses Bretts abgelehnt")
    assert worded(many).startswith("3 Nachrichten dieses Bretts abgelehnt")
    assert worded(many).endswith("(die letzte: bad seq)")  # the board's reason as it came


def test_an_unnamed_side_is_a_seat_the_page_words_and_a_name_is_kept() -> None:
    entry = {"board": "b9", "online": True, "version": "0.4.0",
             "state": {"match_id": 1, "seq": 0, "names": {"black": "Jürgen"}, "state": {}}}

    class Store:
        def pairings(self, *a: Any) -> list[Any]:
            return []

        def refusals(self) -> dict[str, Any]:
            return {}

        def selftests(self) -> dict[str, Any]:
            return {}

        def boards(self, only: Any = None) -> list[dict[str, Any]]:
            return [entry]

        def contiguous_seq(self, board: str, match: int) -> int:
            return 0

        def commands(self, board: str, limit: int) -> list[Any]:
            return []

        def game(self, board: str, match: int) -> None:
            return None

        def latest_event(self, board: str, match: int) -> None:
            return None

    class T:
        store = Store()

    (card,) = view.boards_view(T(), ["b9"])  # type: ignore[arg-type]
    assert card["names"] == {"black": "Jürgen", "white": "Second player"}
    assert card["seats"] == ["white"]


def test_the_format_reads_in_german_with_its_plurals() -> None:
    assert FORMAT.words(GERMAN) == ("5 Punkte pro Runde, 1 gewonnene Runde entscheidet das "
                                    "Spiel, ohne Umdrehen")
    assert GameFormat(1, 3, True).words(GERMAN) == (
        "1 Punkt pro Runde, 3 gewonnene Runden entscheiden das Spiel, mit Umdrehen")
    assert GameFormat(7, 1, False, "trio").words(GERMAN) == "Trio auf 7 Punkte"


def test_the_offer_reads_in_the_language_of_the_state_asked_for(referee: TestClient) -> None:
    table: Table = referee.app.state.table  # type: ignore[attr-defined]
    assert on_writer(table, lambda: table.offer_game(OFFER)) is True
    english = referee.get("/api/state").json()["offered"]
    assert english["words"] == "Anna v Ben, round 2, table 3"
    german = referee.get("/api/state?lang=de").json()["offered"]
    assert german["words"] == "Anna gegen Ben, Runde 2, Tisch 3"
    assert german["format_words"] == FORMAT.words(GERMAN)
    assert {k: german[k] for k in ("id", "black", "white")} == {
        "id": OFFER.id, "black": "Anna", "white": "Ben"}



def test_the_hub_view_carries_the_format_in_every_language(tmp_path: Path) -> None:
    store = HubStore(tmp_path / "fmt.db")
    try:
        tournament = Tournament(store, FakeClock(1_700_000_000.0))
        tournament.set_game_format(GameFormat(5, 3, False))
        fmt = view.tournament_parts(tournament)["format"]  # what the page receives
        assert fmt is not None
        assert fmt["words_in"]["de"] == ("5 Punkte pro Runde, 3 gewonnene Runden entscheiden "
                                         "das Spiel, ohne Umdrehen")
        assert fmt["words_in"]["en"] == fmt["words"]
    finally:
        store.close()
