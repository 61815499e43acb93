"""A board's card on the hub page (issue 27, item 8): a normal moment is never a fault.
Putting the board back is a note, and a finished game that counted raises no alarm when the
board's next pairing is another."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hub_support import game_steps, real_events

from hub import view
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock


@pytest.fixture
def t(tmp_path: Path) -> Iterator[Tournament]:
    store = HubStore(tmp_path / "hub.db")
    tournament = Tournament(store, FakeClock(1_700_000_000.0))
    for name in ("Ann", "Ben", "Cid", "Dee"):
        tournament.add_player(name)
    tournament.set_swiss_rounds(2)
    tournament.pair_next_round(["b1", "b2"])
    for b in ("b1", "b2"):
        store.set_board_status(b, True, at=1.0)
    try:
        yield tournament
    finally:
        store.close()


def finish_round_one(t: Tournament) -> None:
    for p in t.store.pairings(1):
        events = real_events(p.board or "", 1, (p.black, p.white or ""), game_steps(True))
        for ev in events:
            t.receive(ev)
        last = events[-1]
        t.store.set_board_state(p.board or "", {
            "match_id": 1, "seq": last.seq, "names": dict(last.names),
            "state": dict(last.state),
            "alerts": [{"kind": "restore", "message": "Put back: take 1 skitt off the red"}]},
            at=2.0)


def card(t: Tournament, board: str) -> dict[str, object]:
    (c,) = view.boards_view(t, [board])
    return c


def test_putting_the_board_back_at_the_end_of_a_game_is_a_note_not_a_fault(
    t: Tournament,
) -> None:
    finish_round_one(t)
    c = card(t, "b1")
    assert c["alerts"] == []
    notes = c["notes"]
    assert isinstance(notes, list)
    assert any(n["message"].startswith("Put back") for n in notes)


def test_after_round_two_is_paired_no_card_raises_an_alarm_about_its_finished_game(
    t: Tournament,
) -> None:
    finish_round_one(t)
    t.pair_next_round(["b1", "b2"])
    for board in ("b1", "b2"):
        c = card(t, board)
        assert c["alerts"] == [], c["alerts"]
        nxt = next(p for p in t.store.pairings(2) if p.board == board)
        words = " ".join(n["message"] for n in c["notes"])  # type: ignore[attr-defined]
        assert "Game over: counted for round 1" in words
        assert f"Next on this board: {nxt.black} v {nxt.white}, round 2" in words


def test_a_game_under_way_with_other_players_than_paired_is_still_flagged(
    t: Tournament,
) -> None:
    t.store.set_board_state("b1", {
        "match_id": 3, "seq": 1, "names": {"black": "Zoe", "white": "Ann"},
        "state": {"phase": "playing", "score": {"black": 0, "white": 0}}}, at=2.0)
    kinds = [a["kind"] for a in card(t, "b1")["alerts"]]  # type: ignore[attr-defined]
    assert "names" in kinds
