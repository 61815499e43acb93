"""Refusals: is this shot possible at all, here and now? (R1, R2, R11, R16, R17, R20)

A shot is checked completely before anything is resolved, so that a refused step changes
nothing. Each check is named for the ruling it enforces; each message names the bad key or
value and ends with a summary of the state it was tried in.
"""

from __future__ import annotations

from scorekeeper.checks import show
from scorekeeper.errors import (
    Field,
    Fields,
    IllegalEventError,
    MalformedEventError,
    Player,
    Why,
    because,
)
from scorekeeper.fields import MINUS
from scorekeeper.options import BigState
from scorekeeper.shot import Landing, Shot
from scorekeeper.state import State

BIG_OUTCOMES = ("placed", "missed", "off")
TRIO_ABSENT = {
    "big": because("Trio has no big skitts", rule="R17"),
    "knocked_big": because("Trio has no big skitts to knock loose", rule="R17"),
    "chain": because("Trio has no chains", rule="R17"),
    "chain_from": because("Trio has no chains", rule="R17"),
    "blockade": because("Trio has no blockades", rule="R17"),
    "red": because("Trio has no Hit on Red", rule="R17"),
    "opponent_red": because("Trio has no Hit on Red", rule="R17"),
    "unblock": because("Trio has no unblock right", rule="R17"),
}
"""The inputs Trio does not know, each with its refusal (R17)."""


def refuse(state: State, key: str, template: str | Why, *,
           rule: str | tuple[str, ...] | None = None, malformed: bool = False,
           **values: object) -> IllegalEventError:
    """The refusal of ``key`` in a step, with the state it was tried in (``template`` and
    ``values``: :class:`~scorekeeper.errors.Why`)."""
    cls = MalformedEventError if malformed else IllegalEventError
    return cls.at(key, template, rule=rule, summary=state.summary(), **values)


def check_turn(state: State, shot: Shot) -> None:
    """R1: one shot a turn, by the player due; none during a shoot-off or after the game."""
    if state.is_game_over:
        raise refuse(state, "shot.by", "{who} cannot shoot, the game is over (undo first)",
                     rule="R13", who=Player(shot.by))
    if state.shootoff_due:
        raise refuse(state, "shot.by", "{who} cannot shoot, a shoot-off is due", rule="R14",
                     who=Player(shot.by))
    if shot.by != state.turn:
        raise refuse(state, "shot.by", "{who} shot out of turn, {due} is due", rule="R1",
                     who=Player(shot.by), due=Player(state.turn or ""))


def check_names(state: State, shot: Shot) -> None:
    """Every field named in the shot is one of the seven."""
    fields = state.rules.fields
    for name in shot.delta:
        if name not in fields:
            raise refuse(state, "shot.delta", "unknown field {got}: expected one of {fields}",
                         malformed=True, got=show(name), fields=Fields(fields))


def check_variant_inputs(state: State, shot: Shot) -> None:
    """R17: Trio has no big skitts, chains, blockades or Hit on Red; R16, R20: blockades only
    with flipping."""
    rules = state.rules
    if rules.is_trio:
        for key in TRIO_ABSENT:
            if getattr(shot, key):
                raise refuse(state, "shot." + key, TRIO_ABSENT[key])
        return
    if not rules.flipping:
        for key in ("blockade", "unblock"):
            if getattr(shot, key):
                raise refuse(state, "shot." + key, "blockades exist only with the flipping "
                             "option", rule=("R16", "R20"))
    if shot.minus_hit:
        raise refuse(state, "shot.minus_hit", "only Trio counts hits on the minus field; here a "
                     "skitt on it is a penalty: enter it in the changes", rule="R17")


def check_big_skitt(state: State, shot: Shot) -> None:
    """R11, R12: a player with the big skitt in hand must shoot it, and only then."""
    if state.rules.is_trio:
        return
    holds = state.big[shot.by] == BigState.HAND
    if shot.big is None:
        if holds:
            raise refuse(state, "shot.big", "{who} must shoot the big skitt first: it is in "
                         "hand", rule=("R11", "R12"), who=Player(shot.by))
        return
    if not holds:
        raise refuse(state, "shot.big", "{who}'s big skitt is in the centre, not in hand",
                     rule="R11", who=Player(shot.by))
    if shot.big == MINUS:
        raise refuse(state, "shot.big", "a big skitt on the minus field is \"placed\"",
                     rule="R20")
    if shot.big not in BIG_OUTCOMES and shot.big not in state.rules.color_fields:
        raise refuse(state, "shot.big", "expected \"placed\", \"missed\", \"off\" or a colour "
                     "field, got {got}", malformed=True, got=show(shot.big))
    if shot.chain is not None:
        raise refuse(state, "shot.chain", "a big-skitt shot has no skitt to make a chain",
                     rule="R15")


def check_knocked_big(state: State, shot: Shot) -> None:
    """R12: only a big skitt in the centre can be knocked loose; it lands loose or on a
    colour field (on the minus field it is ``loose``, R20)."""
    knocked = shot.knocked_big
    if not knocked:
        return
    for landing in knocked:
        if landing == MINUS:
            raise refuse(state, "shot.knocked_big", "a big skitt on the minus field is "
                         "\"loose\"", rule="R20")
        if landing not in (Landing.LOOSE, Landing.OFF) and landing not in state.rules.color_fields:
            raise refuse(state, "shot.knocked_big", "expected \"loose\", \"off\" or a colour "
                         "field, got {got}", malformed=True, got=show(landing))
    in_centre = sum(1 for v in state.big.values() if v == BigState.CENTER)
    if in_centre == 0:
        raise refuse(state, "shot.knocked_big", "no big skitt is in the centre to knock loose",
                     rule="R12")
    if len(knocked) > in_centre:
        raise refuse(state, "shot.knocked_big", "{n} big skitts knocked loose, but only {m} big "
                     "skitt is in the centre", rule="R12", n=len(knocked), m=in_centre)


