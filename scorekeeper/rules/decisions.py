"""Late decisions: what the sensors cannot decide and a player may still choose after the
shot, until the next shot is taken.

- R4: a Hit on Red point counted as ``advance`` may be changed to ``back``.
- R16: an unblock right earned by the shot may be used.

A decision re-resolves the last shot from the state before it, with the choice made, so the
result is exactly what the shot would have given had the choice been made at the shot
(R10's order, the −1 floor, the round target all apply). It is a recorded step, undoable
like any other; the next shot ends the chance (the default stands: ``advance``, no unblock).
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.checks import show
from scorekeeper.effects import Effect, EffectKind, Reason, signed, where
from scorekeeper.errors import Fields, Player
from scorekeeper.events import Decision
from scorekeeper.fields import PLAYERS
from scorekeeper.phrases import slot
from scorekeeper.rules.checks import refuse
from scorekeeper.rules.classic import resolve_classic
from scorekeeper.rules.tally import Transition
from scorekeeper.shot import RedChoice
from scorekeeper.state import Phase, State


def _red_choices(state: State, d: Decision) -> tuple[str, ...]:
    """The decider's red points with the change made; each player decides only their own
    (R4: both players' points may be open after one shot)."""
    if not state.pending_red:
        raise refuse(state, "decide.red", "no Hit on Red point is open to change", rule="R4")
    pending = next((p for p in state.pending_red if p.player == d.by), None)
    if pending is None:
        if len(state.pending_red) == 1:
            raise refuse(state, "decide.by", "the open Hit on Red points are {holder}'s, not "
                         "{who}'s", rule="R4", holder=Player(state.pending_red[0].player),
                         who=Player(d.by))
        raise refuse(state, "decide.by", "the open Hit on Red points are {holder}'s and "
                     "{other}'s, not {who}'s", rule="R4",
                     holder=Player(state.pending_red[0].player),
                     other=Player(state.pending_red[1].player), who=Player(d.by))
    new = list(pending.choices)
    for i, choice in enumerate((d.red or ())[: len(new)]):  # R20: extra choices are ignored
        if choice == new[i]:
            continue
        key = f"decide.red[{i}]"
        if choice == RedChoice.ADVANCE:
            raise refuse(state, key, "a point can only be changed to back; undo "
                         "the decision to make it advance again", rule="R4")
        if not pending.changeable[i]:
            raise refuse(state, key, "this point cannot be pushed back: the other "
                         "player was at \u22121", rule="R4")
        new[i] = choice
    return tuple(new)


def decide(state: State, d: Decision) -> Transition:
    """Apply a late Hit on Red change and/or unblock choice (R4, R16)."""
    reopen = state.reopen
    if state.phase is not Phase.PLAYING or reopen is None:
        raise refuse(state, "decide", "no choice is open: it lapses when the next shot is taken",
                     rule=("R4", "R16"))
    shot = reopen.shot
    texts: list[str] = []
    if d.red is not None:
        choices = _red_choices(state, d)
        if d.by == shot.by:
            shot = replace(shot, red=choices)  # type: ignore[arg-type]
        else:
            shot = replace(shot, opponent_red=choices)  # type: ignore[arg-type]
        texts.append(f"{slot(d.by)} sets the Hit on Red points to {', '.join(choices)}")
    if d.unblock is not None:
        pending = state.pending_unblock
        if pending is None:
            raise refuse(state, "decide.unblock", "no unblock right is open", rule="R16")
        if d.by != pending.player:
            raise refuse(state, "decide.by", "the unblock right is {holder}'s, not {who}'s",
                         rule="R16", holder=Player(pending.player), who=Player(d.by))
        if d.unblock not in pending.fields:
            raise refuse(state, "decide.unblock", "{got} is not one of the blocked fields the "
                         "right may lift ({fields})", rule="R16", got=show(d.unblock),
                         fields=Fields(pending.fields))
        shot = replace(shot, unblock=d.unblock)
        texts.append(f"{slot(d.by)} lifts the blockade on {where(d.unblock)} (unblock right)")
    redone = resolve_classic(reopen.base, shot).state
    # An unblock alone is R16's, not R4's: the referee's badge names the rule that applies.
    reason = Reason.FLIPPING if d.red is None else Reason.DECISION
    effects = [Effect(EffectKind.DECISION, d.by, 0, reason, "; ".join(texts),
                      fields=() if d.unblock is None else (d.unblock,))]
    for p in PLAYERS:
        diff = redone.score[p] - state.score[p]
        if not diff:
            continue
        if p == d.by:
            text = f"{slot(p)} {signed(diff)}: Hit on Red point taken as back instead of advance"
        else:
            text = (f"{slot(d.by)} sets {slot(p)} back {'one' if diff == -1 else -diff}: "
                    "Hit on Red" if diff < 0 else f"{slot(p)} {signed(diff)}: Hit on Red by "
                    f"{slot(d.by)}")
        effects.append(Effect(EffectKind.BACK if diff < 0 else EffectKind.POINT, p, diff,
                              Reason.HIT_ON_RED, text, who=None if p == d.by else d.by,
                              red="back"))
    new = replace(redone, last_effects=tuple(effects),
                  board_must_change=redone.board_must_change or d.unblock is not None)
    return Transition(new, new.last_effects)
