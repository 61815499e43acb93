"""The hub's offer of a tournament game: checked on the board like API input, started with one
tap from the tablet (names and format as offered, the pairing kept with the match), called
once, and the result found by the pairing's id; a game of another format is held."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hub_support import game_steps, real_events
from web_helpers import state

from hub import intake
from hub.store import HubStore
from hub.tournament import Tournament, TournamentError
from scorekeeper.clock import FakeClock
from scorekeeper.options import Rules
from tournament_wire import wire
from tournament_wire.offer import GameFormat, Offer, OfferError
from web.caller.sentences import next_game
from web.table.table import Table
from web.tournament.board_commands import BoardCommands

FORMAT = GameFormat(points_to_win_round=5, rounds_to_win_game=1)
OFFER = Offer("ab12cd34-2-3", 2, 3, "Anna", "Ben", FORMAT)


def offer_json(**change: Any) -> dict[str, Any]:
    return {**OFFER.to_json(), **change}


@pytest.mark.parametrize(("change", "words"), [
    ({"black": ""}, "offer.black: a player's name must be a non-empty text"),
    ({"white": "Ben\u202e"}, "offer.white"),
    ({"white": "x" * 41}, "offer.white: at most 40 characters"),
    ({"white": "anna"}, "the two players must be different people"),
    ({"id": "../x"}, "offer.id"),
    ({"round": 0}, "offer.round"),
    ({"table": True}, "offer.table"),
    ({"format": {**FORMAT.to_json(), "points_to_win_round": 0}},
     "offer.format.points_to_win_round"),
    ({"format": {**FORMAT.to_json(), "rounds_to_win_game": 21}},
     "offer.format.rounds_to_win_game"),
    ({"format": {**FORMAT.to_json(), "variant": "trio", "flipping": True}}, "Trio"),
    ({"format": {**FORMAT.to_json(), "pot": 3}}, "offer.format: unknown keys pot"),
])
def test_a_bad_offer_is_refused_naming_what_is_wrong(change: dict[str, Any],
                                                     words: str) -> None:
    with pytest.raises(OfferError) as refused:
        Offer.from_json(offer_json(**change))
    assert words in str(refused.value)


def test_an_offer_reads_back_as_sent_and_says_itself_in_words() -> None:
    assert Offer.from_json(wire.decode(wire.encode(OFFER.to_json()))) == OFFER
    assert OFFER.words() == "Anna v Ben, round 2, table 3"
    assert FORMAT.words() == "5 points a round, 1 round win takes the game, no flipping"
    assert next_game(OFFER.to_json(), "en").text == "Next: Anna v Ben, round 2, table 3"


class Published:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def publish(self, topic: str, payload: bytes, qos: int = 0) -> None:
        self.sent.append(wire.decode(payload))


def test_the_board_answers_a_bad_offer_with_a_refusal_and_changes_nothing() -> None:
    client, applied = Published(), []
    commands = BoardCommands(
        "table-1", client, wire.Topics("skitter", "table-1"),  # type: ignore[arg-type]
        on_command=lambda c: applied.append(c) or {}, current_match=lambda: 1,
        event_count=lambda m: 0, rewind=lambda m, a: None, changed=lambda: None,
        clock=lambda: 0.0)
    commands.run({"id": "c1", "kind": "offer", "offer": offer_json(black=7)})
    commands.run({"id": "c2", "kind": "offer", "offer": offer_json()})
    assert [(a["id"], a["ok"]) for a in client.sent] == [("c1", False), ("c2", True)]
    assert "offer.black" in client.sent[0]["message"]
    assert [c["offer"] for c in applied] == [OFFER]


def test_the_board_lets_an_offer_go_when_the_hub_takes_it_back(referee: TestClient) -> None:
    table: Table = referee.app.state.table  # type: ignore[attr-defined]
    assert on_writer(table, lambda: table.offer_game(OFFER)) is True
    assert on_writer(table, lambda: table.withdraw_offer("ab12cd34-2-4")) is False  # not held
    assert state(referee)["offered"]["words"] == "Anna v Ben, round 2, table 3"
    assert on_writer(table, lambda: table.withdraw_offer(OFFER.id)) is True
    assert state(referee)["offered"] is None
    assert referee.get("/api/caller/latest").json()["next"] is None


def test_the_board_refuses_a_withdraw_without_an_offer_id() -> None:
    client, applied = Published(), []
    commands = BoardCommands(
        "table-1", client, wire.Topics("skitter", "table-1"),  # type: ignore[arg-type]
        on_command=lambda c: applied.append(c) or {}, current_match=lambda: 1,
        event_count=lambda m: 0, rewind=lambda m, a: None, changed=lambda: None,
        clock=lambda: 0.0)
    commands.run({"id": "c1", "kind": "withdraw", "offer": {"id": OFFER.id}})
    commands.run({"id": "c2", "kind": "withdraw", "offer": OFFER.id})
    assert [(a["id"], a["ok"]) for a in client.sent] == [("c1", False), ("c2", True)]
    assert client.sent[0]["message"].startswith("offer: expected 1-64 letters")
    assert [c["offer"] for c in applied] == [OFFER.id]


def on_writer(table: Table, fn: Any) -> Any:
    return table.writer.submit(fn).result(5)


def test_the_tablet_starts_the_offered_game_with_one_tap(referee: TestClient) -> None:
    table: Table = referee.app.state.table  # type: ignore[attr-defined]
    assert on_writer(table, lambda: table.offer_game(OFFER)) is True
    assert on_writer(table, lambda: table.offer_game(OFFER)) is False  # offered again: no news
    seen = state(referee)
    assert seen["offered"]["words"] == "Anna v Ben, round 2, table 3"
    assert seen["offered"]["format_words"] == FORMAT.words()
    latest = referee.get("/api/caller/latest").json()
    assert latest["next"]["text"] == "Next: Anna v Ben, round 2, table 3"

    started = referee.post("/api/match/offered", json={
        "seq": seen["seq"], "boot": seen["boot"], "offer": OFFER.id})
    assert started.status_code == 200, started.text
    now = started.json()
    assert now["names"] == {"black": "Anna", "white": "Ben"}
    assert now["offered"] is None and now["pairing"] == OFFER.ref()
    assert now["state"]["rules"]["rounds_to_win_game"] == 1
    stored = table.store.load(table.match_id)
    assert stored.meta["pairing"] == OFFER.ref()
    assert referee.get("/api/caller/latest").json()["next"] is None
    # The match in play is that game: the hub offering it again changes nothing.
    assert on_writer(table, lambda: table.offer_game(OFFER)) is False

    # A second tablet, still showing the offer, taps Start: refused, saying what changed.
    again = referee.post("/api/match/offered", json={
        "seq": seen["seq"], "boot": seen["boot"], "offer": OFFER.id})
    assert again.status_code == 409
    assert again.json()["meanwhile"] == [
        f"the match in play is now Anna v Ben (match {table.match_id})"]


def test_a_start_of_an_offer_the_hub_replaced_is_refused_in_words(referee: TestClient) -> None:
    table: Table = referee.app.state.table  # type: ignore[attr-defined]
    on_writer(table, lambda: table.offer_game(OFFER))
    seen = state(referee)
    other = Offer("ab12cd34-2-1", 2, 1, "Cleo", "Dev", FORMAT)
    on_writer(table, lambda: table.offer_game(other))
    refused = referee.post("/api/match/offered", json={
        "seq": state(referee)["seq"], "boot": seen["boot"], "offer": OFFER.id})
    assert refused.status_code == 409
    assert refused.json()["meanwhile"] == [
        "the hub now offers Cleo v Dev, round 2, table 1 instead"]
    assert state(referee)["match_id"] == seen["match_id"]


# -- the hub ------------------------------------------------------------------------------------


@pytest.fixture
def tournament(tmp_path: Any) -> Tournament:
    t = Tournament(HubStore(tmp_path / "hub.db"), FakeClock(1_700_000_000.0))
    t.set_game_format(FORMAT)
    for name in ("Anna", "Ben", "Cleo", "Dev"):
        t.add_player(name)
    return t


def offered_game(t: Tournament, board: str, match: int, offer: Offer, *,
                 rules: Rules | None = None, black_wins: bool = True) -> None:
    """A board plays ``offer`` and publishes its events with the pairing's id."""
    rules = rules or FORMAT.rules()
    for ev in real_events(board, match, (offer.black, offer.white), game_steps(black_wins),
                          rules=rules):
        t.receive(intake.event(board, {
            "id": ev.id, "match_id": match, "seq": ev.seq, "at": ev.at, "event": ev.event,
            "state": ev.state, "names": ev.names, "rules": ev.rules, "setup": ev.setup,
            "pairing": offer.ref()}))


