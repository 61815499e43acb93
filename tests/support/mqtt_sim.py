"""Simulated boards for the tournament tests: a real Match, a real MatchStore, a real BoardLink.

A board plays a scripted game: ``plan`` lists each round's winner and the loser's points.
Each round both big skitts are placed, a referee correction brings the winner to 4 points
(the loser to the planned points, two skitts on the winner's yellow target), and the winner's
third skitt there scores the fifth point. Round one also has a shot that is taken back.
So every kind of step the hub must follow happens: shots, corrections, undo, shoot-offs
(at 2–2 before the final round) and round ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import waiting

from scorekeeper.clock import FakeClock
from scorekeeper.fields import opponent
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.state import State
from scorekeeper.store import MatchStore
from tournament_wire.broker import MqttSettings
from web.tournament.mqtt_board import BoardLink

RULES = Rules(rounds_to_win_game=3)
FAST_RECONNECT = (0.1, 0.5)

Plan = Sequence[tuple[str, int]]
"""Per round: (winner colour, loser's points when the round ends)."""


def wait_until(condition: Callable[[], bool], timeout: float = 15.0, what: str = "") -> None:
    """Poll ``condition`` (it waits on network I/O, not on time itself) or fail."""
    waiting.wait_until(condition, what or str(condition), timeout=timeout, every=0.02)


def expected_result(names: Mapping[str, str], plan: Plan) -> dict[str, Any]:
    """What the board's game ends with: winner, round wins and points by player name."""
    wins = {"black": 0, "white": 0}
    points = {"black": 0, "white": 0}
    for winner, loser_points in plan:
        wins[winner] += 1
        points[winner] += 5
        points[opponent(winner)] += loser_points  # type: ignore[arg-type]
        if wins[winner] == RULES.rounds_to_win_game:
            break
    winner = max(wins, key=lambda p: wins[p])
    return {
        "winner": names[winner],
        "rounds": {names[p]: wins[p] for p in wins},
        "points": {names[p]: points[p] for p in points},
    }


class Script:
    """The steps of one scripted game (see the module's description), for any board: a
    simulated one here or a real table (``tests/test_tournament_whole.py``)."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.mistake = self.took_back = False

    def next_event(self, st: State) -> dict[str, Any] | None:
        """The scripted step for the position ``st``, or None when the game is over."""
        if st.phase == "game_over":
            return None
        if st.phase == "shootoff":
            return {"shootoff": {"black": 5, "white": 2}}
        winner, loser_points = self.plan[len(st.rounds)]
        loser = opponent(winner)  # type: ignore[arg-type]
        turn = st.turn
        assert turn is not None
        if st.big[turn] == "hand":
            return {"shot": {"by": turn, "big": "placed"}}
        if not self.took_back:
            if self.mistake:
                self.took_back = True
                return {"undo": True}
            self.mistake = True
            return {"shot": {"by": turn, "delta": {f"{opponent(turn)}.blue": 1}}}
        if st.score[winner] < 4 or st.turn != winner:
            return {
                "correct": {
                    "score": {winner: 4, loser: loser_points},
                    "board": {f"{loser}.yellow": 2},
                    "turn": winner,
                    "reason": "scripted position",
                }
            }
        return {"shot": {"by": winner, "delta": {f"{loser}.yellow": 1}}}


class SimBoard:
    """One board: its own data folder, match log, rules engine and tournament link."""

    def __init__(self, board_id: str, root: Path, settings: MqttSettings) -> None:
        self.board_id = board_id
        self.clock = FakeClock(1_700_000_000.0)
        self.store = MatchStore(root / board_id / "skitter.db")
        self.lock = threading.RLock()
        self.match_id: int | None = None
        self.match: Match | None = None
        self.plan: Plan = ()
        self.script = Script(())
        self.settings = settings
        self.link = self._new_link()

    def _new_link(self) -> BoardLink:
        return BoardLink(
            self.board_id,
            self.settings,
            self.store,
            current_match=lambda: self.match_id,
            on_command=self.command,
            clock=self.clock.now,
            reconnect_delay=FAST_RECONNECT,
        )

    def restart_link(self) -> None:
        """The board's program restarts: a new link, paho's queue forgotten."""
        self.link.stop()
        self.link = self._new_link()
        self.link.start()

    def close(self) -> None:
        self.link.stop()
        self.store.close()

    # Playing ---------------------------------------------------------------------------

    def new_match(self, names: Mapping[str, str], plan: Plan) -> int:
        with self.lock:
            setup = Setup(first="black")
            self.match_id = self.store.create_match(
                RULES.to_json(), setup.to_json(), dict(names), at=self.clock.advance(60)
            )
            self.match = Match(RULES, setup, dict(names))  # type: ignore[arg-type]
            self.plan = plan
            self.script = Script(plan)
        self.link.changed()
        return self.match_id

    def step(self, event: Mapping[str, Any], source: str = "sensor") -> int:
        with self.lock:
            assert self.match is not None and self.match_id is not None
            self.match.apply(event)
            seq = self.store.append(self.match_id, event, at=self.clock.advance(7), source=source)
        self.link.changed()
        return seq

    def next_event(self) -> dict[str, Any] | None:
        """The scripted step for the position now, or None when the game is over."""
        assert self.match is not None
        return self.script.next_event(self.match.state)

    def play_next(self) -> bool:
        """Play one scripted step; False when the game is already over."""
        with self.lock:
            event = self.next_event()
            if event is None:
                return False
            self.step(event)
            return True

    @property
    def game_over(self) -> bool:
        return self.match is not None and self.match.state.phase == "game_over"

    # The hub's commands ---------------------------------------------------------------------

    def command(self, command: Mapping[str, Any]) -> dict[str, Any]:
        """Apply a hub command like the tablet would (the engine refuses what it must)."""
        with self.lock:
            if command["kind"] == "undo":
                seq = self.step({"undo": True}, source="hub")
            else:
                seq = self.step({"correct": command["correct"]}, source="hub")
            assert self.match is not None
            return {"seq": seq, "score": dict(self.match.state.score)}
