"""A board's player names against the pairings: case and spaces do not count, anything else
is shown to the referee; a finished or abandoned game never goes unnoticed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hub_support import event, play_game, state

from hub.store import HubStore
from hub.tournament import Tournament
from hub.view import attention, boards_view
from scorekeeper.clock import FakeClock

pytestmark = pytest.mark.unit


@pytest.fixture
def tournament(tmp_path: Path) -> Iterator[Tournament]:
    store = HubStore(tmp_path / "hub.db")
    try:
        t = Tournament(store, FakeClock(5000.0))
        for name in ("Ann Lee", "Bob"):
            t.add_player(name)
        t.pair_next_round(["b1"])
        yield t
    finally:
        store.close()


def test_names_differing_only_in_case_and_spaces_find_their_pairing(tournament: Tournament) -> None:
    play_game(tournament, "b1", 1, ("  ann  LEE ", "bob"), black_wins=True)
    (game,) = tournament.store.games()
    assert (game.round, game.table) == (1, 1)
    assert (game.result.black, game.result.winner) == ("Ann Lee", "Ann Lee")
    assert not tournament.round_open(1)
    assert [s.won for s in tournament.standings() if s.player == "Ann Lee"] == [1]
    assert attention(tournament) == []


def test_a_finished_game_whose_names_match_no_pairing_is_shown_to_the_referee(
    tournament: Tournament,
) -> None:
    tournament.store.set_board_state("b1", {"match_id": 1, "seq": 4, "names":
                                     {"black": "Anne", "white": "Bob"}}, at=1.0)
    (card,) = boards_view(tournament)
    assert any(a["kind"] == "names" and "Anne" in a["message"] for a in card["alerts"])
    play_game(tournament, "b1", 1, ("Anne", "Bob"), black_wins=True)
    (alert,) = attention(tournament)
    assert alert["kind"] == "claim" and "Anne" in alert["message"]
    assert "no open pairing has these players" in alert["message"]
    assert tournament.store.games() == [] and tournament.round_open(1)


def test_a_game_left_without_a_result_while_its_pairing_waits_raises_an_alert(
    tournament: Tournament,
) -> None:
    tournament.receive(event("b1", 1, 1, state(score=(1, 0)), ("Ann Lee", "Bob")))
    tournament.store.set_board_state("b1", {"match_id": 1, "seq": 1}, at=1.0)
    assert attention(tournament) == []  # still the board's game
    tournament.store.set_board_state("b1", {"match_id": 2, "seq": 0}, at=2.0)
    (alert,) = attention(tournament)
    assert alert["kind"] == "no_result" and "without a result" in alert["message"]


def test_an_event_row_keeps_only_the_state_the_hub_reads(tournament: Tournament) -> None:
    full = {**state(score=(1, 0)), "board": {"black.red": 2}, "options": {"trio": False}}
    tournament.receive(event("b1", 1, 1, full, ("Ann Lee", "Bob")))
    (kept,) = tournament.store.events("b1", 1)
    assert "board" not in kept.state and "options" not in kept.state
    assert kept.state["score"] == {"black": 1, "white": 0}
