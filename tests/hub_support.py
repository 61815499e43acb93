"""Board states and whole games as a board publishes them, for the hub's tests."""

from __future__ import annotations

from typing import Any

from web.tournament.hub.store import ReceivedEvent
from web.tournament.hub.tournament import Tournament


def state(
    phase: str = "playing",
    score: tuple[int, int] = (0, 0),
    wins: tuple[int, int] = (0, 0),
    rounds: list[str | None] | None = None,
    winner: str | None = None,
    effects: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "phase": phase,
        "score": {"black": score[0], "white": score[1]},
        "round_wins": {"black": wins[0], "white": wins[1]},
        "rounds": rounds or [],
        "winner": winner,
        "turn": None if phase == "game_over" else "black",
        "last_effects": effects or [],
    }


def event(board: str, match: int, seq: int, st: dict[str, Any], names=("Ann", "Bob")):
    return ReceivedEvent(
        id=f"{board}:{match}:{seq}",
        board=board,
        match_id=match,
        seq=seq,
        at=1000.0 + seq,
        source="sensor",
        event={"shot": {"by": "black"}},
        state=st,
        names={"black": names[0], "white": names[1]},
    )


def point(player: str, amount: int = 1) -> dict[str, Any]:
    return {"kind": "point", "player": player, "amount": amount}


ROUND = {"kind": "round", "player": "black", "amount": 0}


def play_game(t: Tournament, board: str, match: int, names, black_wins: bool) -> None:
    """A one-round game (short rules) ending on the fourth event."""
    winner = "black" if black_wins else "white"
    final = (5, 2) if black_wins else (1, 5)
    steps = [
        state(score=(1, 0)),
        state(score=(2, 1)),
        state(score=(4, 2) if black_wins else (1, 4)),
        state("game_over", final, (1, 0) if black_wins else (0, 1), [winner], winner),
    ]
    for seq, st in enumerate(steps, start=1):
        t.receive(event(board, match, seq, st, names))
