"""The forecast of a round's end from the games' measured pace (issue 27, item 7)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hub_support import game_steps, real_events

from hub.forecast import OpenGame, forecast, round_end
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock

MIN = 60.0


def test_no_game_finished_yet_gives_no_forecast() -> None:
    assert round_end([], [OpenGame("b1", None)], now=0.0) is None


def test_a_game_under_way_needs_what_it_lacks_of_the_typical_length() -> None:
    # games took 20, 22 and 40 minutes: the typical one (the median) is 22
    lengths = [20 * MIN, 40 * MIN, 22 * MIN]
    assert round_end(lengths, [OpenGame("b1", started_at=1000 - 10 * MIN)], now=1000) == (
        1000 + 12 * MIN)


def test_games_waiting_for_one_board_are_played_one_after_the_other() -> None:
    games = [OpenGame("b1", None), OpenGame("b1", None), OpenGame("b2", None)]
    assert round_end([15 * MIN], games, now=0.0) == 30 * MIN


def test_a_game_longer_than_usual_is_taken_to_end_now() -> None:
    assert round_end([10 * MIN], [OpenGame("b1", started_at=0.0)], now=30 * MIN) == 30 * MIN


def test_a_game_on_no_board_takes_the_first_free_one() -> None:
    games = [OpenGame(None, None), OpenGame("b1", started_at=0.0)]
    assert round_end([10 * MIN], games, now=5 * MIN) == 15 * MIN


def test_the_hub_forecasts_the_open_round_from_its_finished_games(tmp_path: Path) -> None:
    clock = FakeClock(10_000.0)
    store = HubStore(tmp_path / "hub.db")
    t = Tournament(store, clock)
    for name in ("Ann", "Ben", "Cid", "Dee"):
        t.add_player(name)
    first, second = t.pair_next_round(["b1", "b2"])
    assert forecast(t) is None  # nothing measured yet
    events = real_events("b1", 1, (first.black, first.white or ""), game_steps(True))
    for i, ev in enumerate(events):
        clock.set(10_000.0 + i * 5 * MIN)  # received every 5 minutes: a 15-minute game
        t.receive(ev)
    store.set_board_status("b2", True, at=1.0)
    opening = real_events("b2", 1, (second.black, second.white or ""), game_steps(True))[0]
    clock.set(10_000.0 + 20 * MIN)
    t.receive(opening)
    store.set_board_state("b2", {"match_id": 1, "seq": 1, "names": dict(opening.names),
                                 "state": dict(opening.state)}, at=1.0)
    clock.set(10_000.0 + 24 * MIN)
    f = forecast(t)
    assert f is not None
    assert (f.round, f.games_left, f.minutes_per_game) == (1, 1, 15.0)
    assert f.ends_at == 10_000.0 + 35 * MIN  # began at 20, takes 15
    store.close()


pytestmark = pytest.mark.unit
"""Pure functions: part of the fast lane."""