def check_chain(state: State, shot: Shot) -> None:
    """R15: a chain joins two different opposite fields of the shooter."""
    if shot.chain is None:
        return
    f1, f2 = shot.chain
    opposite = state.rules.opposite(shot.by)
    for f in (f1, f2):
        if f not in opposite:
            raise refuse(state, "shot.chain", "{got} is not a field {who} shoots at ({fields})",
                         rule="R15", got=show(f), who=Player(shot.by), fields=Fields(opposite))
    if f1 == f2:
        raise refuse(state, "shot.chain", "a chain joins two different fields, got {field} "
                     "twice", rule="R15", field=Field(f1))


def check_chain_from(state: State, shot: Shot) -> None:
    """R15: a chain made by a skitt the shot moved names the field that skitt left, whose
    count fell by it (the skitt lies between the two fields now, in neither count)."""
    src = shot.chain_from
    if src is None:
        return
    if shot.chain is None:
        raise refuse(state, "shot.chain_from", "names where a chain's skitt came from, but the "
                     "shot has no chain: enter the chain's two fields too", rule="R15")
    if src not in state.rules.fields:
        raise refuse(state, "shot.chain_from", "unknown field {got}: expected one of {fields}",
                     malformed=True, got=show(src), fields=Fields(state.rules.fields))
    if shot.delta.get(src, 0) >= 0:
        raise refuse(state, "shot.chain_from", "the chain's skitt left {field}, so its count "
                     "must fall: enter the change there too, or leave this out when the shot's "
                     "own skitt made the chain", rule="R15", field=Field(src))


def check_blockade(state: State, shot: Shot) -> None:
    """R16: each blockade knocked loose comes from a blocked field (each field once) and
    lands on a field, on the minus field or off the board."""
    seen: set[str] = set()
    for src, dst in shot.blockade:
        if src not in state.blocked:
            raise refuse(state, "shot.blockade.from", "{got} is not blocked", rule="R16",
                         got=show(src))
        if src in seen:
            raise refuse(state, "shot.blockade.from", "the blockade on {field} was knocked "
                         "loose once: name each blockade once", rule="R16", field=Field(src))
        seen.add(src)
        if dst != Landing.OFF and dst not in state.rules.fields:
            raise refuse(state, "shot.blockade.to", "expected a field, \"minus\" or \"off\", "
                         "got {got}", malformed=True, got=show(dst))
        if dst == src:
            raise refuse(state, "shot.blockade.to", "a blockade that stays on its field was "
                         "not knocked loose", rule="R16")


def check_unblock_name(state: State, shot: Shot) -> None:
    """R16: the right lifts a blockade from one of the shooter's opposite fields."""
    if shot.unblock is None:
        return
    opposite = state.rules.opposite(shot.by)
    if shot.unblock not in opposite:
        raise refuse(state, "shot.unblock", "{got} is not a field {who} shoots at ({fields})",
                     rule="R16", got=show(shot.unblock), who=Player(shot.by),
                     fields=Fields(opposite))


def check_reading(state: State, shot: Shot) -> None:
    """R2: a shot adds at most one skitt to the board and leaves no field below 0; an
    ordinary shot needs a skitt in the pot (R20)."""
    board = state.board
    total = 0
    lost = 0
    for name, d in shot.delta.items():
        if board[name] + d < 0:
            raise refuse(state, "shot.delta." + name, "{d} would leave {left} skitts on "
                         "{field}, which holds {n}", rule="R2", d=d, left=board[name] + d,
                         field=Field(name), n=board[name])
        total += d
        if d < 0:
            lost -= d
    big_shot = shot.big is not None
    if big_shot:
        if total > 0:
            raise refuse(state, "shot.delta", "a big-skitt shot adds no skitt to the board, "
                         "but the changes add {n}", rule="R2", n=total)
    else:
        if state.pot + state.kept < 1:
            raise refuse(state, "shot", "the pot is empty, no ordinary shot is possible",
                         rule="R20")
        chain = 1 if shot.chain is not None else 0
        if total + chain > 1:
            if chain:
                raise refuse(state, "shot.delta", "one shot adds at most one skitt to the "
                             "board, but the changes add {n} plus the chain's skitt", rule="R2",
                             n=total)
            raise refuse(state, "shot.delta", "one shot adds at most one skitt to the board, "
                         "but the changes add {n}", rule="R2", n=total)
    most = lost + (0 if big_shot else 1)
    if shot.off_board > most:
        raise refuse(state, "shot.off_board", "{n} skitts cannot have left the board; at most "
                     "{most} were in play", rule="R2", n=shot.off_board, most=most)


def check_shot(state: State, shot: Shot) -> None:
    """Every refusal for a shot, in the order a referee would name them."""
    check_turn(state, shot)
    check_variant_inputs(state, shot)
    check_names(state, shot)
    check_big_skitt(state, shot)
    check_knocked_big(state, shot)
    check_chain(state, shot)
    check_chain_from(state, shot)
    check_blockade(state, shot)
    check_unblock_name(state, shot)
    check_reading(state, shot)


def is_invalid(state: State, shot: Shot) -> Why | None:
    """R8: why the shot is invalid (a net decrease on a home field, or the referee says so),
    or ``None`` for a valid shot."""
    if shot.invalid:
        return because("declared invalid by the referee")
    home = state.rules.home(shot.by)
    for name, d in shot.delta.items():
        if d < 0 and name in home:
            return because("it took a skitt off {who}'s own field {field}", who=Player(shot.by),
                           field=Field(name))
    return None
