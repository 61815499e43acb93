"""Refusals: is this shot possible at all, here and now? (R1, R2, R11, R16, R17, R20)

A shot is checked completely before anything is resolved, so that a refused step changes
nothing. Each check is named for the ruling it enforces; each message names the bad key or
value and ends with a summary of the state it was tried in.
"""

from __future__ import annotations

from scorekeeper.checks import show
from scorekeeper.errors import IllegalEventError, MalformedEventError
from scorekeeper.fields import MINUS
from scorekeeper.shot import Shot
from scorekeeper.state import State

BIG_OUTCOMES = ("placed", "missed")
TRIO_ABSENT = ("big", "knocked_big", "chain", "blockade", "red", "opponent_red", "unblock")


def refuse(state: State, key: str, why: str, malformed: bool = False) -> IllegalEventError:
    """The refusal of ``key`` in a step, with the state it was tried in."""
    cls = MalformedEventError if malformed else IllegalEventError
    return cls(f"{key}: {why} {state.summary()}", key=key)


def check_turn(state: State, shot: Shot) -> None:
    """R1: one shot a turn, by the player due; none during a shoot-off or after the game."""
    if state.phase == "game_over":
        raise refuse(state, "shot.by", f"{shot.by} cannot shoot, the game is over (undo first)")
    if state.phase == "shootoff":
        raise refuse(state, "shot.by", f"{shot.by} cannot shoot, a shoot-off is due (R14)")
    if shot.by != state.turn:
        raise refuse(state, "shot.by", f"{shot.by} shot out of turn, {state.turn} is due (R1)")


def check_names(state: State, shot: Shot) -> None:
    """Every field named in the shot is one of the seven."""
    fields = state.rules.fields
    for name in shot.delta:
        if name not in fields:
            raise refuse(state, "shot.delta", f"unknown field {show(name)}: expected one of "
                         f"{', '.join(fields)}", malformed=True)


def check_variant_inputs(state: State, shot: Shot) -> None:
    """R17: Trio has no big skitts, chains, blockades or Hit on Red; R16, R20: blockades only
    with flipping."""
    rules = state.rules
    if rules.is_trio:
        for key in TRIO_ABSENT:
            if getattr(shot, key):
                raise refuse(state, f"shot.{key}", f"Trio has no {key.replace('_', ' ')} (R17)")
        return
    if not rules.flipping:
        for key in ("blockade", "unblock"):
            if getattr(shot, key) is not None:
                raise refuse(state, f"shot.{key}", "blockades exist only with the flipping "
                             "option (R16, R20)")


def check_big_skitt(state: State, shot: Shot) -> None:
    """R11, R12: a player with the big skitt in hand must shoot it, and only then."""
    if state.rules.is_trio:
        return
    holds = state.big[shot.by] == "hand"
    if shot.big is None:
        if holds:
            raise refuse(state, "shot.big", f"{shot.by} must shoot the big skitt first: it is in "
                         "hand (R11, R12)")
        return
    if not holds:
        raise refuse(state, "shot.big", f"{shot.by}'s big skitt is in the centre, not in hand "
                     "(R11)")
    if shot.big == MINUS:
        raise refuse(state, "shot.big", "a big skitt on the minus field is \"placed\" (R20)")
    if shot.big not in BIG_OUTCOMES and shot.big not in state.rules.color_fields:
        raise refuse(state, "shot.big", f"expected \"placed\", \"missed\" or a colour field, got "
                     f"{show(shot.big)}", malformed=True)
    if shot.chain is not None:
        raise refuse(state, "shot.chain", "a big-skitt shot has no skitt to make a chain (R15)")


def check_knocked_big(state: State, shot: Shot) -> None:
    """R12: only a big skitt in the centre can be knocked loose; it lands loose or on a
    colour field (on the minus field it is ``loose``, R20)."""
    knocked = shot.knocked_big
    if not knocked:
        return
    for landing in knocked:
        if landing == MINUS:
            raise refuse(state, "shot.knocked_big", "a big skitt on the minus field is "
                         "\"loose\" (R20)")
        if landing != "loose" and landing not in state.rules.color_fields:
            raise refuse(state, "shot.knocked_big", f"expected \"loose\" or a colour field, "
                         f"got {show(landing)}", malformed=True)
    in_centre = sum(1 for v in state.big.values() if v == "center")
    if in_centre == 0:
        raise refuse(state, "shot.knocked_big", "no big skitt is in the centre to knock loose "
                     "(R12)")
    if len(knocked) > in_centre:
        raise refuse(state, "shot.knocked_big", f"{len(knocked)} big skitts knocked loose, but "
                     f"only {in_centre} big skitt is in the centre (R12)")


