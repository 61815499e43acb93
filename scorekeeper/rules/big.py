"""The big skitts: R11 opening move, R12 dislodged big skitt.

Each round starts with both big skitts in hand; a player whose big skitt is in hand spends
the turn shooting it. A big skitt that lands on a colour field, or is knocked onto one,
gives the opponent a skitt from the pot on the shooter's home field of that colour (scored
as an own goal, R7). The gifts are handed out in R10 step 5 (:func:`give_gifts`).
"""

from __future__ import annotations

from scorekeeper.effects import EffectKind, Reason, where
from scorekeeper.fields import color_of, field
from scorekeeper.options import BigState
from scorekeeper.phrases import slot
from scorekeeper.rules.scoring import gift_skitt
from scorekeeper.rules.tally import Tally
from scorekeeper.shot import Landing, Shot

Gift = tuple[str, str, Reason]
"""(the shooter's home field that receives it, why, the ruling)."""


def settle_big_skitts(t: Tally, shot: Shot) -> list[Gift]:
    """Where the big skitts end up after the shot; returns the gift skitts it earns the
    opponent (R11, R12). A big skitt off the board costs a penalty point (R6, see
    :func:`off_board`) and is re-placed like one knocked loose."""
    s = t.shooter
    who = slot(s)
    gifts: list[Gift] = []
    if shot.big == Landing.PLACED:
        t.big[s] = BigState.CENTER
        t.note(EffectKind.BIG, s, Reason.OPENING, f"{who}'s big skitt is placed in the centre")
    elif shot.big == Landing.MISSED:
        t.note(EffectKind.BIG, s, Reason.OPENING, f"{who}'s big skitt missed: still in hand, "
               "try again next turn")
    elif shot.big == Landing.OFF:
        t.note(EffectKind.BIG, s, Reason.OPENING, f"{who}'s big skitt flew off the board: still "
               "in hand, try again next turn")
    elif shot.big is not None:
        t.note(EffectKind.BIG, s, Reason.OPENING, f"{who}'s big skitt landed on "
               f"{where(shot.big)}: {who} takes it back and shoots it again next turn", shot.big)
        home = field(s, color_of(shot.big) or "")
        gifts.append((home, f"{who}'s big skitt landed on {where(shot.big)}", Reason.OPENING))
    knocked = shot.knocked_big
    if knocked:
        # R12: the shooter re-places a big skitt, whichever one it was. Someone else's shot
        # never puts your big skitt in hand: a loose big skitt beyond the one the shooter
        # re-places (the shooter's own already in hand, or both knocked loose) goes back in
        # the centre by hand and nobody else's state changes.
        by_hand = len(knocked)
        if t.big[s] == BigState.CENTER:
            t.big[s] = BigState.HAND
            by_hand -= 1
            t.note(EffectKind.BIG, s, Reason.DISLODGED_BIG,
                   f"a big skitt was knocked loose: {who} must re-place a big skitt next turn")
        if by_hand:
            t.board_must_change = True
            why = ("both big skitts were knocked loose" if len(knocked) == 2
                   else f"a big skitt was knocked loose while {who}'s is in hand")
            t.note(EffectKind.RESTORE, s, Reason.DISLODGED_BIG,
                   f"{why}: put one back in the centre by hand")
        for landing in knocked:
            if landing == Landing.OFF:
                t.note(EffectKind.BIG, s, Reason.DISLODGED_BIG,
                       "a big skitt flew off the board: it is re-placed")
            elif landing != Landing.LOOSE:
                home = field(s, color_of(landing) or "")
                gifts.append((home, f"a big skitt knocked onto {where(landing)}",
                              Reason.DISLODGED_BIG))
    return gifts


def off_board(shot: Shot) -> int:
    """Big skitts this shot sent off the board (R6: a penalty point each)."""
    return (shot.big == Landing.OFF) + sum(landing == Landing.OFF for landing in shot.knocked_big)


def give_gifts(t: Tally, gifts: list[Gift], choices: tuple[str, ...]) -> None:
    """R10 step 5: each gift skitt onto the shooter's home field, scored for the opponent."""
    for home, why, reason in gifts:
        if t.is_round_over:
            return
        gift_skitt(t, home, why, choices, reason)
