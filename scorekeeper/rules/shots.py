"""A shot from check to result: refusals first, then R8, then the variant's resolution."""

from __future__ import annotations

from scorekeeper.effects import EffectKind, Reason
from scorekeeper.phrases import slot
from scorekeeper.rules.checks import check_shot, is_invalid, refuse
from scorekeeper.rules.classic import resolve_classic
from scorekeeper.rules.rounds import close_shot
from scorekeeper.rules.tally import Tally, Transition
from scorekeeper.rules.trio import close_trio, resolve_trio
from scorekeeper.shot import Shot
from scorekeeper.state import State


def invalid_shot(state: State, shot: Shot, why: str) -> Transition:
    """R8: an invalid shot has no effect at all; the board is restored to its state before
    the shot, the shot's skitt goes back to the pot, and the turn passes."""
    t = Tally(state, shot.by)
    t.note(EffectKind.INVALID, shot.by, Reason.INVALID,
           f"{slot(shot.by)}'s shot is invalid: {why}; restore the board as it was, the turn "
           "passes")
    t.board_must_change = True
    return close_trio(t, shot) if state.rules.is_trio else close_shot(t, shot)


def resolve_shot(state: State, shot: Shot) -> Transition:
    """Check a shot completely (raising IllegalEventError), then resolve it: every shot,
    live or replayed, takes this one path."""
    check_shot(state, shot)
    why = is_invalid(state, shot)
    if why is not None:
        if shot.unblock is not None:
            # R8 with R16: an invalid shot has no effect, so it earns no unblock right.
            raise refuse(state, "shot.unblock", "an invalid shot earns no unblock right ({why})",
                         rule=("R8", "R16"), why=why)
        return invalid_shot(state, shot, why.phrase())
    if state.rules.is_trio:
        return resolve_trio(state, shot)
    return resolve_classic(state, shot)