def test_a_result_attaches_to_its_pairing_by_id(tournament: Tournament) -> None:
    t = tournament
    t.pair_next_round(["b1", "b2"])
    offers = dict(t.open_offers())
    assert set(offers) == {"b1", "b2"}
    offered_game(t, "b1", 7, offers["b1"])
    (game,) = t.store.games()
    assert (game.round, game.table) == (1, offers["b1"].table)
    assert [b for b, _ in t.open_offers()] == ["b2"]


def test_a_game_of_another_format_is_held_for_the_referee(tournament: Tournament) -> None:
    t = tournament
    t.pair_next_round(["b1", "b2"])
    offer = dict(t.open_offers())["b1"]
    offered_game(t, "b1", 7, offer, rules=Rules(points_to_win_round=5, rounds_to_win_game=1,
                                                 flipping=True))
    assert not t.store.games()
    (claim,) = t.store.claims()
    assert (claim.round, claim.table) == (1, offer.table)
    assert claim.why == ("it was played to 5 points a round, 1 round win takes the game, "
                         "with flipping, but the tournament plays 5 points a round, 1 round "
                         "win takes the game, no flipping")


def test_a_game_offered_by_another_tournament_does_not_count(tournament: Tournament) -> None:
    t = tournament
    t.pair_next_round(["b1", "b2"])
    offer = dict(t.open_offers())["b1"]
    stranger = Offer("ffffffff-1-1", 1, offer.table, offer.black, offer.white, FORMAT)
    offered_game(t, "b1", 7, stranger)
    assert not t.store.games()
    assert "which is no game of this tournament" in t.store.claims()[0].why


