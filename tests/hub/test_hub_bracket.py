"""The knockout stage after the Swiss rounds: the top players by standing, seeded 1 v N,
played on the boards like Swiss games; winners advance to a champion."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hub_app_support import tournament_of
from hub_support import play_game, play_round

from hub.bracket import bracket_view, start_blocked, start_knockout
from hub.decisions import enter_result
from hub.field_changes import drop_player, late_entry
from hub.tournament import Tournament, TournamentError

PLAYERS = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")


@pytest.fixture
def hub(tmp_path: Path) -> Iterator[Tournament]:
    with tournament_of(tmp_path, PLAYERS) as t:
        t.set_system("swiss")
        t.set_swiss_rounds(2)
        yield t


def swiss_played(t: Tournament) -> None:
    for _ in range(2):
        t.pair_next_round()
        play_round(t)


def seq(t: Tournament) -> int:
    return t.store.field_version()


def test_the_knockout_waits_for_the_end_of_the_swiss_rounds(hub: Tournament) -> None:
    assert start_blocked(hub, 4) == "play the Swiss rounds first"
    hub.pair_next_round()
    assert start_blocked(hub, 4) == "round 1 still has games without a result"
    play_round(hub)
    assert start_blocked(hub, 4) == "the Swiss rounds are not over (1 of 2 played)"
    with pytest.raises(TournamentError, match="cannot start the knockout"):
        start_knockout(hub, 4, third_place=False, reason="", seq=seq(hub))


def test_the_top_four_by_standing_are_seeded_one_v_four_and_two_v_three(
        hub: Tournament) -> None:
    swiss_played(hub)
    top = [s.player for s in hub.standings()][:4]
    games = start_knockout(hub, 4, third_place=False, reason="top 4", seq=seq(hub),
                           boards=["b1", "b2"])
    assert [(p.black, p.white, p.board) for p in games] == [
        (top[0], top[3], "b1"), (top[1], top[2], "b2")]
    assert hub.store.round_numbers()[-1] == (3, "knockout")


def test_a_dropped_player_is_not_seeded(hub: Tournament) -> None:
    hub.pair_next_round()
    play_round(hub)
    leader = hub.standings()[0].player
    drop_player(hub, leader, reason="left", seq=seq(hub))
    hub.pair_next_round()
    play_round(hub)
    start_knockout(hub, 4, third_place=False, reason="", seq=seq(hub))
    view = bracket_view(hub)
    assert view is not None and leader not in view["seeds"]


def test_winners_advance_to_the_final_and_the_third_place_game(hub: Tournament) -> None:
    swiss_played(hub)
    semis = start_knockout(hub, 4, third_place=True, reason="", seq=seq(hub))
    for p in semis:  # the better seed (first player) wins each semi-final
        hub.assign_board(3, p.table, f"b{p.table}")
        play_game(hub, f"b{p.table}", 300 + p.table, (p.black, p.white), True)
    final = hub.pair_next_round(["b1", "b2"])
    assert [(p.black, p.white) for p in final] == [
        (semis[0].black, semis[1].black), (semis[1].white, semis[0].white)]  # 3 v 4
    view = bracket_view(hub)
    assert view is not None
    assert [s["name"] for s in view["stages"]] == ["Semi-finals", "Final"]
    assert view["stages"][1]["games"][1]["third_place"] is True
    play_round(hub, first_wins=False)
    view = bracket_view(hub)
    assert view is not None and view["champion"] == semis[1].black
    assert hub.can_pair_next() == f"the knockout is over: {semis[1].black} won the tournament"


def test_a_knockout_game_without_a_winner_holds_the_next_stage(hub: Tournament) -> None:
    swiss_played(hub)
    semis = start_knockout(hub, 4, third_place=False, reason="", seq=seq(hub))
    enter_result(hub, 3, 1, winner=None, rounds=(1, 1), points=(5, 5), reason="cut short")
    hub.assign_board(3, 2, "b2")
    play_game(hub, "b2", 302, (semis[1].black, semis[1].white), True)
    blocked = hub.can_pair_next()
    assert blocked is not None
    assert "ended without a winner: a knockout game must have one" in blocked


def test_the_standings_stay_the_swiss_stages(hub: Tournament) -> None:
    swiss_played(hub)
    before = hub.standings()
    semis = start_knockout(hub, 4, third_place=False, reason="", seq=seq(hub))
    hub.assign_board(3, 1, "b1")
    play_game(hub, "b1", 301, (semis[0].black, semis[0].white), False)
    assert hub.standings() == before


def test_the_bracket_shows_the_games_still_to_come(hub: Tournament) -> None:
    swiss_played(hub)
    start_knockout(hub, 4, third_place=True, reason="", seq=seq(hub))
    view = bracket_view(hub)
    assert view is not None
    final, third = view["stages"][1]["games"]
    assert final["first"] is None and final["waits_for"] == "the winners of semi-finals 1 and 2"
    assert third["waits_for"] == "the losers of the semi-finals"
    assert view["stages"][0]["games"][0]["first_seed"] == 1


def test_a_whole_tournament_with_a_drop_a_late_entry_and_a_top_four_knockout(
        hub: Tournament) -> None:
    hub.set_swiss_rounds(3)
    hub.pair_next_round()
    play_round(hub)
    drop_player(hub, "Hal", reason="left early", seq=seq(hub))
    hub.pair_next_round()  # seven players: one bye
    assert sum(p.is_bye for p in hub.store.pairings(2)) == 1
    play_round(hub)
    late_entry(hub, "Ivy", credit="bye", reason="arrived", seq=seq(hub))
    hub.pair_next_round()  # eight again
    assert all("Hal" not in p.players() for p in hub.store.pairings(3))
    play_round(hub)
    start_knockout(hub, 4, third_place=True, reason="", seq=seq(hub))
    play_round(hub)  # the semi-finals
    hub.pair_next_round()
    play_round(hub)  # the final and the third-place game
    view = bracket_view(hub)
    assert view is not None and view["champion"] in PLAYERS
    assert hub.can_pair_next() == f"the knockout is over: {view['champion']} won the tournament"
    kinds = [c.kind for c in hub.store.field_changes()]
    assert kinds.count("late_entry") == kinds.count("dropped") == 1
