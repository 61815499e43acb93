"""Whether the hub believes a board's result: it replays the board's steps itself.

A board's login lets it say anything about its own games, so its ``game_over`` state is a
claim, not a result. The hub has the rules engine: it folds the match's steps, as received,
through :class:`scorekeeper.match.Match` with the rules and setup the board sent, and takes
the result from its own replay (winner, round wins, the points of each round). The claim
counts only when the replay ends where the board says it ended; otherwise the referee
decides (``hub.claims``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hub.model import GameResult, ReceivedEvent
from hub.points import points_of
from hub.said import MARK, Sentence, why_said
from scorekeeper.errors import IllegalEventError, ScorekeeperError
from scorekeeper.match import Match
from scorekeeper.options import Rules, Setup
from scorekeeper.state import Phase

PLAYERS = ("black", "white")
COMPARED = ("phase", "winner", "round_wins", "score", "rounds")
"""What the board's last state must share with the hub's replay."""


@dataclass(frozen=True)
class Verdict:
    """The hub's reading of a finished game: the result, and why it is not believed (None
    when the replay confirms it)."""

    result: GameResult | None
    doubt: str | None


class RefusedStep(Exception):  # noqa: N818 -- a step refused, told to the referee
    """The board's step ``seq`` that the hub's replay refuses, and why in the players' names."""

    def __init__(self, seq: int, why: Sentence) -> None:
        super().__init__(why)
        self.seq, self.why = seq, why


def replay(rules: Mapping[str, Any], setup: Mapping[str, Any], names: Mapping[str, str],
           events: Sequence[ReceivedEvent]) -> list[dict[str, Any]]:
    """The state after each step, by the hub's own rules engine; raises :class:`RefusedStep`
    for a step the rules refuse, :class:`ScorekeeperError` (or a ``TypeError``/``ValueError``)
    for options the engine cannot take."""
    match = Match(Rules.from_json(dict(rules)), Setup.from_json(dict(setup)),
                  dict(names))  # type: ignore[arg-type]
    states = []
    for ev in events:
        try:
            match.apply(ev.event)
        except IllegalEventError as exc:
            raise RefusedStep(ev.seq, why_said(exc.why, names)) from exc
        states.append(match.state.to_json())
    return states


def judge(events: Sequence[ReceivedEvent],
          options: tuple[Mapping[str, Any], Mapping[str, Any]] | None) -> Verdict:
    """The result of a finished game from its complete, ordered ``events`` (the last one says
    ``game_over``), and the doubt that sends it to the referee, if any."""
    latest = events[-1]
    names = latest.names
    black, white = names.get("black"), names.get("white")
    if not black or not white or black == white:
        return Verdict(None, Sentence(MARK.gettext(
            "the board's match does not name two different players")))
    claimed = _result(black, white, latest.state, points_of([e.state for e in events]))
    if options is None:
        return Verdict(claimed, Sentence(MARK.gettext(
            "the board did not send the match's rules, so the hub cannot replay its steps")))
    try:
        states = replay(options[0], options[1], names, events)
    except RefusedStep as refused:
        return Verdict(claimed, Sentence(MARK.gettext(
            "the hub's replay of the board's steps refuses step {seq}: {why}"),
            seq=refused.seq, why=refused.why))
    except (ScorekeeperError, TypeError, ValueError) as exc:  # the rules or setup it sent
        return Verdict(claimed, Sentence(MARK.gettext(
            "the hub cannot replay the board's steps with the rules the board sent: {why}"),
            why=str(exc)))
    mine = states[-1]
    differs = [k for k in COMPARED if k in latest.state and _norm(latest.state[k]) != _norm(
        mine.get(k))]
    if mine.get("phase") != Phase.GAME_OVER or differs:
        what = Sentence(MARK.gettext("the game is not over")) if mine.get(
            "phase") != Phase.GAME_OVER else Sentence(MARK.gettext("it differs in {what}"),
                                                  what=", ".join(differs))
        return Verdict(claimed, Sentence(MARK.gettext(
            "the hub's replay of the board's steps does not end as the board says ({what})"),
            what=what))
    return Verdict(_result(black, white, mine, points_of(states)), None)


def _norm(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _result(black: str, white: str, state: Mapping[str, Any],
            points: Mapping[str, int]) -> GameResult:
    wins = state.get("round_wins") or {}
    winner = state.get("winner")
    return GameResult(
        black=black,
        white=white,
        winner={"black": black, "white": white}.get(winner) if winner in PLAYERS else None,
        black_rounds=int(wins.get("black", 0)),
        white_rounds=int(wins.get("white", 0)),
        black_points=int(points["black"]),
        white_points=int(points["white"]),
    )
