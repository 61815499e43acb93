"""R17 Trio: a point for one skitt on each of the three opposite fields.

Only this rule scores. There are no thresholds, no Hit on Red, no penalties, no clearing,
no big skitts, chains or blockades (such inputs are refused before we get here); skitts off
the board simply go back to the pot. Turns (R1), the pot (R2), invalid shots (R8), losses
without effect (R9), the shoot-off (R14) and corrections (R19) apply as in classic.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.effects import EffectKind, Reason
from scorekeeper.fields import MINUS, Player
from scorekeeper.frozen import FrozenMap
from scorekeeper.phrases import field_slot, slot
from scorekeeper.rules.tally import Tally, Transition
from scorekeeper.shot import Shot
from scorekeeper.state import Phase, State

MINUS_HITS = 4
"""The minus field is cleared at its fourth hit since it was last cleared."""


def has_all_three(t: Tally, player: Player) -> bool:
    """True when each of ``player``'s opposite fields holds at least one skitt."""
    return all(t.board[f] >= 1 for f in t.rules.opposite(player))


def clear_board(t: Tally) -> None:
    """Every skitt on the board back to the pot."""
    for name in t.rules.fields:
        t.clear(name)


def resolve_trio(state: State, shot: Shot) -> Transition:
    """A valid Trio shot (already checked). A hit on the minus field is a shot whose skitt
    ends there: its count rose, or the referee says so (``minus_hit``: it knocked another
    off). At the fourth hit since it was last cleared the minus field is cleared, also when
    an earlier hit's skitt was knocked off again."""
    t = Tally(state, shot.by)
    for name, d in shot.delta.items():
        t.board[name] += d
        t.pot -= d
    hits = state.minus_hits
    if shot.minus_hit or shot.delta.get(MINUS, 0) > 0:
        hits += 1
        if hits >= MINUS_HITS:
            n = t.clear(MINUS)
            hits = 0
            t.note(EffectKind.CLEAR, None, Reason.TRIO,
                   f"the minus field's {MINUS_HITS}th hit since it was last cleared: its {n} "
                   "skitts are cleared", MINUS)
    return close_trio(t, shot, hits)


def close_trio(t: Tally, shot: Shot | None = None, minus_hits: int | None = None) -> Transition:
    """After a Trio shot: the shooter is checked first, then the opponent; a point clears
    the board and the player who did not score starts; first to the target wins the game.
    An empty pot after a shot that scored no point clears the board with no point."""
    scorer: Player | None = None
    for player in (t.shooter, t.opponent):
        if has_all_three(t, player):
            scorer = player
            break
    next_turn = t.opponent
    hits = t.state.minus_hits if minus_hits is None else minus_hits
    if shot is not None and shot.keep and t.round_winner is None:
        t.keep()
    if scorer is not None:
        fields = tuple(t.rules.opposite(scorer))
        t.gain(scorer, Reason.TRIO,
               f"a skitt on each of {'/'.join(field_slot(f) for f in fields)}", fields)
        clear_board(t)
        t.note(EffectKind.CLEAR, None, Reason.TRIO, "the whole board is cleared")
        hits = 0
        next_turn = t.shooter if scorer == t.opponent else t.opponent
        t.note(EffectKind.TURN, next_turn, Reason.TRIO,
               f"{slot(next_turn)} did not score and starts")
    elif t.pot == 0 and not t.kept:
        hits = 0
        clear_board(t)
        t.note(EffectKind.CLEAR, None, Reason.TRIO, "the pot is empty and no point was scored: the "
               "whole board is cleared")
    changes = dict(
        score=FrozenMap(t.score),
        board=FrozenMap(t.board),
        pot=t.pot,
        kept=t.kept,
        minus_hits=hits,
        last_effects=tuple(t.effects),
        board_must_change=t.board_must_change,
        pending_red=(),
        pending_unblock=None,
        reopen=None,
    )
    if t.round_winner is not None:
        winner = t.round_winner
        t.note(EffectKind.GAME, winner, Reason.TRIO,
               f"{slot(winner)} wins the game with {t.score[winner]} points")
        changes["last_effects"] = tuple(t.effects)
        new = replace(t.state, phase=Phase.GAME_OVER, turn=None, winner=winner,
                      **changes)  # type: ignore[arg-type]
    else:
        new = replace(t.state, turn=next_turn, **changes)  # type: ignore[arg-type]
    return Transition(new, new.last_effects)
