"""One classic shot, resolved in the order of R10.

The shooter may order the effects of a shot; the scorekeeper always takes the order best
for the shooter:

1. the shooter's points (opposite fields in colour order, then chain points),
2. clearing,
3. the unblock right,
4. penalties,
5. the opponent's points (own goals, gift skitts from big skitts on colour fields).

The moment either player reaches the points that win the round, the round ends and the
rest of the shot is void. Before step 1 the shot's physical outcome is settled: where the
big skitts are (R11, R12), a blockade knocked loose (R16), the sensed changes, and skitts
that landed on blocked fields (R16).
"""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.effects import EffectKind, Reason, where
from scorekeeper.fields import MINUS, color_of, field
from scorekeeper.rules import big, flipping
from scorekeeper.rules.rounds import close_shot
from scorekeeper.rules.scoring import own_goals, score_point, shooter_points
from scorekeeper.rules.tally import Tally, Transition
from scorekeeper.shot import Shot
from scorekeeper.state import State


def judge_chain(t: Tally, shot: Shot, hit_blocked: list[str]) -> tuple[list[str], set[str]]:
    """R15: each chain field by its count after the shot's changes, before any clearing:
    2 or more scores a point; exactly 1 clears its colour when the shooter's home field of
    that colour holds 2 or more. Returns (fields that score, colours to clear)."""
    scoring: list[str] = []
    clears: set[str] = set()
    if shot.chain is None:
        return scoring, clears
    t.board_must_change = True  # the connecting skitt goes back to the pot
    t.note(EffectKind.CHAIN, t.shooter, Reason.CHAIN,
           f"chain between {where(shot.chain[0])} and {where(shot.chain[1])}: its skitt goes "
           "back to the pot", *shot.chain)
    for name in shot.chain:
        if name in hit_blocked:
            continue
        n = t.board[name]
        color = color_of(name) or ""
        if n >= 2:
            scoring.append(name)
        elif n == 1 and t.state.board[field(t.shooter, color)] >= 2:
            clears.add(color)
    return scoring, clears


def chain_points(t: Tally, fields: list[str], red: tuple[str, ...]) -> None:
    """R15, within R10 step 1: one point per chain field holding 2 or more, in the order
    given (Hit on Red applies)."""
    for name in fields:
        if t.is_round_over:
            return
        score_point(t, t.shooter, name, red, Reason.CHAIN, f"chain point on {where(name)}")


def clearing(t: Tally, delta: Mapping[str, int], unblocked: frozenset[str],
             chain_clears: set[str]) -> tuple[set[str], set[str]]:
    """R5 (R10 step 2): an opposite field taken from fewer than 2 to 2 or more, facing a home
    field of its colour that already held 2 or more, clears both fields; so does a chain
    field at exactly 1 (R15). With flipping both fields are then blocked (R16). Returns the
    colours cleared and the fields their clearing blocked."""
    s, o = t.shooter, t.opponent
    before = t.state.board
    cleared: set[str] = set()
    blocked: set[str] = set()
    for color in t.rules.colors:
        mine, theirs = field(s, color), field(o, color)
        if before[mine] < 2:
            continue
        n0 = before[theirs]
        reached = theirs in unblocked and n0 < 2 <= n0 + delta.get(theirs, 0)
        if not (reached or color in chain_clears):
            continue
        t.clear(theirs)
        t.clear(mine)
        cleared.add(color)
        t.note(EffectKind.CLEAR, None, Reason.CLEARING, f"cleared {color} on both sides",
               theirs, mine)
        if t.rules.flipping:
            blocked.update(name for name in (theirs, mine) if t.block(name))
    return cleared, blocked


def penalties(t: Tally, shot: Shot, hit_blocked: list[str]) -> None:
    """R6 (R10 step 4): one penalty point per skitt added to the minus field, per skitt off
    the board and per skitt on a blocked field."""
    reasons = ["skitt on the minus field"] * max(0, shot.delta.get(MINUS, 0))
    reasons += ["skitt off the board"] * shot.off_board
    reasons += [f"skitt on the blocked {where(name)}" for name in hit_blocked]
    for why in reasons:
        if t.is_round_over:
            return
        t.penalty(why)


def resolve_classic(state: State, shot: Shot) -> Transition:
    """A valid classic shot (already checked), resolved as R10 says."""
    t = Tally(state, shot.by)
    delta = shot.delta
    # The shot's physical outcome: big skitts, a loose blockade, the sensed changes.
    gifts = big.settle_big_skitts(t, shot)
    loose_blockade = flipping.knock_blockade_loose(t, shot)
    unblocked = state.rules.color_fields - t.blocked if t.blocked else state.rules.color_fields
    for name, d in delta.items():
        t.board[name] += d
        t.pot -= d
    hit_blocked = flipping.remove_landed_on_blocked(t, delta, shot.chain)
    chain_scoring, chain_clears = judge_chain(t, shot, hit_blocked)

    # 1. The shooter's points.
    shooter_points(t, delta, unblocked, shot.red)
    chain_points(t, chain_scoring, shot.red)
    if t.is_round_over:
        return close_shot(t, shot)

    # 2. Clearing.
    cleared, newly_blocked = clearing(t, delta, unblocked, chain_clears)
    if loose_blockade is not None:
        flipping.land_blockade(t, loose_blockade)

    # 3. The unblock right: any hit on an unblocked opposite field, that is a net increase
    # (one this shot clears too: a hit is a hit), a chain point, or a chain field the chain
    # clears (R15 with R16); never for this shot's own blockades.
    right = None
    if state.rules.flipping:
        earned = bool(chain_scoring) or bool(chain_clears) or any(
            delta.get(n, 0) > 0 and n in unblocked for n in state.rules.opposite(t.shooter))
        right = flipping.use_unblock_right(t, shot, earned, newly_blocked)

    # 4. Penalties.
    penalties(t, shot, hit_blocked)

    # 5. The opponent's points.
    if not t.is_round_over:
        own_goals(t, delta, unblocked, cleared, shot.opponent_red)
    big.give_gifts(t, gifts, shot.opponent_red)
    return close_shot(t, shot, None if t.is_round_over else right)
