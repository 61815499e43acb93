"""Board states and whole games as a board publishes them, for the hub's tests."""

from __future__ import annotations

from typing import Any

from hub.store import ReceivedEvent, kept_state
from hub.tournament import Tournament
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup

SHORT_RULES = Rules(rounds_to_win_game=1)
"""One round wins the game: the games of :func:`play_game`."""
SHORT_SETUP = Setup(first="black", big={"black": "center", "white": "center"})


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


def game_steps(black_wins: bool) -> list[dict[str, Any]]:
    """A one-round game in four steps: two shots that change nothing, a referee's correction
    to 4 points, and the winner's fifth point (5-2 when the first player wins, 1-5 else)."""
    winner, loser = ("black", "white") if black_wins else ("white", "black")
    return [
        {"shot": {"by": "black", "delta": {}}},
        {"shot": {"by": "white", "delta": {}}},
        {"correct": {"score": {winner: 4, loser: 2 if black_wins else 1},
                     "board": {f"{loser}.yellow": 2}, "turn": winner, "reason": "scripted"}},
        {"shot": {"by": winner, "delta": {f"{loser}.yellow": 1}}},
    ]


def real_events(board: str, match: int, names: tuple[str, str],
                steps: list[dict[str, Any]], *, rules: Rules = SHORT_RULES,
                setup: Setup = SHORT_SETUP) -> list[ReceivedEvent]:
    """The events a board publishes for ``steps``: each with the state the rules engine
    gives after it, and the match's rules and setup (what the hub replays)."""
    m = Match(rules, setup, {"black": names[0], "white": names[1]})
    out = []
    for seq, step in enumerate(steps, start=1):
        m.apply(step)
        out.append(ReceivedEvent(
            id=f"{board}:{match}:{seq}", board=board, match_id=match, seq=seq,
            at=1000.0 + seq, source="sensor", event=step, state=kept_state(m.state.to_json()),
            names={"black": names[0], "white": names[1]}, rules=rules.to_json(),
            setup=setup.to_json()))
    return out


def play_game(t: Tournament, board: str, match: int, names, black_wins: bool) -> None:
    """A one-round game (short rules) ending on the fourth event, as a real board plays it."""
    for ev in real_events(board, match, tuple(names), game_steps(black_wins)):
        t.receive(ev)


def play_round(t: Tournament, first_wins: bool = True) -> None:
    """Every open game of the newest round played on a board of its own, first player wins."""
    number = t.store.round_numbers()[-1][0]
    for p in t.round_open(number):
        board = f"b{p.table}"
        t.assign_board(number, p.table, board)
        play_game(t, board, 100 * number + p.table, (p.black, p.white), first_wins)
