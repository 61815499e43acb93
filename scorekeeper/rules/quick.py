"""The everyday shot, resolved without the scratch sheet.

Most shots of a match are plain: skitts on colour fields or the minus field, a skitt knocked
off a field, a Hit on Red point, a clearing, an invalid shot, a big skitt placed or missed.
Replaying a long match log is mostly such shots, so they get a short path that gives exactly
what the full resolution (:mod:`scorekeeper.rules.classic`) gives, and declines (returns
``None``) anything else: a round end, blockades and the flipping option's clearings, big
skitts knocked loose or landing on a field, chains, and anything the checks would refuse.
A property test compares the two paths on random positions and shots.

The words of an effect depend only on a few facts (who, which field, its count), so the
effects of the commonest shots are made once and shared: they are frozen values.
"""

from __future__ import annotations

from scorekeeper.effects import Effect, Reason, ordinal, where
from scorekeeper.fields import MINUS, RED, Player
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
_dict_set = dict.__setitem__
_OTHER: dict[str, Player] = {"black": "white", "white": "black"}

_MINUS_TEXT = "skitt on the minus field"
_OFF_TEXT = "skitt off the board"
_BACK = ("back",)
_CACHE_LIMIT = 4096
_one_skitt: dict[tuple[str, str, int, bool], tuple[Effect, ...]] = {}
"""Effects of a single skitt that scores, by (shooter, field, count before, red kept)."""
_minus: dict[tuple[str, bool], tuple[Effect, ...]] = {}
"""Effects of a single skitt on the minus field, by (shooter, at the −1 floor)."""


def _with(mapping: FrozenMap, key: str, value: int) -> FrozenMap:
    """``mapping.set({key: value})`` with one copy."""
    new: FrozenMap = FrozenMap(mapping)
    _dict_set(new, key, value)
    return new


def _successor(old: State, score: FrozenMap, board: FrozenMap, pot: int,
               effects: tuple[Effect, ...], big: FrozenMap | None = None,
               red: PendingRed | None = None, reopen: Reopen | None = None,
               must_change: bool = False) -> State:
    """The state after a plain shot: the turn passes and open choices lapse. (Equal to
    ``dataclasses.replace`` with these changes, at a third of the cost.)"""
    new = _new(State)
    _S_RULES(new, old.rules)
    _S_PHASE(new, "playing")
    _S_TURN(new, _OTHER[old.turn])  # type: ignore[index]
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
    _S_MUST(new, must_change)
    return new


