"""A whole tournament as an organiser runs it: eight players, Swiss rounds, four boards.

The boards are real scoreboard tables (``web.table.table.Table``, their own match logs) on
the tournament link (``TableLink``) through a real Mosquitto; the hub is ``HubLink`` with its
tournament. The hub pairs each round and offers each board its game; every game is started
on the board from the offer (one tap: ``Table.start_offered``, what ``POST
/api/match/offered`` runs), so no name is ever typed on a board, and each result reaches the
standings by its pairing's id. One game is played to another format than the tournament's:
it is held for the hub's referee, with the reason, and does not count.

The second test is the tournament to its end: after round 1 a player drops and a late
entry joins with a bye; in round 2 one board breaks and the hub's referee enters its game
by hand; then the top 4 play a knockout, every game of it started from its offer and
verified by the hub's replay, to a champion.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mqtt_broker import Broker, broker_fixture
from mqtt_sim import RULES, Script, expected_result, wait_until
from mqtt_tournament_support import PLANS, HubUnderTest

from hub import decisions, field_changes
from hub.bracket import bracket_view, start_knockout
from hub.model import Pairing
from hub.offering import offer_games, settle_offer
from hub.tournament import StaleChange
from scorekeeper.clock import FakeClock
from scorekeeper.options import Rules
from scorekeeper.store import MatchStore
from tournament_wire.offer import GameFormat, Offer
from tournament_wire.wire import settings_from_url
from web.table.table import Stale, Table
from web.tournament.mqtt_table import TableLink

pytestmark = pytest.mark.mqtt

PLAYERS = ["Anna", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana"]
FORMAT = GameFormat(points_to_win_round=RULES.points_to_win_round,
                    rounds_to_win_game=RULES.rounds_to_win_game)


class Board:
    """One board at a table: its table, its link to the tournament, and the game it plays."""

    def __init__(self, board_id: str, root: Path, url: str) -> None:
        self.board_id = board_id
        clock = FakeClock(1_700_000_000.0)
        self.link = TableLink(board_id, settings_from_url(url))
        self.table = Table(MatchStore(root / board_id / "skitter.db"), clock=clock,
                           wall=clock, publish=self.link.published)
        self.link.start(self.table)
        self.script = Script(())

    def on_writer(self, fn: Any) -> Any:
        """As the board's API runs every change: on the table's writer thread."""
        return self.table.writer.submit(fn).result(10)

    def offered(self) -> Offer | None:
        return self.table.offered

    def shows(self, offer: Offer | None) -> bool:
        """The board's published state (what its pages show) holds ``offer``: the table
        takes an offer first and publishes it a moment later, on its writer thread."""
        shown = self.table.snapshot()["offered"]
        return offer is not None and shown is not None and shown["id"] == offer.id

    def start_offered(self, plan: Any) -> int:
        """The person at the table taps "Start" on the offered game (seq and boot as seen)."""
        shown = self.table.snapshot()
        offer = shown["offered"]
        assert offer is not None, f"{self.board_id} is offered a game"

        def start() -> None:
            self.table.check_boot(shown["boot"])
            self.table.check_seq(shown["seq"])
            self.table.start_offered(offer["id"])
        self.on_writer(start)
        self.script = Script(plan)
        return self.table.match_id

    def play_next(self) -> bool:
        step = self.script.next_event(self.table.match.state)
        if step is None:
            return False
        self.on_writer(lambda: self.table.apply_step(step, source="sensor"))
        return True

    def close(self) -> None:
        self.link.stop()
        self.table.close()


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    yield from broker_fixture(tmp_path)


@pytest.fixture
def hub(tmp_path: Path, broker: Broker) -> Iterator[HubUnderTest]:
    h = HubUnderTest(tmp_path / "hub" / "hub.db", broker.url)
    try:
        yield h
    finally:
        h.close()


@pytest.fixture
def boards(tmp_path: Path, broker: Broker) -> Iterator[list[Board]]:
    made: list[Board] = []
    try:
        for i in range(1, 5):
            made.append(Board(f"table-{i}", tmp_path / "boards", broker.url))
        yield made
    finally:
        for b in made:
            b.close()


def pair_and_offer(hub: HubUnderTest, boards: list[Board]) -> list[Offer]:
    """The organiser pairs the next round; each board is offered its game and shows it."""
    pairings = hub.tournament.pair_next_round([b.board_id for b in boards])
    return offered(hub, boards, pairings)


def offered(hub: HubUnderTest, boards: list[Board], pairings: list[Pairing]) -> list[Offer]:
    """The hub offers each board the game of ``pairings`` put on it; every board shows it."""
    pairings = [p for p in pairings if not p.is_bye]
    assert offer_games(hub.tournament, hub.link) == len(boards)
    wait_until(lambda: all(b.offered() is not None and b.offered().round == pairings[0].round
                           and b.shows(b.offered()) for b in boards),
               what="every board offered its game and showing it")
    offers = [b.offered() for b in boards]
    for board, pairing, offer in zip(boards, pairings, offers, strict=False):
        assert offer is not None and pairing.board == board.board_id
        assert (offer.black, offer.white, offer.table) == (pairing.black, pairing.white,
                                                           pairing.table)
        assert offer.format == FORMAT
        shown = board.table.snapshot()["offered"]
        assert shown["words"] == (f"{pairing.black} v {pairing.white}, round "
                                  f"{pairing.round}, table {pairing.table}")
    return [o for o in offers if o is not None]


def play_all(boards: list[Board]) -> None:
    while any([b.play_next() for b in boards]):
        pass


def test_eight_players_two_swiss_rounds_every_game_started_from_its_offer(
    hub: HubUnderTest, boards: list[Board]
) -> None:
    t = hub.tournament
    t.set_game_format(FORMAT)
    for name in PLAYERS:
        t.add_player(name)
    t.set_system("swiss")
    t.set_swiss_rounds(2)
    assert t.planned_rounds() == 2
    wait_until(lambda: sum(b["online"] for b in hub.store.boards()) == 4, what="4 boards online")

    expected: dict[str, dict[str, int]] = {
        p: dict.fromkeys(("won", "rounds_won", "points_for"), 0) for p in PLAYERS}

    def account(board: Board, match_id: int, plan: Any) -> None:
        names = board.table.store.load(match_id).names
        result = expected_result(names, plan)
        for name in names.values():
            expected[name]["won"] += result["winner"] == name
            expected[name]["rounds_won"] += result["rounds"][name]
            expected[name]["points_for"] += result["points"][name]

    for round_number in (1, 2):
        offers = pair_and_offer(hub, boards)
        wrong = boards[3] if round_number == 2 else None
        played: list[tuple[Board, int, Any]] = []
        for i, board in enumerate(boards):
            plan = PLANS[(i + round_number) % len(PLANS)]
            if board is wrong:
                # Someone at table 4 plays the offered players to a one-round game instead
                # of the tournament's format (a board's form left at a short game).
                offer = offers[i]
                board.on_writer(lambda b=board, o=offer: b.table.new_match(
                    Rules(rounds_to_win_game=1).to_json(), {}, o.names(),
                    {"pairing": o.ref()}))
                board.script = Script(plan)
                short = board.table.match_id
                continue
            played.append((board, board.start_offered(plan), plan))
        play_all(boards)

        # Every board's match is the offered game: names and format as the hub sent them.
        by_id = {o.id: o for o in offers}
        for board, match_id, _ in played:
            stored = board.table.store.load(match_id)
            offer = by_id[stored.meta["pairing"]["id"]]
            assert dict(stored.names) == offer.names()
            assert GameFormat.of_rules(stored.rules) == FORMAT
            assert board.table.offered is None
        if wrong is not None:
            wait_until(lambda w=wrong, m=short: hub.store.claim(w.board_id, m) is not None,
                       what="the short game held for the referee")
            claim = hub.store.claim(wrong.board_id, short)
            assert claim is not None and (claim.round, claim.table) == (2, offers[3].table)
            assert claim.why == ("it was played to 5 points a round, 1 round win takes the "
                                 "game, no flipping, but the tournament plays 5 points a "
                                 "round, 3 round wins take the game, no flipping")
            assert t.round_open(2), "the short game does not count"
            decisions.reject_claim(t, wrong.board_id, short, seq=claim.seq,
                                   reason="played to the wrong format; replay it")
            # The board still holds the offer: the game is played again, as offered.
            assert wrong.offered() is not None and wrong.offered().id == offers[3].id
            played.append((wrong, wrong.start_offered(PLANS[0]), PLANS[0]))
            play_all(boards)
        for board, match_id, plan in played:
            account(board, match_id, plan)
        wait_until(lambda n=round_number: not t.round_open(n),
                   what=f"every result of round {round_number} at the hub")
        games = {(g.round, g.table): g for g in hub.store.games()}
        for board, match_id, _ in played:
            game = next(g for g in games.values()
                        if (g.board, g.match_id) == (board.board_id, match_id))
            assert game.round == round_number

    standings = {s.player: {"won": s.won, "rounds_won": s.rounds_won,
                            "points_for": s.points_for} for s in t.standings()}
    assert standings == expected
    assert len(hub.store.games()) == 8
    assert not hub.store.claims()
    assert [d["action"] for d in hub.store.decisions()] == ["rejected"]
    # Round 2 was paired Swiss on round 1's results: nobody met twice.
    assert not {p.players() for p in hub.store.pairings(1)} & {
        p.players() for p in hub.store.pairings(2)}


def test_a_stale_start_of_the_offered_game_is_refused_in_words(
    hub: HubUnderTest, boards: list[Board]
) -> None:
    t = hub.tournament
    t.set_game_format(FORMAT)
    for name in PLAYERS[:2]:
        t.add_player(name)
    wait_until(lambda: sum(b["online"] for b in hub.store.boards()) == 4, what="boards online")
    t.pair_next_round([boards[0].board_id])
    offer_games(t, hub.link)
    board = boards[0]
    wait_until(lambda: board.shows(board.offered()), what="the offer shown")
    seen = board.table.snapshot()
    board.start_offered(PLANS[0])
    with pytest.raises(Stale):  # a second tablet, deciding on the picture before the start
        board.on_writer(lambda: board.table.check_seq(seen["seq"]))
    assert board.table.meanwhile(seen["seq"]) == [
        f"the match in play is now Anna v Ben (match {board.table.match_id})"]
    with pytest.raises(Stale, match="no game is offered now"):
        board.on_writer(lambda: board.table.start_offered(seen["offered"]["id"]))


LATE = "Ivy"


def winner_of(hub: HubUnderTest, board: Board, match_id: int) -> str | None:
    """The winner of a board's game as the hub recorded it."""
    return next(g.result.winner for g in hub.store.games()
                if (g.board, g.match_id) == (board.board_id, match_id))