def check_chain(state: State, shot: Shot) -> None:
    """R15: a chain joins two different opposite fields of the shooter."""
    if shot.chain is None:
        return
    f1, f2 = shot.chain
    opposite = state.rules.opposite(shot.by)
    for f in (f1, f2):
        if f not in opposite:
            raise refuse(state, "shot.chain", f"{show(f)} is not a field {shot.by} shoots at "
                         f"({', '.join(opposite)}) (R15)")
    if f1 == f2:
        raise refuse(state, "shot.chain", f"a chain joins two different fields, got {f1} twice")


def check_blockade(state: State, shot: Shot) -> None:
    """R16: a blockade knocked loose comes from a blocked field and lands on a field, on the
    minus field or off the board."""
    if shot.blockade is None:
        return
    src, dst = shot.blockade
    if src not in state.blocked:
        raise refuse(state, "shot.blockade.from", f"{show(src)} is not blocked (R16)")
    if dst != "off" and dst not in state.rules.fields:
        raise refuse(state, "shot.blockade.to", f"expected a field, \"minus\" or \"off\", got "
                     f"{show(dst)}", malformed=True)
    if dst == src:
        raise refuse(state, "shot.blockade.to", "a blockade that stays on its field was not "
                     "knocked loose")


def check_unblock_name(state: State, shot: Shot) -> None:
    """R16: the right lifts a blockade from one of the shooter's opposite fields."""
    if shot.unblock is None:
        return
    opposite = state.rules.opposite(shot.by)
    if shot.unblock not in opposite:
        raise refuse(state, "shot.unblock", f"{show(shot.unblock)} is not a field {shot.by} "
                     f"shoots at ({', '.join(opposite)}) (R16)")


def check_reading(state: State, shot: Shot) -> None:
    """R2: a shot adds at most one skitt to the board and leaves no field below 0; an
    ordinary shot needs a skitt in the pot (R20)."""
    board = state.board
    total = 0
    lost = 0
    for name, d in shot.delta.items():
        if board[name] + d < 0:
            raise refuse(state, f"shot.delta.{name}", f"{d} would leave {board[name] + d} skitts "
                         f"on {name}, which holds {board[name]} (R2)")
        total += d
        if d < 0:
            lost -= d
    big_shot = shot.big is not None
    if big_shot:
        if total > 0:
            raise refuse(state, "shot.delta", f"a big-skitt shot adds no skitt to the board, but "
                         f"the changes add {total} (R2)")
    else:
        if state.pot < 1:
            raise refuse(state, "shot", "the pot is empty, no ordinary shot is possible (R20)")
        chain = 1 if shot.chain is not None else 0
        if total + chain > 1:
            extra = " plus the chain's skitt" if chain else ""
            raise refuse(state, "shot.delta", f"one shot adds at most one skitt to the board, but "
                         f"the changes add {total}{extra} (R2)")
    most = lost + (0 if big_shot else 1)
    if shot.off_board > most:
        raise refuse(state, "shot.off_board", f"{shot.off_board} skitts cannot have left the "
                     f"board; at most {most} were in play (R2)")


def check_shot(state: State, shot: Shot) -> None:
    """Every refusal for a shot, in the order a referee would name them."""
    check_turn(state, shot)
    check_variant_inputs(state, shot)
    check_names(state, shot)
    check_big_skitt(state, shot)
    check_knocked_big(state, shot)
    check_chain(state, shot)
    check_blockade(state, shot)
    check_unblock_name(state, shot)
    check_reading(state, shot)


def is_invalid(state: State, shot: Shot) -> str | None:
    """R8: why the shot is invalid (a net decrease on a home field, or the referee says so),
    or ``None`` for a valid shot."""
    if shot.invalid:
        return "declared invalid by the referee"
    home = state.rules.home(shot.by)
    for name, d in shot.delta.items():
        if d < 0 and name in home:
            return f"it took a skitt off {shot.by}'s own field {name}"
    return None