def _remember(cache: dict, key: tuple, effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
    if len(cache) >= _CACHE_LIMIT:
        cache.clear()
    cache[key] = effects
    return effects


def quick_shot(state: State, shot: Shot) -> State | None:
    """The state after ``shot`` if it is a plain classic shot, else ``None``."""
    by = shot.by
    if (state.turn != by or state.phase != "playing" or state.blocked or state.pot < 2
            or shot.knocked_big is not None or shot.chain is not None
            or shot.blockade is not None or shot.unblock is not None):
        return None
    delta = shot.delta
    if shot.big is not None:
        return _big_shot(state, shot) if not delta and not shot.off_board else None
    if state.big[by] != "center":
        return None  # R11: the big skitt is in hand (refused)
    if shot.invalid or shot.off_board or len(delta) != 1:
        if not delta and not shot.off_board and not shot.invalid:
            return _successor(state, state.score, state.board, state.pot, ())
        return _plain(state, shot)
    ((name, d),) = delta.items()
    board = state.board
    if d != 1 or name not in board:
        return _plain(state, shot)
    # One skitt more on one field: the shot of most turns.
    score = state.score
    n0 = board[name]
    red = reopen = None
    if name == MINUS:
        at_floor = score[by] <= -1
        if at_floor:
            other = _OTHER[by]
            if score[other] + 1 >= state.rules.points_to_win_round:
                return None  # R6 at the floor gives the opponent the round
            new_score = _with(score, other, score[other] + 1)
        else:
            new_score = _with(score, by, score[by] - 1)
        effects = _minus.get((by, at_floor)) or _remember(
            _minus, (by, at_floor), (penalty_effect(by, _MINUS_TEXT, at_floor=at_floor),))
    else:
        side, _, color = name.partition(".")
        if n0 < 2:
            if side != by and n0 == 1 and board[f"{by}.{color}"] >= 2:
                return _plain(state, shot)  # R5: a clearing
            new_score, effects = score, ()
        else:
            scorer = by if side != by else _OTHER[by]
            if score[scorer] + 1 >= state.rules.points_to_win_round:
                return None  # the round ends
            if color == RED:
                if scorer != by or shot.red[:1] == _BACK:
                    return _plain(state, shot)  # R4, R7: choices on red
                if score[_OTHER[by]] > -1:  # R4: may still be changed to back
                    red = PendingRed(by, ("advance",), (True,))
                    reopen = Reopen(state, shot)
            new_score = _with(score, scorer, score[scorer] + 1)
            key = (by, name, n0, color == RED)
            effects = _one_skitt.get(key) or _remember(_one_skitt, key, _score_effects(
                by, scorer, name, n0, color == RED))
    return _successor(state, new_score, _with(board, name, n0 + 1), state.pot - 1, effects,
                      red=red, reopen=reopen)


def _score_effects(by: Player, scorer: Player, name: str, n0: int,
                   red: bool) -> tuple[Effect, ...]:
    text = f"{ordinal(n0 + 1)} skitt on {where(name)}"
    if red:
        return (point_effect(by, Reason.SCORING, f"{text} (Hit on Red: advance)"),)
    if scorer != by:
        return (point_effect(scorer, Reason.OWN_GOAL, f"own goal by {by}, {text}"),)
    return (point_effect(by, Reason.SCORING, text),)


def _plain(state: State, shot: Shot) -> State | None:
    """R10 for a classic shot without big skitts, chains or blockades, in a position
    without blockades: the same steps as :func:`~scorekeeper.rules.classic.resolve_classic`
    with only the parts such a shot can reach; ``None`` when the round ends or the checks
    would refuse it."""
    by, delta, rules = shot.by, shot.delta, state.rules
    board0 = state.board
    # The checks (R2, R20): known fields, no field below 0, at most one skitt added.
    total = lost = 0
    for name, d in delta.items():
        n0 = board0.get(name)
        if n0 is None or n0 + d < 0:
            return None
        total += d
        if d < 0:
            lost -= d
    if total > 1 or shot.off_board > lost + 1:
        return None
    # R8: an invalid shot changes nothing but the turn.
    home = rules.home(by)
    why = "declared invalid by the referee" if shot.invalid else next(
        (f"it took a skitt off {by}'s own field {name}" for name, d in delta.items()
         if d < 0 and name in home), None)
    if why is not None:
        effect = Effect("invalid", by, 0, Reason.INVALID,
                        f"{by}'s shot is invalid: {why}; restore the board as it was, the "
                        "turn passes")
        return _successor(state, state.score, board0, state.pot, (effect,), must_change=True)

    other = _OTHER[by]
    target = rules.points_to_win_round
    score = dict(state.score)
    board = dict(board0)
    for name, d in delta.items():
        board[name] += d
    pot = state.pot - total
    effects: list[Effect] = []
    red_logs: dict[Player, list[tuple[str, bool]]] = {by: [], other: []}
    must_change = False

    def points(scorer: Player, name: str, n0: int, n1: int, choices: tuple[str, ...],
               reason: Reason, prefix: str) -> bool:
        """R3/R4/R7 (scoring.field_points); False when the round ends."""
        loser = _OTHER[scorer]
        for n in range(max(n0, 2) + 1, n1 + 1):
            text = f"{prefix}{ordinal(n)} skitt on {where(name)}"
            if name.partition(".")[2] == RED:
                log = red_logs[scorer]
                choice = choices[len(log)] if len(log) < len(choices) else "advance"
                possible = score[loser] > -1
                if choice == "back" and possible:
                    log.append(("back", False))
                    score[loser] -= 1
                    effects.append(Effect("back", loser, -1, Reason.HIT_ON_RED,
                                          f"{loser} \u22121 (back): Hit on Red by {scorer}"))
                    continue
                log.append(("advance", possible))
                text += (f" (Hit on Red: {loser} is at \u22121, so back counts as advance)"
                         if choice == "back" else " (Hit on Red: advance)")
            score[scorer] += 1
            effects.append(point_effect(scorer, reason, text))
            if score[scorer] >= target:
                return False
        return True

    # 1. The shooter's points, opposite fields in colour order.
    for name in rules.opposite(by):
        d = delta.get(name, 0)
        if d > 0 and not points(by, name, board0[name], board0[name] + d, shot.red,
                                Reason.SCORING, ""):
            return None
    # 2. Clearing (R5).
    cleared: set[str] = set()
    for color in rules.colors:
        mine, theirs = f"{by}.{color}", f"{other}.{color}"
        n0 = board0[theirs]
        if board0[mine] < 2 or not n0 < 2 <= n0 + delta.get(theirs, 0):
            continue
        if rules.flipping:
            return None  # R16: the cleared fields are blocked
        for name in (theirs, mine):
            pot += board[name]
            board[name] = 0
        must_change = True
        cleared.add(color)
        effects.append(Effect("clear", None, 0, Reason.CLEARING,
                              f"cleared {color} on both sides"))
    # 3. The unblock right needs a blocked field: there is none. 4. Penalties (R6).
    for why in [_MINUS_TEXT] * max(0, delta.get(MINUS, 0)) + [_OFF_TEXT] * shot.off_board:
        if score[by] > -1:
            score[by] -= 1
            effects.append(penalty_effect(by, why, at_floor=False))
        else:
            score[other] += 1
            effects.append(penalty_effect(by, why, at_floor=True))
            if score[other] >= target:
                return None
    # 5. Own goals (R7).
    for name in home:
        d = delta.get(name, 0)
        if d > 0 and name.partition(".")[2] not in cleared and not points(
                other, name, board0[name], board0[name] + d, shot.opponent_red,
                Reason.OWN_GOAL, f"own goal by {by}, "):
            return None
    red = None
    for scorer in (by, other):  # rounds.pending_red
        log = red_logs[scorer]
        if log:
            if any(can for _, can in log):
                red = PendingRed(scorer, tuple(c for c, _ in log), tuple(can for _, can in log))
            break
    return _successor(state, FrozenMap(score), FrozenMap(board), pot, tuple(effects),
                      red=red, reopen=None if red is None else Reopen(state, shot),
                      must_change=must_change)


def _big_shot(state: State, shot: Shot) -> State | None:
    """R11: a big skitt placed in the centre or missed, nothing else moved."""
    by = shot.by
    if state.big[by] != "hand" or shot.invalid:
        return None
    if shot.big == "placed":
        effect = Effect("big", by, 0, Reason.OPENING, f"{by}'s big skitt is placed in the centre")
        return _successor(state, state.score, state.board, state.pot, (effect,),
                          big=_with(state.big, by, "center"))  # type: ignore[arg-type]
    if shot.big == "missed":
        effect = Effect("big", by, 0, Reason.OPENING,
                        f"{by}'s big skitt missed: still in hand, try again next turn")
        return _successor(state, state.score, state.board, state.pot, (effect,))
    return None
