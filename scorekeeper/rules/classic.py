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

import itertools
from collections.abc import Callable, Iterator, Mapping
from enum import Enum
from typing import NamedTuple

from scorekeeper.effects import EffectKind, Reason, where
from scorekeeper.errors import IllegalEventError
from scorekeeper.fields import MINUS, Player, color_of, field, opponent
from scorekeeper.phrases import slot
from scorekeeper.rules import big, flipping
from scorekeeper.rules.rounds import close_shot
from scorekeeper.rules.scoring import own_goals, points_for, score_point, shooter_points
from scorekeeper.rules.tally import Tally, Transition
from scorekeeper.shot import Shot
from scorekeeper.state import PendingUnblock, State


def judge_chain(t: Tally, shot: Shot, hit_blocked: list[str]) -> tuple[list[str], set[str]]:
    """R15: each chain field by its count after the shot's changes, before any clearing:
    2 or more scores a point; exactly 1 clears its colour when the shooter's home field of
    that colour holds 2 or more. Returns (fields that score, colours to clear)."""
    scoring: list[str] = []
    clears: set[str] = set()
    if shot.chain is None:
        return scoring, clears
    t.board_must_change = True  # the connecting skitt goes back to the pot
    made_by = "" if shot.chain_from is None else \
        f", made by a skitt moved from {where(shot.chain_from)}"
    t.note(EffectKind.CHAIN, t.shooter, Reason.CHAIN,
           f"chain between {where(shot.chain[0])} and {where(shot.chain[1])}{made_by}: its "
           "skitt goes back to the pot", *shot.chain)
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


def colours_to_clear(t: Tally, delta: Mapping[str, int], unblocked: frozenset[str],
                     chain_clears: set[str]) -> list[str]:
    """R5: the colours a shot clears, judged on the board before the shot and its changes
    (so in any order of effects): an opposite field taken from fewer than 2 to 2 or more,
    facing a home field of its colour that already held 2 or more; or a chain field at
    exactly 1 (R15)."""
    s, o = t.shooter, t.opponent
    before = t.state.board
    out: list[str] = []
    for color in t.rules.colors:
        if before[field(s, color)] < 2:
            continue
        theirs = field(o, color)
        n0 = before[theirs]
        reached = theirs in unblocked and n0 < 2 <= n0 + delta.get(theirs, 0)
        if reached or color in chain_clears:
            out.append(color)
    return out


def clearing(t: Tally, colours: list[str]) -> tuple[set[str], set[str]]:
    """R5 (R10 step 2): both fields of each colour :func:`colours_to_clear` found are
    cleared; with flipping both are then blocked (R16). Returns the colours cleared and the
    fields their clearing blocked."""
    s, o = t.shooter, t.opponent
    cleared: set[str] = set()
    blocked: set[str] = set()
    for color in colours:
        mine, theirs = field(s, color), field(o, color)
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
    reasons += ["big skitt off the board"] * big.off_board(shot)
    reasons += [f"skitt on the blocked {where(name)}" for name in hit_blocked]
    for why in reasons:
        if t.is_round_over:
            return
        t.penalty(why)


class _Run:
    """One try of a shot's effects in one order: its tally and what the steps pass on."""

    __slots__ = ("t", "newly_blocked", "right")

    def __init__(self, t: Tally) -> None:
        self.t = t
        self.newly_blocked: set[str] = set()
        self.right: PendingUnblock | None = None


class _StepKind(Enum):
    """What one of R10's steps does."""

    POINTS = "points"
    CLEARING = "clearing"
    UNBLOCK = "unblock"
    """A blockade lifted now."""
    OFFER = "offer"
    """The right to lift a blockade, left for later."""
    PENALTIES = "penalties"
    OWN_GOALS = "own_goals"
    GIFT = "gift"


class _Step(NamedTuple):
    """One effect of R10's list that may be moved: its kind, its words, and what it does."""

    kind: _StepKind
    words: str
    """The step as a phrase, for the log when the order taken is not the default."""
    run: Callable[[_Run], None]


