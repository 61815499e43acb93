"""Points on colour fields: R3 scoring, R4 Hit on Red, R7 own goals, R15 chain points.

A field scores for the player who collects there: the shooter on the opposite fields
(R3), the opponent on the shooter's home fields (R7, and gift skitts of R11/R12). The first
two skitts on a field score nothing; each skitt beyond the second scores one point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

from scorekeeper.effects import EffectKind, Reason, ordinal, where
from scorekeeper.fields import RED, Player, color_of, opponent
from scorekeeper.phrases import slot
from scorekeeper.rules.tally import Tally
from scorekeeper.shot import RedChoice


def points_for(n0: int, n1: int) -> int:
    """R3: a field going from ``n0`` to ``n1`` skitts scores ``max(0, n1 − max(n0, 2))``."""
    return max(0, n1 - max(n0, 2))


def is_red(field_name: str) -> bool:
    """The first colour is always red (R4)."""
    return color_of(field_name) == RED


def score_point(t: Tally, scorer: Player, field_name: str, choices: Sequence[str],
                reason: Reason, text: str, by: Player | None = None) -> None:
    """One point for ``scorer`` on ``field_name``; on red it is the scorer's Hit on Red
    choice (R4): ``advance`` (+1 for the scorer) or ``back`` (−1 for the other player, not
    possible against a player at −1, then it counts as ``advance``). ``by``: whose own goal
    or gift it is."""
    if not is_red(field_name):
        t.gain(scorer, reason, text, (field_name,), by=by)
        return
    other = opponent(scorer)
    log = t.red_log[scorer]
    choice = choices[len(log)] if len(log) < len(choices) else RedChoice.ADVANCE
    possible = t.can_be_set_back(other)
    if choice == RedChoice.BACK and possible:
        log.append((RedChoice.BACK, False))
        t.set_back(other, scorer, field_name)
        return
    log.append((RedChoice.ADVANCE, possible))
    if choice == RedChoice.BACK:
        text += f" (Hit on Red: {slot(other)} is at \u22121, so back counts as advance)"
    else:
        text += " (Hit on Red: advance)"
    t.gain(scorer, reason, text, (field_name,), red=choice, by=by)  # type: ignore[arg-type]


def field_points(t: Tally, scorer: Player, field_name: str, n0: int, n1: int,
                 choices: Sequence[str], reason: Reason, prefix: str = "",
                 by: Player | None = None) -> None:
    """R3 (or R7 for the opponent, ``by`` the shooter whose home field it is): each skitt
    beyond the second, one point at a time, until the round is won (R10)."""
    first = max(n0, 2)
    for k in range(points_for(n0, n1)):
        if t.is_round_over:
            return
        text = f"{prefix}{ordinal(first + k + 1)} skitt on {where(field_name)}"
        score_point(t, scorer, field_name, choices, reason, text, by)


def shooter_points(t: Tally, delta: Mapping[str, int], unblocked: Set[str],
                   red: Sequence[str]) -> bool:
    """R10 step 1, fields in colour order: the shooter's points on unblocked opposite fields.
    Returns True when the shot made a net increase on an unblocked opposite field."""
    increased = False
    for name in t.rules.opposite(t.shooter):
        d = delta.get(name, 0)
        if d <= 0 or name not in unblocked:
            continue
        increased = True
        n0 = t.state.board[name]
        field_points(t, t.shooter, name, n0, n0 + d, red, Reason.SCORING)
        if t.is_round_over:
            break
    return increased


def own_goals(t: Tally, delta: Mapping[str, int], unblocked: Set[str], cleared: Set[str],
              choices: Sequence[str]) -> None:
    """R7 (R10 step 5): skitts the shot added to the shooter's home fields count for the
    opponent as R3 would; none on a field this shot cleared. Like a gift skitt, they are
    counted on the board as the shot's earlier effects left it: the field goes to what it
    holds now from what it held before the shot, or from what it held before the own goal
    if more (a skitt a loose blockade took is gone, a gift given first is not counted
    twice)."""
    for name in t.rules.home(t.shooter):
        d = delta.get(name, 0)
        if d <= 0 or name not in unblocked or color_of(name) in cleared:
            continue
        n1 = t.board[name]
        n0 = max(t.state.board[name], n1 - d)
        field_points(t, t.opponent, name, n0, n1, choices, Reason.OWN_GOAL,
                     prefix=f"own goal by {slot(t.shooter)}, ", by=t.shooter)
        if t.is_round_over:
            return


def gift_skitt(t: Tally, home_field: str, why: str, choices: Sequence[str],
               reason: Reason) -> None:
    """R11, R12: a skitt from the pot onto the shooter's home field, scored for the opponent
    as an own goal (R7). Not given when the pot is empty (R20) or the field is blocked."""
    o = t.opponent
    if not t.gift(home_field):
        cause = "the pot is empty" if t.pot < 1 else "the field is blocked"
        t.note(EffectKind.GIFT, o, reason,
               f"no skitt for {slot(o)} on {where(home_field)}: {cause} ({why})", home_field)
        return
    t.note(EffectKind.GIFT, o, reason, f"{slot(o)} receives a skitt on {where(home_field)} "
           f"({why})", home_field)
    n1 = t.board[home_field]
    field_points(t, o, home_field, n1 - 1, n1, choices, reason, by=t.shooter)


__all__ = ["field_points", "gift_skitt", "is_red", "own_goals", "points_for", "score_point",
           "shooter_points"]
