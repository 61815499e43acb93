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

MINUS_LIMIT = 3
"""The minus field is cleared when it holds more than this many skitts."""


def has_all_three(t: Tally, player: Player) -> bool:
    """True when each of ``player``'s opposite fields holds at least one skitt."""
    return all(t.board[f] >= 1 for f in t.rules.opposite(player))


def clear_board(t: Tally) -> None:
    """Every skitt on the board back to the pot."""
    for name in t.rules.fields:
        t.clear(name)


def resolve_trio(state: State, shot: Shot) -> Transition:
    """A valid Trio shot (already checked)."""
    t = Tally(state, shot.by)
    for name, d in shot.delta.items():
        t.board[name] += d
        t.pot -= d
    if t.board[MINUS] > MINUS_LIMIT:
        n = t.clear(MINUS)
        t.note(EffectKind.CLEAR, None, Reason.TRIO,
               f"the minus field held {n} skitts, more than {MINUS_LIMIT}: cleared")
    return close_trio(t)


def close_trio(t: Tally) -> Transition:
    """After a Trio shot: the shooter is checked first, then the opponent; a point clears
    the board and the player who did not score starts; first to the target wins the game.
    An empty pot after a shot that scored no point clears the board with no point."""
    scorer: Player | None = None
    for player in (t.shooter, t.opponent):
        if has_all_three(t, player):
            scorer = player
            break
    next_turn = t.opponent
    if scorer is not None:
        fields = tuple(t.rules.opposite(scorer))
        t.gain(scorer, Reason.TRIO,
               f"a skitt on each of {'/'.join(field_slot(f) for f in fields)}", fields)
        clear_board(t)
        t.note(EffectKind.CLEAR, None, Reason.TRIO, "the whole board is cleared")
        next_turn = t.shooter if scorer == t.opponent else t.opponent
        t.note(EffectKind.TURN, next_turn, Reason.TRIO,
               f"{slot(next_turn)} did not score and starts")
    elif t.pot == 0:
        clear_board(t)
        t.note(EffectKind.CLEAR, None, Reason.TRIO, "the pot is empty and no point was scored: the "
               "whole board is cleared")
    changes = dict(
        score=FrozenMap(t.score),
        board=FrozenMap(t.board),
        pot=t.pot,
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
