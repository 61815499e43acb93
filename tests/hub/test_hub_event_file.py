"""An event exported from one hub and imported into another: every game replayed by the
receiving hub's rules engine, the same event refused twice, a tampered file refused with a
message naming what is wrong, and nothing stored from a refused file."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hub_support import play_round

from hub.event_export import export_event
from hub.event_import import ImportRefused, import_event, read_event_file
from hub.ratings import ratings_view
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from skitter_cli.main import main

pytestmark = pytest.mark.unit

PLAYERS = ("Ann", "Bob", "Cid", "Dee")


def venue(path: Path, rounds: int = 2) -> Tournament:
    t = Tournament(HubStore(path), FakeClock(1_700_000_000.0))
    for name in PLAYERS:
        t.add_player(name)
    for number in range(rounds):
        t.pair_next_round()
        play_round(t, first_wins=number % 2 == 0)
    return t


@pytest.fixture
def exported(tmp_path: Path) -> dict[str, Any]:
    a = venue(tmp_path / "a.db")
    data = export_event(a, "Spring league, venue A")
    a.store.close()
    return data


@pytest.fixture
def other(tmp_path: Path):
    b = Tournament(HubStore(tmp_path / "b.db"), FakeClock(1_700_100_000.0))
    for name in PLAYERS:
        b.add_player(name)
    yield b
    b.store.close()


def test_round_trip_brings_every_game_with_its_steps_and_the_ratings_span_both(
    tmp_path: Path, exported: dict[str, Any], other: Tournament
) -> None:
    a = Tournament(HubStore(tmp_path / "a.db"), FakeClock(1_700_000_000.0))
    try:
        done = import_event(other, json.loads(json.dumps(exported)), at=1_700_100_100.0)
        assert (done.games, done.players, done.by_referee) == (4, 4, 0)
        assert done.name == "Spring league, venue A"
        event = a.event_id()
        for game in a.store.games():
            here = other.store.game(f"{event}/{game.board}", game.match_id)
            assert here is not None and here.result == game.result
            assert (here.round, here.table) == (None, None)  # not this hub's own rounds
            theirs = [(e.seq, e.event, e.state) for e in a.store.events(game.board,
                                                                         game.match_id)]
            mine = [(e.seq, e.event, e.state) for e in other.store.events(
                f"{event}/{game.board}", game.match_id)]
            assert mine == theirs
        assert ratings_view(other.store) == ratings_view(a.store)
        assert all(s.played == 0 for s in other.standings())  # its own rounds: none yet
        again = export_event(a)
        assert again["players"] == list(PLAYERS)
        assert [len(r["pairings"]) for r in again["rounds"]] == [2, 2]
    finally:
        a.store.close()


def test_the_same_event_is_refused_a_second_time(exported, other) -> None:
    import_event(other, exported, at=1.0)
    games = other.store.games()
    with pytest.raises(ImportRefused, match=r"event \w+ \(Spring league, venue A\) was "
                                            "imported already"):
        import_event(other, exported, at=2.0)
    assert other.store.games() == games


def test_a_hubs_own_event_is_refused(tmp_path: Path) -> None:
    a = venue(tmp_path / "a.db", rounds=1)
    try:
        with pytest.raises(ImportRefused, match="this hub's own event"):
            import_event(a, export_event(a), at=1.0)
    finally:
        a.store.close()


def tampered(data: dict[str, Any], change) -> dict[str, Any]:
    out = copy.deepcopy(data)
    change(out)
    return out


def _step_scored_more(data: dict[str, Any]) -> None:
    data["games"][1]["events"][2]["event"]["correct"]["score"] = {"black": 4, "white": 3}


def _winner_swapped(data: dict[str, Any]) -> None:
    r = data["games"][0]["result"]
    r["winner"] = r["white"] if r["winner"] == r["black"] else r["black"]


def _points_raised(data: dict[str, Any]) -> None:
    data["games"][2]["result"]["black_points"] += 3


def _step_dropped(data: dict[str, Any]) -> None:
    del data["games"][3]["events"][1]


def _last_step_dropped(data: dict[str, Any]) -> None:
    del data["games"][3]["events"][-1]


def _stranger(data: dict[str, Any]) -> None:
    data["rounds"][0]["pairings"][0]["white"] = "Zed"


def _repaired(data: dict[str, Any]) -> None:
    g = data["games"][0]
    g["table"] = 2 if g["table"] == 1 else 1


def _no_rules(data: dict[str, Any]) -> None:
    data["games"][0]["rules"] = None


@pytest.mark.parametrize(("change", "said"), [
    (_step_scored_more, r"games\[1\] \(board \S+, match \d+, \w+ v \w+\): the hub's replay"),
    (_winner_swapped, r"games\[0\] .*: the file says \w+ won .*, its steps give \w+ won"),
    (_points_raised, r"games\[2\] .*: the file says .*its steps give"),
    (_step_dropped, r"games\[3\] .*: its steps are not numbered 1 to 3 in order"),
    (_last_step_dropped, r"games\[3\] .*the game is not over"),
    (_stranger, r"rounds\[0\]\.pairings\[0\]: 'Zed' is not among the file's players"),
    (_repaired, r"games\[0\] .*: round 1, table \d did not pair these players"),
    (_no_rules, r"games\[0\] .*: the board did not send the match's rules"),
])
def test_a_tampered_file_is_refused_naming_what_is_wrong_and_nothing_is_stored(
    exported, other, change, said
) -> None:
    with pytest.raises(ImportRefused, match=said):
        import_event(other, tampered(exported, change), at=1.0)
    assert other.store.games() == []


def test_a_file_that_is_not_an_exported_event_is_refused() -> None:
    with pytest.raises(ImportRefused, match="not a JSON file"):
        read_event_file("players: Ann, Bob")
    with pytest.raises(ImportRefused, match='no "format": "skitter-hub-event"'):
        read_event_file('{"players": []}')
    with pytest.raises(ImportRefused, match="version 2 of the event file"):
        read_event_file('{"format": "skitter-hub-event", "version": 2}')


def test_the_commands_round_trip_and_refuse_a_tampered_file(tmp_path: Path, capsys) -> None:
    venue(tmp_path / "a.db").store.close()
    out = tmp_path / "venue-a.json"
    assert main(["hub", "export", str(out), "--db", str(tmp_path / "a.db")]) == 0
    assert "4 players, 4 games" in capsys.readouterr().out
    bad = tmp_path / "venue-a-tampered.json"
    bad.write_text(json.dumps(tampered(json.loads(out.read_text()), _winner_swapped)))
    assert main(["hub", "import", str(bad), "--db", str(tmp_path / "b.db")]) == 2
    err = capsys.readouterr().err
    assert f"{bad} refused: games[0]" in err and "its steps give" in err
    assert main(["hub", "import", str(out), "--db", str(tmp_path / "b.db")]) == 0
    assert "imported: 4 games of 4 players" in capsys.readouterr().out
    assert main(["hub", "import", str(out), "--db", str(tmp_path / "b.db")]) == 2
    assert "was imported already" in capsys.readouterr().err