def _classic_steps(t: Tally, shot: Shot, gifts: list[big.Gift], loose_blockades: list[str],
                   unblocked: frozenset[str], hit_blocked: list[str],
                   chain_scoring: list[str], chain_clears: set[str]) -> list[_Step]:
    """R10's list in its default order, leaving out steps that do nothing for this shot."""
    state, delta = t.state, shot.delta
    steps: list[_Step] = []
    s = t.shooter
    scores = bool(chain_scoring) or any(
        points_for(state.board[n], state.board[n] + delta.get(n, 0)) > 0
        for n in state.rules.opposite(s) if n in unblocked)
    if scores:
        def points(r: _Run) -> None:
            shooter_points(r.t, delta, unblocked, shot.red)
            chain_points(r.t, chain_scoring, shot.red)
        steps.append(_Step(_StepKind.POINTS, f"{slot(s)}'s points", points))
    cleared = colours_to_clear(t, delta, unblocked, chain_clears)
    if cleared or loose_blockades:
        def clear(r: _Run) -> None:
            _, r.newly_blocked = clearing(r.t, cleared)
            for landing in loose_blockades:
                flipping.land_blockade(r.t, landing)
        words = (f"clearing {', '.join(sorted(cleared))}" if cleared
                 else "the loose blockades" if len(loose_blockades) > 1
                 else "the loose blockade")
        steps.append(_Step(_StepKind.CLEARING, words, clear))
    if state.rules.flipping:
        # The unblock right: any hit on an unblocked opposite field, that is a net increase
        # (one this shot clears too: a hit is a hit), a chain point, or a chain field the
        # chain clears (R15 with R16); never for this shot's own blockades.
        earned = bool(chain_scoring) or bool(chain_clears) or any(
            delta.get(n, 0) > 0 and n in unblocked for n in state.rules.opposite(s))

        def right(r: _Run) -> None:
            r.right = flipping.use_unblock_right(r.t, shot, earned, r.newly_blocked)
        steps.append(_Step(_StepKind.UNBLOCK if shot.unblock is not None else _StepKind.OFFER,
                           "the unblock right", right))
    if shot.delta.get(MINUS, 0) > 0 or shot.off_board or hit_blocked or big.off_board(shot):
        steps.append(_Step(_StepKind.PENALTIES, "penalties",
                           lambda r: penalties(r.t, shot, hit_blocked)))
    if any(delta.get(n, 0) > 0 for n in state.rules.home(s)):
        steps.append(_Step(_StepKind.OWN_GOALS, "own goals", lambda r: own_goals(
            r.t, delta, unblocked, cleared, shot.opponent_red)))
    for gift in gifts:
        steps.append(_Step(_StepKind.GIFT, f"the gift skitt on {where(gift[0])}",
                           lambda r, g=gift: big.give_gifts(r.t, [g], shot.opponent_red)))
    return steps


POT_STEPS = frozenset({_StepKind.CLEARING, _StepKind.UNBLOCK, _StepKind.GIFT})
"""The steps whose place changes what the pot can supply: a clearing and a lifted blockade
put skitts back, a gift takes one. Only they trade places; the shooter's points, the
penalties and the own goals keep theirs (their order among themselves is R10's default)."""


def _orders(steps: list[_Step]) -> Iterator[tuple[_Step, ...]]:
    """Every order of ``steps`` worth trying, the default first: the steps of
    :data:`POT_STEPS` trade places among their own slots in the default order, the unblock
    right is never used before the clearing it may not undo (R16), and gifts are tried as
    distinct only where they differ."""
    slots = [i for i, step in enumerate(steps) if step.kind in POT_STEPS]
    seen: set[tuple[str, ...]] = set()
    for moved in itertools.permutations([steps[i] for i in slots]):
        kinds = [step.kind for step in moved]
        if _StepKind.UNBLOCK in kinds and _StepKind.CLEARING in kinds and \
                kinds.index(_StepKind.UNBLOCK) < kinds.index(_StepKind.CLEARING):
            continue
        key = tuple(step.words for step in moved)
        if key in seen:
            continue
        seen.add(key)
        order = list(steps)
        for i, step in zip(slots, moved, strict=True):
            order[i] = step
        yield tuple(order)


