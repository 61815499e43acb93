"""The end of a shot, of a round and of the game (R1, R2, R13), and the shoot-off (R14).

After a shot is resolved, in this order: a player who reached the points that win the
round wins it at once (R13); otherwise an empty pot ends the round on points (R2);
otherwise the turn passes (R1). A new round clears the board, sets both scores to 0, puts
both big skitts in hand and lets the loser start, or calls a shoot-off after a drawn round
or when both players need just one more round win.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.effects import Effect, EffectKind, Reason
from scorekeeper.events import ShootOff
from scorekeeper.fields import PLAYERS, Player, opponent
from scorekeeper.frozen import FrozenMap
from scorekeeper.options import BigState
from scorekeeper.phrases import slot
from scorekeeper.rules.checks import refuse
from scorekeeper.rules.tally import Tally, Transition
from scorekeeper.shot import Shot
from scorekeeper.state import (
    PendingRed,
    PendingUnblock,
    Phase,
    Reopen,
    State,
    lose_if_blocked_in,
)

SHOOTOFF_TARGET = 5
"""R14 (R20): the track's space 5, whatever ``points_to_win_round`` is."""

_ZERO_SCORE: FrozenMap[Player, int] = FrozenMap({"black": 0, "white": 0})
_BIG_IN_HAND: FrozenMap[Player, str | None] = FrozenMap({"black": BigState.HAND,
                                                          "white": BigState.HAND})


def pending_red(t: Tally) -> tuple[PendingRed, ...]:
    """R4: red points scored with ``advance`` that their scorer may still change to ``back``
    until the next shot. When one shot gives red points to both players (the shooter's and
    an own goal or gift on red), both stay open, each for its own scorer, shooter first. A
    scorer whose red points are all fixed (scored against a player at −1) has none open."""
    logs = ((scorer, t.red_log[scorer]) for scorer in (t.shooter, t.opponent))
    return tuple(
        PendingRed(scorer, tuple(c for c, _ in log), tuple(can for _, can in log))
        for scorer, log in logs if any(can for _, can in log))


def close_shot(t: Tally, shot: Shot, unblock: PendingUnblock | None = None) -> Transition:
    """Finish a classic shot: round won (R13), pot empty (R2), or the turn passes (R1)."""
    if t.round_winner is not None:
        return end_round(t, t.round_winner)
    if shot.keep:
        t.keep()
    if t.pot == 0 and not t.kept:
        return end_round_on_empty_pot(t)
    red = pending_red(t)
    state = replace(
        t.state,
        turn=t.opponent,
        score=FrozenMap(t.score),
        board=FrozenMap(t.board),
        blocked=frozenset(t.blocked),
        pot=t.pot,
        kept=t.kept,
        big=FrozenMap(t.big),
        pending_red=red,
        pending_unblock=unblock,
        reopen=None if not red and unblock is None else Reopen(t.state, shot),
        last_effects=tuple(t.effects),
        board_must_change=t.board_must_change,
    )
    state = lose_if_blocked_in(state)
    return Transition(state, state.last_effects)


def end_round_on_empty_pot(t: Tally) -> Transition:
    """R2: the pot is empty after the shot: more points win the round; equal points draw."""
    b, w = t.score["black"], t.score["white"]
    winner: Player | None = None if b == w else ("black" if b > w else "white")
    if winner is None:
        text = f"the pot is empty with the points equal ({b} to {w}): round {t.state.round} " \
               "is drawn"
    else:
        text = f"the pot is empty: {slot(winner)} has more points ({max(b, w)} to {min(b, w)})"
    t.note(EffectKind.ROUND, winner, Reason.POT, text)
    return end_round(t, winner)


def needs_shootoff(wins: dict[Player, int], target: int) -> bool:
    """R13: both players need just one more round win (a tie before the final round)."""
    return all(wins[p] == target - 1 for p in PLAYERS)


def end_round(t: Tally, winner: Player | None) -> Transition:
    """R13: the board's skitts and blockades go back to the pot, the winner's round counter
    takes one skitt; then the game ends or the next round is set up."""
    state, rules = t.state, t.rules
    wins = dict(state.round_wins)
    if winner is not None:
        wins[winner] += 1
        t.note(EffectKind.ROUND, winner, Reason.ROUND, f"{slot(winner)} wins round {state.round}")
    t.board_must_change = True
    common = dict(
        rounds=state.rounds + (winner,),
        round_wins=FrozenMap(wins),
        board=FrozenMap(dict.fromkeys(rules.fields, 0)),
        blocked=frozenset(),
        pot=rules.pot - sum(wins.values()),
        kept=0,
        pending_red=(),
        pending_unblock=None,
        reopen=None,
        board_must_change=True,
    )
    if winner is not None and wins[winner] >= rules.rounds_to_win_game:
        # R20: the scores stay as the deciding shot left them; no new round is set up.
        loser = opponent(winner)
        t.note(EffectKind.GAME, winner, Reason.ROUND,
               f"{slot(winner)} wins the game, {wins[winner]} round wins to {wins[loser]}")
        new = replace(state, phase=Phase.GAME_OVER, turn=None, winner=winner,
                      score=FrozenMap(t.score), big=FrozenMap(t.big),
                      last_effects=tuple(t.effects), **common)  # type: ignore[arg-type]
        return Transition(new, new.last_effects)
    next_round = state.round + 1
    if winner is None or needs_shootoff(wins, rules.rounds_to_win_game):
        phase, turn = Phase.SHOOTOFF, None
        why = "a drawn round" if winner is None else "both need one more round win"
        t.note(EffectKind.TURN, None, Reason.SHOOTOFF,
               f"round {next_round} starts with a shoot-off ({why})")
    else:
        phase, turn = Phase.PLAYING, opponent(winner)
        t.note(EffectKind.TURN, turn, Reason.ROUND,
               f"round {next_round}: {slot(turn)} lost and starts")
    new = replace(state, phase=phase, turn=turn, round=next_round, score=_ZERO_SCORE,
                  big=_BIG_IN_HAND, last_effects=tuple(t.effects),
                  **common)  # type: ignore[arg-type]
    return Transition(new, new.last_effects)


def shoot_off(state: State, event: ShootOff) -> Transition:
    """R14: the score skitt nearer to space 5 starts; equal distance: shoot again."""
    if state.phase is not Phase.SHOOTOFF:
        raise refuse(state, "shootoff", "no shoot-off is due", rule="R14")
    far_b = abs(SHOOTOFF_TARGET - event.black)
    far_w = abs(SHOOTOFF_TARGET - event.white)
    if far_b == far_w:
        effect = Effect(EffectKind.SHOOTOFF, None, 0, Reason.SHOOTOFF,
                        f"shoot-off {event.black} against {event.white}: equally near to "
                        f"space {SHOOTOFF_TARGET}, shoot again")
        new = replace(state, last_effects=(effect,), board_must_change=False)
        return Transition(new, new.last_effects)
    starter: Player = "black" if far_b < far_w else "white"
    effect = Effect(EffectKind.SHOOTOFF, starter, 0, Reason.SHOOTOFF,
                    f"shoot-off {event.black} against {event.white}: {slot(starter)} is nearer to "
                    f"space {SHOOTOFF_TARGET} and starts")
    new = replace(state, phase=Phase.PLAYING, turn=starter, last_effects=(effect,),
                  board_must_change=False)
    new = lose_if_blocked_in(new)
    return Transition(new, new.last_effects)
