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

from typing import Any

from scorekeeper.effects import Effect, Reason, ordinal, where
from scorekeeper.fields import MINUS, RED, Player
from scorekeeper.frozen import FrozenMap
from scorekeeper.rules.tally import penalty_effect, point_effect
from scorekeeper.shot import Shot
from scorekeeper.state import PendingRed, Reopen, State

_new = object.__new__


class _Draft:
    """A :class:`State` being filled in: the same slots, in the same order, without the
    frozen ``__setattr__``, so a successor is written with plain attribute stores and then
    becomes a ``State`` by ``__class__`` assignment (Python allows it between classes of the
    same layout). Three times cheaper than ``object.__setattr__`` for each of 17 fields."""

    __slots__ = State.__slots__


_dict_set = dict.__setitem__
_OTHER: dict[str, Player] = {"black": "white", "white": "black"}

_MINUS_TEXT = "skitt on the minus field"
_OFF_TEXT = "skitt off the board"
_CACHE_LIMIT = 4096
_one_skitt: dict[tuple[str, str, int, str], tuple[Effect, ...]] = {}
"""Effects of a single skitt that scores, by (shooter, field, count before, how: ``plain``,
or on red ``advance``, ``back`` or ``floor`` (back asked against a player at −1))."""
_clears: dict[str, tuple[Effect, ...]] = {}
"""Effects of a clearing by colour."""
_invalid: dict[tuple[str, str], tuple[Effect, ...]] = {}
"""Effects of an invalid shot, by (shooter, why)."""
_minus: dict[tuple[str, bool], tuple[Effect, ...]] = {}
"""Effects of a single skitt on the minus field, by (shooter, at the −1 floor)."""
_FIELD: dict[str, tuple[str, str]] = {}
"""(side, colour) by field name."""


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
    ``dataclasses.replace`` with these changes, at a tenth of the cost.)"""
    new = _new(_Draft)
    new.rules = old.rules
    new.phase = "playing"
    new.turn = _OTHER[old.turn]  # type: ignore[index]
    new.winner = None
    new.round = old.round
    new.rounds = old.rounds
    new.score = score
    new.round_wins = old.round_wins
    new.board = board
    new.blocked = old.blocked
    new.pot = pot
    new.big = old.big if big is None else big
    new.pending_red = red
    new.pending_unblock = None
    new.reopen = reopen
    new.last_effects = effects
    new.board_must_change = must_change
    new.__class__ = State  # type: ignore[assignment]
    return new  # type: ignore[return-value]


def _remember(cache: dict[Any, tuple[Effect, ...]], key: object,
              effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
    """Keep ``effects`` for ``key`` (a cache stays small: counts on a field are few)."""
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
    if shot.invalid or shot.off_board:
        return _plain(state, shot)
    if not delta:
        return _successor(state, state.score, state.board, state.pot, ())
    # At most one skitt more on one field, and skitts knocked off fields that are not the
    # shooter's (R9: no effect): the shot of most turns.
    board = state.board
    new_board: FrozenMap = FrozenMap(board)
    name = None
    n0 = total = 0
    home = None
    for f, d in delta.items():
        n = board.get(f)
        if n is None:
            return None  # an unknown field (refused)
        if d == 1 and name is None:
            name, n0 = f, n
        elif d < 0:
            if home is None:
                home = state.rules.home(by)
            if f in home or n + d < 0:
                return _plain(state, shot)  # R8, or refused (R2)
        elif d:
            return _plain(state, shot)
        total += d
        _dict_set(new_board, f, n + d)
    pot = state.pot - total
    if name is None:
        return _successor(state, state.score, new_board, pot, ())
    score = state.score
    red = reopen = None
    if name == MINUS:
        at_floor = score[by] <= -1
        if at_floor:
            other = _OTHER[by]
            if score[other] + 1 >= state.rules.points_to_win_round:
                return None  # R6 at the floor gives the opponent the round
            new_score: FrozenMap = FrozenMap(score)
            _dict_set(new_score, other, score[other] + 1)
        else:
            new_score = FrozenMap(score)
            _dict_set(new_score, by, score[by] - 1)
        effects = _minus.get((by, at_floor)) or _remember(
            _minus, (by, at_floor), (penalty_effect(by, _MINUS_TEXT, at_floor=at_floor),))
    else:
        side, color = _FIELD.get(name) or _split(name)
        if n0 < 2:
            new_score, effects = score, ()
            if side != by and n0 == 1:
                mine = f"{by}.{color}"
                if board[mine] >= 2:  # R5: a clearing
                    if state.rules.flipping:
                        return None  # R16: the cleared fields are blocked
                    pot += 2 + new_board[mine]
                    _dict_set(new_board, name, 0)
                    _dict_set(new_board, mine, 0)
                    effects = _clears.get(color) or _remember(_clears, color, (Effect(
                        "clear", None, 0, Reason.CLEARING, f"cleared {color} on both sides"),))
                    return _successor(state, score, new_board, pot, effects, must_change=True)
        else:
            # R3, R7: the third skitt on and on scores for whoever collects there; on red
            # (R4) it is the scorer's choice of advance or back.
            scorer, choices = (by, shot.red) if side != by else (_OTHER[by], shot.opponent_red)
            loser = _OTHER[scorer]
            how = "plain"
            if color == RED:
                possible = score[loser] > -1
                choice = choices[0] if choices else "advance"
                how = "advance" if choice != "back" else "back" if possible else "floor"
                if possible and how == "advance":
                    red = PendingRed(scorer, ("advance",), (True,))
                    reopen = Reopen(state, shot)
            new_score = FrozenMap(score)
            if how == "back":
                _dict_set(new_score, loser, score[loser] - 1)
            elif score[scorer] + 1 >= state.rules.points_to_win_round:
                return None  # the round ends
            else:
                _dict_set(new_score, scorer, score[scorer] + 1)
            key = (by, name, n0, how)
            effects = _one_skitt.get(key) or _remember(_one_skitt, key, _score_effects(
                by, scorer, name, n0, how))
    return _successor(state, new_score, new_board, pot, effects, red=red, reopen=reopen)


def _split(name: str) -> tuple[str, str]:
    """(side, colour) of a colour field."""
    side, _, color = name.partition(".")
    if len(_FIELD) >= _CACHE_LIMIT:
        _FIELD.clear()
    _FIELD[name] = (side, color)
    return side, color


def _score_effects(by: Player, scorer: Player, name: str, n0: int,
                   how: str) -> tuple[Effect, ...]:
    """What one more skitt on a field holding ``n0`` scores (scoring.score_point)."""
    loser = _OTHER[scorer]
    if how == "back":
        return (Effect("back", loser, -1, Reason.HIT_ON_RED,
                       f"{loser} \u22121 (back): Hit on Red by {scorer}"),)
    text = f"{ordinal(n0 + 1)} skitt on {where(name)}"
    if how == "advance":
        text += " (Hit on Red: advance)"
    elif how == "floor":
        text += f" (Hit on Red: {loser} is at \u22121, so back counts as advance)"
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
    off_board = shot.off_board
    if total > 1 or off_board > lost + 1:
        return None
    # R8: an invalid shot changes nothing but the turn.
    home = rules.home(by)
    why = "declared invalid by the referee" if shot.invalid else None
    if why is None and lost:
        for name, d in delta.items():
            if d < 0 and name in home:
                why = f"it took a skitt off {by}'s own field {name}"
                break
    if why is not None:
        effects = _invalid.get((by, why)) or _remember(_invalid, (by, why), (Effect(
            "invalid", by, 0, Reason.INVALID,
            f"{by}'s shot is invalid: {why}; restore the board as it was, the turn passes"),))
        return _successor(state, state.score, board0, state.pot, effects, must_change=True)

    other = _OTHER[by]
    target = rules.points_to_win_round
    board = dict(board0)
    for name, d in delta.items():
        board[name] += d
    pot = state.pot - total
    score = dict(state.score)
    effects: list[Effect] = []
    red_logs: dict[Player, list[tuple[str, bool]]] = {by: [], other: []}

    def points(scorer: Player, name: str, n0: int, n1: int, choices: tuple[str, ...],
               reason: Reason, prefix: str) -> bool:
        """R3/R4/R7 (scoring.field_points); False when the round ends."""
        loser = _OTHER[scorer]
        is_red = name.partition(".")[2] == RED
        for n in range(max(n0, 2) + 1, n1 + 1):
            text = f"{prefix}{ordinal(n)} skitt on {where(name)}"
            if is_red:
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

    # 1. The shooter's points, opposite fields in colour order (a field scores from its
    # third skitt on); note the clearings they make.
    clears: list[int] = []
    for k, name in enumerate(rules.opposite(by)):
        d = delta.get(name, 0)
        if d <= 0:
            continue
        n0 = board0[name]
        if n0 + d > 2 and not points(by, name, n0, n0 + d, shot.red, Reason.SCORING, ""):
            return None
        if n0 < 2 <= n0 + d and board0[home[k]] >= 2:
            clears.append(k)
    # 2. Clearing (R5), in colour order.
    for k in clears:
        if rules.flipping:
            return None  # R16: the cleared fields are blocked
        for name in (rules.opposite(by)[k], home[k]):
            pot += board[name]
            board[name] = 0
        color = rules.colors[k]
        effects.extend(_clears.get(color) or _remember(_clears, color, (Effect(
            "clear", None, 0, Reason.CLEARING, f"cleared {color} on both sides"),)))
    # 3. The unblock right needs a blocked field: there is none. 4. Penalties (R6).
    minus = delta.get(MINUS, 0)
    if minus > 0 or off_board:
        for why in [_MINUS_TEXT] * max(0, minus) + [_OFF_TEXT] * off_board:
            if score[by] > -1:
                score[by] -= 1
                effects.append(penalty_effect(by, why, at_floor=False))
            else:
                score[other] += 1
                effects.append(penalty_effect(by, why, at_floor=True))
                if score[other] >= target:
                    return None
    # 5. Own goals (R7), except on a colour this shot cleared.
    for k, name in enumerate(home):
        d = delta.get(name, 0)
        if d > 0 and board0[name] + d > 2 and k not in clears and not points(
                other, name, board0[name], board0[name] + d, shot.opponent_red,
                Reason.OWN_GOAL, f"own goal by {by}, "):
            return None
    red = None
    for scorer in (by, other):  # rounds.pending_red
        log = red_logs[scorer]
        if any(can for _, can in log):
            red = PendingRed(scorer, tuple(c for c, _ in log), tuple(can for _, can in log))
            break
    return _successor(state, FrozenMap(score) if effects else state.score, FrozenMap(board),
                      pot, tuple(effects), red=red,
                      reopen=None if red is None else Reopen(state, shot),
                      must_change=bool(clears))


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