def _pot_can_run_short(t: Tally, steps: list[_Step]) -> bool:
    """Whether some order could leave a gift (or a clearing's blockade) without a skitt from
    the pot. When the pot holds enough for all of them whatever comes first, the default
    order is already the best: a gift before the clearing of its field would only score for
    the opponent first."""
    gifts = sum(step.kind is _StepKind.GIFT for step in steps)
    clears = any(step.kind is _StepKind.CLEARING for step in steps)
    blocks = 2 * len(t.rules.colors) if clears and t.rules.flipping else 0  # at most
    return gifts > 0 and t.pot < gifts + blocks


def _movable(steps: list[_Step]) -> int:
    """How many of ``steps`` can change the outcome by their place."""
    return sum(step.kind in POT_STEPS for step in steps)


def _play(t: Tally, shot: Shot, order: tuple[_Step, ...]) -> tuple[Transition, dict[str, int]]:
    """The shot's effects in ``order``; the rest of a shot is void once the round is won.
    Returns the transition and the scores the shot left (before a round end resets them)."""
    r = _Run(t)
    for step in order:
        if r.t.is_round_over:
            break
        step.run(r)
    scores = dict(r.t.score)
    return close_shot(r.t, shot, None if r.t.is_round_over else r.right), scores


def _for_shooter(state: State, shooter: Player,
                 result: tuple[Transition, dict[str, int]]) -> tuple[bool, bool, int, int]:
    """R10's measure of an outcome for the shooter, larger is better: a round (or the game)
    won by the shooter, then no round won by the opponent, then the lead, then the score."""
    transition, score = result
    other = opponent(shooter)
    rounds = transition.state.rounds
    winner = rounds[-1] if len(rounds) > len(state.rounds) else None
    return winner == shooter, winner != other, score[shooter] - score[other], score[shooter]


def best_order(t: Tally, shot: Shot, steps: list[_Step]) -> Transition:
    """R10: the shooter orders a shot's effects and the scorekeeper takes the best order for
    the shooter; a tie keeps the default order. When the order taken is not the default,
    the log says so."""
    if _movable(steps) < 2 or not _pot_can_run_short(t, steps):
        return _play(t, shot, tuple(steps))[0]
    default = tuple(steps)
    best = _play(t.copy(), shot, default)
    best_key = _for_shooter(t.state, t.shooter, best)
    taken = default
    for order in _orders(steps):
        if order == default:
            continue
        try:
            result = _play(t.copy(), shot, order)
        except IllegalEventError:
            continue  # an input this order cannot take (the default one took it)
        key = _for_shooter(t.state, t.shooter, result)
        if key > best_key:
            best, best_key, taken = result, key, order
    if taken == default:
        return best[0]
    t.note(EffectKind.ORDER, t.shooter, Reason.ORDER,
           f"the order best for {slot(t.shooter)} was taken: "
           f"{', then '.join(step.words for step in taken)}")
    return _play(t, shot, taken)[0]


def resolve_classic(state: State, shot: Shot) -> Transition:
    """A valid classic shot (already checked), resolved as R10 says."""
    t = Tally(state, shot.by)
    delta = shot.delta
    # The shot's physical outcome: big skitts, a loose blockade, the sensed changes.
    gifts = big.settle_big_skitts(t, shot)
    loose_blockades = flipping.knock_blockades_loose(t, shot)
    unblocked = state.rules.color_fields - t.blocked if t.blocked else state.rules.color_fields
    for name, d in delta.items():
        t.board[name] += d
        t.pot -= d
    hit_blocked = flipping.remove_landed_on_blocked(t, delta, shot.chain)
    chain_scoring, chain_clears = judge_chain(t, shot, hit_blocked)
    steps = _classic_steps(t, shot, gifts, loose_blockades, unblocked, hit_blocked,
                           chain_scoring, chain_clears)
    return best_order(t, shot, steps)
