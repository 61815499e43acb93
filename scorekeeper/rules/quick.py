"""The everyday shot, resolved without the scratch sheet.

Most shots of a match are plain: a skitt that lies loose, one skitt on a field that scores
at most one ordinary point, a skitt on the minus field. Replaying a long match log is
mostly such shots, so they get a short path that gives exactly what the full resolution
(:mod:`scorekeeper.rules.classic`) gives, and declines (returns ``None``) anything else:
a red point, a clearing, a round end, blockades, big skitts, chains, anything the checks
might refuse. A property test compares the two paths on random positions.
"""

from __future__ import annotations

from scorekeeper.effects import Effect, Reason, ordinal, where
from scorekeeper.fields import MINUS, RED, opponent
from scorekeeper.frozen import FrozenMap
from scorekeeper.rules.tally import penalty_effect, point_effect
from scorekeeper.shot import Shot
from scorekeeper.state import PendingRed, Reopen, State

_new = object.__new__
_slot = {name: State.__dict__[name].__set__ for name in State.__dataclass_fields__}
_S_RULES, _S_PHASE, _S_TURN, _S_WINNER = (_slot[k] for k in ("rules", "phase", "turn", "winner"))
_S_ROUND, _S_ROUNDS, _S_SCORE, _S_WINS = (_slot[k] for k in ("round", "rounds", "score",
                                                              "round_wins"))
_S_BOARD, _S_BLOCKED, _S_POT, _S_BIG = (_slot[k] for k in ("board", "blocked", "pot", "big"))
_S_RED, _S_UNBLOCK, _S_REOPEN = (_slot[k] for k in ("pending_red", "pending_unblock", "reopen"))
_S_EFFECTS, _S_MUST = _slot["last_effects"], _slot["board_must_change"]


def _successor(old: State, score: FrozenMap, board: FrozenMap, pot: int,
               effects: tuple[Effect, ...], big: FrozenMap | None = None,
               red: PendingRed | None = None, reopen: Reopen | None = None) -> State:
    """The state after a plain shot: the turn passes and open choices lapse. (Equal to
    ``dataclasses.replace`` with these changes, at a third of the cost.)"""
    new = _new(State)
    _S_RULES(new, old.rules)
    _S_PHASE(new, "playing")
    _S_TURN(new, opponent(old.turn))  # type: ignore[arg-type]
    _S_WINNER(new, None)
    _S_ROUND(new, old.round)
    _S_ROUNDS(new, old.rounds)
    _S_SCORE(new, score)
    _S_WINS(new, old.round_wins)
    _S_BOARD(new, board)
    _S_BLOCKED(new, old.blocked)
    _S_POT(new, pot)
    _S_BIG(new, old.big if big is None else big)
    _S_RED(new, red)
    _S_UNBLOCK(new, None)
    _S_REOPEN(new, reopen)
    _S_EFFECTS(new, effects)
    _S_MUST(new, False)
    return new


def quick_shot(state: State, shot: Shot) -> State | None:
    """The state after ``shot`` if it is a plain classic shot, else ``None``."""
    by = shot.by
    if (state.turn != by or state.phase != "playing" or state.blocked or state.pot < 2
            or shot.knocked_big is not None or shot.chain is not None
            or shot.blockade is not None or shot.unblock is not None or shot.invalid
            or shot.off_board):
        return None
    delta = shot.delta
    if shot.big is not None:
        return _big_shot(state, shot) if not delta else None
    if state.big[by] != "center":
        return None
    if not delta:
        return _successor(state, state.score, state.board, state.pot, ())
    if len(delta) != 1:
        return None
    ((name, d),) = delta.items()
    board = state.board
    if d != 1 or name not in board:
        return None
    rules = state.rules
    target = rules.points_to_win_round
    score = state.score
    n0 = board[name]
    other = opponent(by)
    red = reopen = None
    if name == MINUS:
        if score[by] > -1:
            new_score = score.set({by: score[by] - 1})
            effect = penalty_effect(by, "skitt on the minus field", at_floor=False)
        else:
            if score[other] + 1 >= target:
                return None
            new_score = score.set({other: score[other] + 1})
            effect = penalty_effect(by, "skitt on the minus field", at_floor=True)
        effects: tuple[Effect, ...] = (effect,)
    else:
        side, _, color = name.partition(".")
        if n0 < 2:
            home = f"{by}.{color}"
            if side == other and n0 == 1 and board[home] >= 2:
                return None  # R5: a clearing
            new_score, effects = score, ()
        else:
            scorer = by if side == other else other
            if score[scorer] + 1 >= target:
                return None  # the round ends
            new_score = score.set({scorer: score[scorer] + 1})
            text = f"{ordinal(n0 + 1)} skitt on {where(name)}"
            if scorer != by:
                if color == RED:
                    return None
                effects = (point_effect(other, Reason.OWN_GOAL, f"own goal by {by}, {text}"),)
            elif color != RED:
                effects = (point_effect(by, Reason.SCORING, text),)
            else:
                if shot.red[:1] == ("back",):
                    return None
                effects = (point_effect(by, Reason.SCORING, f"{text} (Hit on Red: advance)"),)
                if score[other] > -1:  # R4: may still be changed to back
                    red = PendingRed(by, ("advance",), (True,))
                    reopen = Reopen(state, shot)
    new_board = board.set({name: n0 + 1})
    return _successor(state, new_score, new_board, state.pot - 1, effects, red=red,
                      reopen=reopen)


def _big_shot(state: State, shot: Shot) -> State | None:
    """R11: a big skitt placed in the centre or missed, nothing else moved."""
    by = shot.by
    if state.big[by] != "hand":
        return None
    if shot.big == "placed":
        effect = Effect("big", by, 0, Reason.OPENING, f"{by}'s big skitt is placed in the centre")
        return _successor(state, state.score, state.board, state.pot, (effect,),
                          big=state.big.set({by: "center"}))
    if shot.big == "missed":
        effect = Effect("big", by, 0, Reason.OPENING,
                        f"{by}'s big skitt missed: still in hand, try again next turn")
        return _successor(state, state.score, state.board, state.pot, (effect,))
    return None