def test_swiss_with_a_drop_a_late_entry_and_a_hand_entered_result_then_a_top_4_knockout(
    hub: HubUnderTest, boards: list[Board]
) -> None:
    t = hub.tournament
    t.set_game_format(FORMAT)
    for name in PLAYERS:
        t.add_player(name)
    t.set_system("swiss")
    t.set_swiss_rounds(2)
    wait_until(lambda: sum(b["online"] for b in hub.store.boards()) == 4, what="4 boards online")
    expected: dict[str, dict[str, int]] = {
        p: dict.fromkeys(("won", "rounds_won", "points_for"), 0) for p in [*PLAYERS, LATE]}
    started: dict[str, list[tuple[int, str]]] = {b.board_id: [] for b in boards}
    """Every match each board started: its id and the offer it was started from."""

    def play(on: list[Board], offers: list[Offer], first_plan: int) -> list[tuple[Board, int]]:
        games = []
        for i, (board, offer) in enumerate(zip(on, offers, strict=True)):
            plan = PLANS[(first_plan + i) % len(PLANS)]
            match_id = board.start_offered(plan)
            started[board.board_id].append((match_id, offer.id))
            games.append((board, match_id))
            names = board.table.store.load(match_id).names
            result = expected_result(names, plan)
            for name in names.values():
                expected[name]["won"] += result["winner"] == name
                expected[name]["rounds_won"] += result["rounds"][name]
                expected[name]["points_for"] += result["points"][name]
        play_all(on)
        return games

    def results_in(number: int) -> None:
        wait_until(lambda: not t.round_open(number),
                   what=f"every result of round {number} at the hub")

    # Round 1: every board plays its game.
    play(boards, pair_and_offer(hub, boards), 0)
    results_in(1)

    # Between rounds: one player drops out, one enters late with a bye for round 1.
    gone = t.standings()[-1].player
    seen = hub.store.field_version()
    field_changes.drop_player(t, gone, reason="had to leave", seq=seen)
    with pytest.raises(StaleChange, match=f"{gone} dropped out after round 1"):
        field_changes.late_entry(t, LATE, credit="bye", reason="arrived late", seq=seen)
    field_changes.late_entry(t, LATE, credit="bye", reason="arrived late",
                             seq=hub.store.field_version())
    expected[LATE]["won"] += 1

    # Round 2: table 4's board breaks once its game is offered; the game is played on paper
    # and the hub's referee enters it by hand. The board never plays it.
    offers = pair_and_offer(hub, boards)
    round_2 = hub.store.pairings(2)
    assert gone not in {name for p in round_2 for name in p.players()}
    assert LATE in {name for p in round_2 for name in p.players()}
    play(boards[:3], offers[:3], 3)
    broken = offers[3]
    wait_until(lambda: t.round_open(2) == [p for p in round_2 if p.table == broken.table],
               what="the three boards' results at the hub")
    decisions.enter_result(t, 2, broken.table, winner=broken.white, rounds=(1, 3),
                           points=(12, 15), reason="board table-4 broke; played on paper")
    settle_offer(t, hub.link, 2, broken.table)  # as the hub's API does after each decision
    # The broken board's tablet and TV stop offering a game that has its result.
    wait_until(lambda: boards[3].offered() is None
               and boards[3].table.snapshot()["offered"] is None,
               what="the settled game's offer withdrawn and no longer shown")
    for name, rounds, points, won in ((broken.black, 1, 12, 0), (broken.white, 3, 15, 1)):
        expected[name]["won"] += won
        expected[name]["rounds_won"] += rounds
        expected[name]["points_for"] += points
    results_in(2)

    standings = {s.player: {"won": s.won, "rounds_won": s.rounds_won,
                            "points_for": s.points_for} for s in t.standings()}
    assert standings == expected
    assert [s.player for s in t.standings() if s.dropped] == [gone]
    top4 = [s.player for s in t.standings() if not s.dropped][:4]

    # The knockout: the top 4 still in, with a third-place game, on the two boards that work.
    working = boards[:2]
    semis = start_knockout(t, 4, third_place=True, reason="", seq=hub.store.field_version(),
                           boards=[b.board_id for b in working])
    assert [(p.black, p.white) for p in semis] == [(top4[0], top4[3]), (top4[1], top4[2])]
    semi_games = play(working, offered(hub, working, semis), 5)
    results_in(3)
    finals = t.pair_next_round([b.board_id for b in working])
    winners = [winner_of(hub, b, m) for b, m in semi_games]
    assert {finals[0].black, finals[0].white} == set(winners)
    final_games = play(working, offered(hub, working, finals), 6)
    results_in(4)
    champion = winner_of(hub, *final_games[0])
    bracket = bracket_view(t)
    assert bracket is not None and bracket["champion"] == champion
    assert champion in winners
    assert t.can_pair_next() == f"the knockout is over: {champion} won the tournament"

    # Every result of a board came from a game started from its offer, verified by the
    # hub (none waits as a claim); the one entered by hand is the referee's.
    assert not hub.store.claims()
    assert [d["action"] for d in hub.store.decisions()] == ["entered"]
    assert len(hub.store.games()) == 4 + 4 + 2 + 2
    # No name was ever typed on a board: every match played on each board is an offered
    # game, its names and format as the hub sent them (the only other match is the one the
    # board opened with when switched on, never played).
    by_id = {t.pairing_id(p): p for p in hub.store.pairings()}
    for board in boards:
        ours = {m for m, _ in started[board.board_id]}
        others = [m for m in board.table.store.list_matches() if m["id"] not in ours]
        assert [(m["id"], m["events"]) for m in others] == [(1, 0)]
        assert len(ours) == {"table-1": 4, "table-2": 4, "table-3": 2, "table-4": 1}[
            board.board_id]
        for match_id, offer_id in started[board.board_id]:
            stored = board.table.store.load(match_id)
            assert stored.meta["pairing"]["id"] == offer_id
            pairing = by_id[offer_id]
            assert dict(stored.names) == {"black": pairing.black, "white": pairing.white}
            assert GameFormat.of_rules(stored.rules) == FORMAT