def test_the_format_is_fixed_once_round_one_is_paired(tournament: Tournament) -> None:
    tournament.pair_next_round()
    with pytest.raises(TournamentError, match="the format is fixed once round 1 is paired"):
        tournament.set_game_format(GameFormat())


def test_a_board_event_with_a_bad_pairing_is_refused() -> None:
    ev = real_events("b1", 1, ("Anna", "Ben"), game_steps(True))[0]
    payload = {"id": ev.id, "match_id": 1, "seq": 1, "at": ev.at, "event": ev.event,
               "state": ev.state, "names": ev.names, "pairing": {"id": "x", "round": -1,
                                                                  "table": 1}}
    with pytest.raises(wire.WireError, match="pairing.round"):
        intake.event("b1", payload)


def test_a_board_that_comes_back_online_is_offered_its_game_again(
    tournament: Tournament,
) -> None:
    from hub.link import HubLink

    t = tournament
    t.pair_next_round(["b1", "b2"])
    link = HubLink(wire.settings_from_url("mqtt://127.0.0.1:1"), t)
    link.connected = True  # as if connected: what it publishes is kept as a command
    link.handle("skitter/b2/status", wire.encode({"board_id": "b2", "online": True}))
    (sent,) = t.store.commands("b2")
    assert sent["command"]["kind"] == "offer"
    assert Offer.from_json(sent["command"]["offer"]) == dict(t.open_offers())["b2"]
    link.handle("skitter/b1/status", wire.encode({"board_id": "b1", "online": False}))
    assert t.store.commands("b1") == []
