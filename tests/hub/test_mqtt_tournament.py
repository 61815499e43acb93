"""Eight boards, one hub, a real Mosquitto: the tournament survives a broker restart.

Boards drive real matches (``Match`` + ``MatchStore``) and publish through ``BoardLink``;
the hub listens through ``HubLink``. Whatever happens to the broker, the hub must end with
exactly the boards' events (none lost, none twice) and standings equal to the boards' results."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mqtt_broker import Broker, broker_fixture
from mqtt_sim import SimBoard, expected_result, wait_until
from mqtt_tournament_support import PLANS, HubUnderTest, play_round

from tournament_wire.wire import settings_from_url
from web.tournament.mqtt_outbox import Outbox

pytestmark = pytest.mark.mqtt


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from broker_fixture(tmp_path)


@pytest.fixture
def boards(tmp_path: Path, broker: Broker) -> Iterator[list[SimBoard]]:
    settings = settings_from_url(broker.url)
    made = [SimBoard(f"board-{i}", tmp_path / "boards", settings) for i in range(1, 9)]
    try:
        for b in made:
            b.link.start()
        yield made
    finally:
        for b in made:
            b.close()


@pytest.fixture
def tournament_hub(tmp_path: Path, broker: Broker) -> Iterator[HubUnderTest]:
    h = HubUnderTest(tmp_path / "hub" / "hub.db", broker.url)
    try:
        yield h
    finally:
        h.close()


def test_eight_boards_play_at_once_through_a_broker_restart_and_standings_match(
    tournament_hub: HubUnderTest, boards: list[SimBoard], broker: Broker
) -> None:
    for i in range(1, 17):
        tournament_hub.tournament.add_player(f"Player {i:02d}")
    wait_until(lambda: sum(b["online"] for b in tournament_hub.store.boards()) == 8,
               what="8 boards online")

    expected: dict[str, dict[str, int]] = {}

    def account(board: SimBoard, match_id: int) -> None:
        stored = board.store.load(match_id)
        plan = board.plan
        result = expected_result(stored.names, plan)
        for name in stored.names.values():
            line = expected.setdefault(name, dict.fromkeys(
                ("won", "rounds_won", "rounds_lost", "points_for", "points_against"), 0))
            other = next(n for n in stored.names.values() if n != name)
            line["won"] += result["winner"] == name
            line["rounds_won"] += result["rounds"][name]
            line["rounds_lost"] += result["rounds"][other]
            line["points_for"] += result["points"][name]
            line["points_against"] += result["points"][other]

    for round_number, restart in ((1, broker), (2, None)):
        matches = play_round(tournament_hub, boards, restart)
        for board, match_id in zip(boards, matches, strict=True):
            assert board.game_over, f"{board.board_id} finished its game"
            account(board, match_id)
        wait_until(
            lambda matches=matches: all(
                tournament_hub.has_all_events_of(b, m) for b, m in zip(boards, matches, strict=True)
            ),
            what=f"every event of round {round_number} at the hub",
        )
        wait_until(lambda: not tournament_hub.tournament.round_open(
                       len(tournament_hub.store.round_numbers())),
                   what="every result recorded")
        # Exactly the boards' events: none lost, none twice, same order and content.
        for board, match_id in zip(boards, matches, strict=True):
            mine = [(e.seq, e.source, e.body) for e in board.store.iter_events(match_id)]
            theirs = [(e.seq, e.source, dict(e.event))
                      for e in tournament_hub.store.events(board.board_id, match_id)]
            assert theirs == mine, board.board_id

    table = tournament_hub.tournament.standings()
    assert len(tournament_hub.store.games()) == 16
    got = {
        s.player: {"won": s.won, "rounds_won": s.rounds_won, "rounds_lost": s.rounds_lost,
                   "points_for": s.points_for, "points_against": s.points_against}
        for s in table
    }
    assert got == expected
    # ranked by games won, then opponents' wins (the later tie-breaks: test_hub_standings)
    keys = [(s.won, s.buchholz) for s in table]
    assert keys == sorted(keys, reverse=True)
    # Round 2 was paired Swiss on round 1's results: winners met winners, nobody met twice.
    first = {p.players() for p in tournament_hub.store.pairings(1)}
    assert not first & {p.players() for p in tournament_hub.store.pairings(2)}


def test_a_board_restarted_while_the_broker_was_down_resends_what_was_not_acknowledged(
    tournament_hub: HubUnderTest, boards: list[SimBoard], broker: Broker
) -> None:
    board = boards[0]
    match_id = board.new_match({"black": "Ann", "white": "Bob"}, PLANS[0])
    for _ in range(3):
        board.play_next()
    wait_until(lambda: board.link.acked(match_id) == 3, what="three events acknowledged")
    broker.stop()
    for _ in range(4):
        board.play_next()
    board.restart_link()  # paho's in-memory queue is gone; the outbox remembers seq 3
    outbox = Outbox(board.store.path.parent / "mqtt-outbox.db", board.board_id)
    assert outbox.acked() == {match_id: 3}
    outbox.close()
    broker.start()
    wait_until(lambda: tournament_hub.has_all_events_of(board, match_id), what="the missed events")
    assert tournament_hub.store.seqs(board.board_id, match_id) == list(range(1, 8))
    wait_until(lambda: board.link.acked(match_id) == 7, what="all seven acknowledged")


def test_a_hub_that_missed_events_asks_the_board_to_resend_them(
    tmp_path: Path, boards: list[SimBoard], broker: Broker
) -> None:
    board = boards[1]
    match_id = board.new_match({"black": "Cid", "white": "Dee"}, PLANS[1])
    for _ in range(5):
        board.play_next()
    wait_until(lambda: board.link.acked(match_id) == 5, what="events at the broker")
    # A hub that was never subscribed: it sees only the retained state (seq 5), no events.
    late = HubUnderTest(tmp_path / "late.db", broker.url, client_id="late-hub")
    try:
        wait_until(lambda: late.has_all_events_of(board, match_id), timeout=10,
                   what="events resent on the hub's request")
        assert late.store.seqs(board.board_id, match_id) == [1, 2, 3, 4, 5]
    finally:
        late.close()


def test_a_restarted_hub_keeps_its_tournament_and_catches_up_on_what_it_missed(
    tmp_path: Path, boards: list[SimBoard], broker: Broker
) -> None:
    path = tmp_path / "hub" / "restart.db"
    first = HubUnderTest(path, broker.url)
    board = boards[2]
    try:
        for name in ("Eve", "Fay"):
            first.tournament.add_player(name)
        first.tournament.pair_next_round([board.board_id])
        match_id = board.new_match({"black": "Eve", "white": "Fay"}, PLANS[3])
        for _ in range(3):
            board.play_next()
        wait_until(lambda: first.has_all_events_of(board, match_id), what="first events")
    finally:
        first.close()
    while board.play_next():
        pass  # the game ends while the hub is away
    again = HubUnderTest(path, broker.url)
    try:
        wait_until(lambda: again.has_all_events_of(board, match_id), what="events after restart")
        wait_until(lambda: len(again.store.games()) == 1, what="the result")
        assert again.store.players() == ["Eve", "Fay"]
        (line,) = [s for s in again.tournament.standings() if s.player == "Fay"]
        assert (line.won, line.rounds_won) == (1, 3)
    finally:
        again.close()
