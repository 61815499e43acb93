"""The hub stopped for longer than the broker's queue for it: no result is lost.

The broker here caps the hub's queue at a few events (``max_queued_bytes``, like the shipped
configuration but tiny), so it drops most of what the boards publish while the hub is away.
The boards finish their games and start the next ones meanwhile, so the hub sees no gap in
any current match; it must still learn, from each board's state, how far the earlier game
went and ask for the rest.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mqtt_broker import Broker
from mqtt_sim import SimBoard, wait_until
from mqtt_tournament_support import PLANS, HubUnderTest

from tournament_wire.wire import settings_from_url

pytestmark = pytest.mark.mqtt

BOARDS = 12


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    queue = ["max_queued_messages 1000000", "max_queued_bytes 60000"]  # skitter.conf, tiny
    broker = Broker(tmp_path / "broker", extra=queue)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


def test_every_result_is_recorded_after_the_hub_was_away_longer_than_its_queue(
    tmp_path: Path, broker: Broker
) -> None:
    settings = settings_from_url(broker.url)
    boards = [SimBoard(f"board-{i}", tmp_path / "boards", settings) for i in range(BOARDS)]
    path = tmp_path / "hub" / "hub.db"
    hub = HubUnderTest(path, broker.url)
    try:
        for b in boards:
            b.link.start()
        names = [f"Player {i:02d}" for i in range(2 * BOARDS)]
        for name in names:
            hub.tournament.add_player(name)
        pairings = [p for p in hub.tournament.pair_next_round([b.board_id for b in boards])
                    if not p.is_bye]
        first = []
        for i, (board, p) in enumerate(zip(boards, pairings, strict=True)):
            first.append(board.new_match({"black": p.black, "white": p.white or ""},
                                         PLANS[i % len(PLANS)]))
            board.play_next()
        wait_until(lambda: all(hub.store.seqs(b.board_id, m) for b, m in
                               zip(boards, first, strict=True)), what="first steps at the hub")
        hub.close()  # the hub is away; its session at the broker keeps a tiny queue

        while any(b.play_next() for b in boards):
            pass
        for b in boards:  # every board starts its next game before the hub is back
            b.new_match({"black": "Next A", "white": "Next B"}, PLANS[0])
            b.play_next()
        for b, m in zip(boards, first, strict=True):
            wait_until(lambda b=b, m=m: b.link.acked(m) == b.store.event_count(m),
                       what="the boards' events at the broker")
        assert "dropped" in broker.log_path.read_text(), "the broker must have dropped events"

        hub = HubUnderTest(path, broker.url)
        wait_until(lambda: not hub.tournament.round_open(1), timeout=40,
                   what="every result of round 1 recorded")
        for b, m in zip(boards, first, strict=True):
            assert hub.has_all_events_of(b, m), b.board_id
        assert len(hub.store.games()) == BOARDS
    finally:
        hub.close()
        for b in boards:
            b.close()
