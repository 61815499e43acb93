"""The field changes during a Swiss tournament: late entries, drops and swaps, each kept in
the field's log with its reason and refused when decided on an old picture."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hub_app_support import tournament_of
from hub_support import play_game, play_round

from hub.field_changes import (
    drop_player,
    late_entry,
    swap_players,
)
from hub.store import HubStore
from hub.tournament import StaleChange, Tournament, TournamentError
from scorekeeper.clock import FakeClock


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Tournament]:
    with tournament_of(tmp_path, ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")) as t:
        t.set_system("swiss")
        t.set_swiss_rounds(3)
        yield t


def seq(t: Tournament) -> int:
    return t.store.field_version()


def test_the_organiser_can_choose_swiss_pairing_for_a_small_field(hub: Tournament) -> None:
    assert hub.system == "swiss"
    hub.pair_next_round()
    with pytest.raises(TournamentError, match="fixed once the first round is paired"):
        hub.set_system("round_robin")


def test_a_late_entry_with_a_bye_starts_with_one_game_won_and_is_paired_next(
        hub: Tournament) -> None:
    hub.pair_next_round()
    play_round(hub)
    late_entry(hub, "Gus", credit="bye", reason="arrived late", seq=seq(hub))
    line = next(s for s in hub.standings() if s.player == "Gus")
    assert (line.played, line.won, line.byes) == (1, 1, 1)
    round2 = hub.pair_next_round()
    assert any("Gus" in p.players() for p in round2)
    assert not any(p.is_bye and p.black == "Gus" for p in round2)  # at most one bye
    (change,) = [c for c in hub.store.field_changes() if c.kind == "late_entry"]
    assert (change.words, change.reason) == ("Gus entered late, with a bye in round 1",
                                             "arrived late")


def test_a_late_entry_with_zero_starts_with_nothing(hub: Tournament) -> None:
    hub.pair_next_round()
    late_entry(hub, "Gus", credit="zero", reason="arrived late", seq=seq(hub))
    line = next(s for s in hub.standings() if s.player == "Gus")
    assert (line.played, line.won) == (0, 0)


def test_registering_after_round_one_points_to_a_late_entry(hub: Tournament) -> None:
    hub.pair_next_round()
    with pytest.raises(TournamentError, match="enter them as a late entry"):
        hub.add_player("Gus")


def test_a_dropped_player_is_never_paired_again_and_their_games_still_count(
        hub: Tournament) -> None:
    hub.pair_next_round()
    play_round(hub)
    beaten_by_ann = next(p for p in hub.store.pairings(1) if p.black == "Ann").white
    drop_player(hub, beaten_by_ann, reason="had to leave", seq=seq(hub))
    round2 = hub.pair_next_round()
    assert all(beaten_by_ann not in p.players() for p in round2)
    table = {s.player: s for s in hub.standings()}
    assert table[beaten_by_ann].dropped and table[beaten_by_ann].played == 1
    assert table["Ann"].won == 1


def test_a_player_cannot_drop_in_the_middle_of_their_game(hub: Tournament) -> None:
    hub.pair_next_round()
    with pytest.raises(TournamentError, match="drops between rounds"):
        drop_player(hub, "Ann", reason="ill", seq=seq(hub))


def test_a_change_decided_on_an_old_picture_is_refused_with_what_changed(
        hub: Tournament) -> None:
    hub.pair_next_round()
    play_round(hub)
    seen = seq(hub)
    drop_player(hub, "Fay", reason="left", seq=seen)
    with pytest.raises(StaleChange, match=r"changed since you looked \(Fay dropped out after "
                       r"round 1\); nothing was changed"):
        late_entry(hub, "Gus", credit="zero", reason="late", seq=seen)
    assert "Gus" not in hub.store.players()


def test_a_swap_puts_two_players_in_each_others_seats_before_the_round_starts(
        hub: Tournament) -> None:
    hub.pair_next_round()
    play_round(hub)
    round2 = hub.pair_next_round()
    a, b = round2[0].white, round2[1].white
    assert a is not None and b is not None
    met = {p.players() for p in hub.store.pairings(1)}
    after = swap_players(hub, 2, a, b, reason="club request", seq=seq(hub),
                         accept_rematch=True)
    assert after[0].white == b and after[1].white == a
    assert after[0].board == round2[0].board  # the table keeps its board
    words = hub.store.field_changes()[-1].words
    assert words.startswith(f"{a} and {b} changed seats in round 2")
    assert ("rematch" in words) == any(p.players() in met for p in after[:2])


def test_a_swap_making_a_rematch_is_refused_unless_accepted(hub: Tournament) -> None:
    hub.pair_next_round()
    play_round(hub)
    round1 = hub.store.pairings(1)
    round2 = hub.pair_next_round()
    # put Ann's round-1 opponent at Ann's table in round 2
    old_opponent = next(p for p in round1 if "Ann" in p.players()).players() - {"Ann"}
    (opponent,) = old_opponent
    ann_seat = next(p for p in round2 if "Ann" in p.players())
    (partner,) = ann_seat.players() - {"Ann"}
    with pytest.raises(TournamentError, match="met in round 1 already: accept the rematch"):
        swap_players(hub, 2, partner, opponent, reason="x", seq=seq(hub))
    assert hub.store.pairings(2) == round2  # nothing changed


def test_a_swap_is_refused_once_a_game_of_the_round_has_a_result(hub: Tournament) -> None:
    round1 = hub.pair_next_round()
    first, second = round1[0], round1[1]
    hub.assign_board(1, 1, "b1")
    play_game(hub, "b1", 1, (first.black, first.white), True)
    with pytest.raises(TournamentError, match="has a result"):
        swap_players(hub, 1, first.white, second.white, reason="x", seq=seq(hub),
                     accept_rematch=True)


def test_a_round_robin_field_is_fixed(tmp_path: Path) -> None:
    store = HubStore(tmp_path / "rr.db")
    t = Tournament(store, FakeClock(1.0))
    for name in ("Ann", "Ben", "Cat", "Dan"):
        t.add_player(name)
    t.pair_next_round()
    with pytest.raises(TournamentError, match="round robin's field is fixed"):
        late_entry(t, "Gus", credit="zero", reason="late", seq=t.store.field_version())
    store.close()


def test_a_swap_is_refused_once_a_board_has_started_the_game(hub: Tournament) -> None:
    round1 = hub.pair_next_round()
    first, second = round1[0], round1[1]
    hub.store.set_board_status("b1", True, at=1.0)
    hub.store.set_board_state("b1", {"match_id": 7, "seq": 2, "names": {
        "black": first.black, "white": first.white}, "state": {"phase": "playing"}}, at=1.0)
    with pytest.raises(TournamentError, match="has started on board b1"):
        swap_players(hub, 1, first.white, second.white, reason="x", seq=seq(hub),
                     accept_rematch=True)


def test_only_the_newest_round_can_be_swapped(hub: Tournament) -> None:
    hub.pair_next_round()
    play_round(hub)
    hub.pair_next_round()
    with pytest.raises(TournamentError, match=r"only the newest round \(2\) can change"):
        swap_players(hub, 1, "Ann", "Ben", reason="x", seq=seq(hub))


def test_a_late_entry_must_say_what_they_start_with(hub: Tournament) -> None:
    hub.pair_next_round()
    with pytest.raises(TournamentError, match="a bye's worth"):
        late_entry(hub, "Gus", credit="half", reason="x", seq=seq(hub))


def test_a_late_entry_bye_is_their_one_bye_of_the_tournament(tmp_path: Path) -> None:
    # five players: someone sits out each round; the late entry already had a bye's worth
    store = HubStore(tmp_path / "odd.db")
    t = Tournament(store, FakeClock(1.0))
    t.set_system("swiss")
    for name in ("Ann", "Ben", "Cat", "Dan"):
        t.add_player(name)
    t.set_swiss_rounds(3)
    t.pair_next_round()
    play_round(t)
    late_entry(t, "Gus", credit="bye", reason="late", seq=t.store.field_version())
    for _ in range(2):
        number = len(t.store.round_numbers()) + 1
        t.pair_next_round()
        (bye,) = [p for p in t.store.pairings(number) if p.is_bye]
        assert bye.black != "Gus"
        play_round(t)
    store.close()
