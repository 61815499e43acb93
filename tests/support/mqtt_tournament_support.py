"""A hub under test against a real broker with simulated boards, and the game plans they play."""

from __future__ import annotations

from pathlib import Path

from mqtt_broker import Broker
from mqtt_sim import FAST_RECONNECT, SimBoard

from hub.link import HubLink
from hub.store import HubStore
from hub.tournament import Tournament
from scorekeeper.clock import FakeClock
from tournament_wire.wire import settings_from_url

PLANS = [
    [("black", 2), ("black", 3), ("black", 1)],
    [("white", 4), ("black", 0), ("white", 2), ("white", 3)],
    [("black", 1), ("white", 2), ("black", 3), ("white", 4), ("black", 0)],
    [("white", 0), ("white", 0), ("white", 4)],
    [("black", 4), ("white", 4), ("white", 1), ("black", 2), ("white", 3)],
    [("black", 3), ("white", 1), ("black", 4), ("black", 2)],
    [("white", 2), ("black", 3), ("black", 0), ("black", 1)],
    [("black", 0), ("black", 2), ("white", 4), ("black", 4)],
]


class HubUnderTest:
    def __init__(self, path: Path, url: str, client_id: str = "skitter-hub") -> None:
        self.tournament = Tournament(HubStore(path), FakeClock(1_700_000_000.0))
        self.store = self.tournament.store
        self.link = HubLink(settings_from_url(url), self.tournament, client_id=client_id,
                            reconnect_delay=FAST_RECONNECT)
        self.link.start()

    def close(self) -> None:
        self.link.stop()
        self.store.close()

    def has_all_events_of(self, board: SimBoard, match_id: int) -> bool:
        return self.store.contiguous_seq(board.board_id, match_id) == board.store.event_count(
            match_id
        )


def play_round(hub: HubUnderTest, boards: list[SimBoard], broker: Broker | None) -> list[int]:
    """Pair the next round onto the boards and play every game at once (interleaved)."""
    pairings = hub.tournament.pair_next_round([b.board_id for b in boards])
    games = [p for p in pairings if not p.is_bye]
    assert len(games) == len(boards)
    matches = []
    for i, (board, p) in enumerate(zip(boards, games, strict=True)):
        plan = PLANS[(i + len(hub.store.round_numbers())) % len(PLANS)]
        matches.append(board.new_match({"black": p.black, "white": p.white or ""}, plan))
    turn = 0
    while any(b.play_next() for b in [*boards]):
        turn += 1
        if broker is not None and turn == 4:
            broker.stop()  # boards go on scoring; their links queue what they cannot send
            assert not broker.running
        if broker is not None and turn == 8:
            broker.start()
    return matches
