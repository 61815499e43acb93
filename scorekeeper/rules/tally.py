"""The scratch sheet of one step, and the :class:`Transition` a step returns.

The rules are pure: :func:`scorekeeper.rules.apply` takes a frozen state and returns a new
one. Inside one step it is clearer to write "black +1" than to rebuild a state each time, so
the step works on a :class:`Tally`, a private, mutable copy of what a step may change, and
freezes it into the next state at the end. Nothing outside the step ever sees a tally, so a
refusal raised half-way through leaves no trace.
"""

from __future__ import annotations

from dataclasses import dataclass

from scorekeeper.effects import Effect, EffectKind, Reason, signed, where
from scorekeeper.errors import IllegalEventError, because
from scorekeeper.fields import Player, opponent
from scorekeeper.phrases import slot
from scorekeeper.shot import RedChoice
from scorekeeper.state import State


def point_effect(player: Player, reason: Reason, text: str, fields: tuple[str, ...],
                 red: RedChoice | None = None, by: Player | None = None) -> Effect:
    """``player +1: <text>`` (``text`` a phrase) for a point on ``fields``; ``by``: whose
    own goal or gift it was, ``red``: the Hit on Red choice of a point on red."""
    return Effect(EffectKind.POINT, player, 1, reason, f"{slot(player)} +1: {text}",
                  fields=fields, who=by, red=red)


def penalty_effect(shooter: Player, why: str, at_floor: bool) -> Effect:
    """R6: one penalty point for ``shooter``; at −1 it goes to the opponent as +1."""
    s = slot(shooter)
    if not at_floor:
        return Effect(EffectKind.PENALTY, shooter, -1, Reason.PENALTY,
                      f"penalty to {s}: {why} ({s} {signed(-1)})", who=shooter)
    o = opponent(shooter)
    return Effect(EffectKind.PENALTY, o, 1, Reason.PENALTY,
                  f"penalty to {s}: {why}; {s} is at \u22121, so {slot(o)} +1", who=shooter)


@dataclass(frozen=True, slots=True)
class Transition:
    """The result of one step: the new state and what happened, in order."""

    state: State
    """The state after the step."""
    effects: tuple[Effect, ...]
    """The effects of the step, in the order the rules applied them (R10)."""


class Tally:
    """The mutable working copy of a state during one shot (never leaves the rules)."""

    __slots__ = ("state", "rules", "shooter", "opponent", "board", "score", "blocked", "pot",
                 "big", "effects", "round_winner", "board_must_change", "red_log", "kept")

    def __init__(self, state: State, shooter: Player) -> None:
        self.state = state
        self.rules = state.rules
        self.shooter: Player = shooter
        self.opponent: Player = opponent(shooter)
        self.board: dict[str, int] = dict(state.board)
        self.score: dict[Player, int] = dict(state.score)
        self.blocked: set[str] = set(state.blocked)
        self.pot: int = state.pot + state.kept
        """A skitt kept in hand (R2) is the one this step's shot plays: it counts as back."""
        self.kept = 0
        """1 when the shot's loose skitt is kept for the next shot (:meth:`keep`)."""
        self.big = dict(state.big)
        self.effects: list[Effect] = []
        self.round_winner: Player | None = None
        """Set the moment a player reaches the points that win the round (R10, R13)."""
        self.board_must_change = False
        self.red_log: dict[Player, list[tuple[str, bool]]] = {"black": [], "white": []}
        """Per scorer: each red point as (effective choice, could it still change to back)."""

    def copy(self) -> Tally:
        """An independent copy, to try another order of a shot's effects (R10)."""
        other = Tally.__new__(Tally)
        other.state, other.rules = self.state, self.rules
        other.shooter, other.opponent = self.shooter, self.opponent
        other.board, other.score = dict(self.board), dict(self.score)
        other.blocked, other.pot, other.big = set(self.blocked), self.pot, dict(self.big)
        other.effects = list(self.effects)
        other.round_winner = self.round_winner
        other.board_must_change = self.board_must_change
        other.red_log = {p: list(log) for p, log in self.red_log.items()}
        other.kept = self.kept
        return other

    def keep(self) -> None:
        """R2: the shooter keeps a loose skitt to play the next shot with; it is out of the
        pot until then. Refused when no skitt is loose (the pot would go below 0)."""
        if self.pot < 1:
            raise IllegalEventError.at(
                "shot.keep", because("no loose skitt is left to keep: every skitt is on the "
                                     "board; leave this out", rule="R2"),
                summary=self.state.summary())
        self.pot -= 1
        self.kept = 1
        self.note(EffectKind.NOTE, self.shooter, Reason.POT, "a loose skitt is kept in hand: "
                  "the next shot is played with it, not from the pot")

    # -- R10: the moment the round is won, the rest of the shot is void --------------------

    @property
    def is_round_over(self) -> bool:
        """True once a player has reached the points that win the round (or the Trio game)."""
        return self.round_winner is not None

    def note(self, kind: EffectKind, player: Player | None, reason: Reason, text: str,
             *fields: str) -> None:
        """Record an effect that changes no score (``text`` a phrase, about ``fields``)."""
        self.effects.append(Effect(kind, player, 0, reason, text, fields=fields))

    def gain(self, player: Player, reason: Reason, text: str, fields: tuple[str, ...],
             red: RedChoice | None = None, by: Player | None = None) -> None:
        """``player`` +1 on ``fields``; ends the round when it reaches the target (R13)."""
        self.score[player] += 1
        self.effects.append(point_effect(player, reason, text, fields, red, by))
        if self.score[player] >= self.rules.points_to_win_round:
            self.round_winner = player

    def can_be_set_back(self, player: Player) -> bool:
        """R4: ``back`` is not possible against a player at −1."""
        return self.score[player] > -1

    def set_back(self, player: Player, scorer: Player, field: str) -> None:
        """``player`` −1 by the scorer's Hit on Red choice (R4) on ``field``; caller checks it
        is possible."""
        self.score[player] -= 1
        self.effects.append(Effect(EffectKind.BACK, player, -1, Reason.HIT_ON_RED,
                                   f"{slot(scorer)} sets {slot(player)} back one: Hit on Red",
                                   fields=(field,), who=scorer, red="back"))

    def penalty(self, why: str) -> None:
        """One penalty point for the shooter (R6): −1, or +1 to the opponent at −1."""
        s, o = self.shooter, self.opponent
        if self.score[s] > -1:
            self.score[s] -= 1
            self.effects.append(penalty_effect(s, why, at_floor=False))
            return
        self.score[o] += 1
        self.effects.append(penalty_effect(s, why, at_floor=True))
        if self.score[o] >= self.rules.points_to_win_round:
            self.round_winner = o

    # -- Skitts between the pot and the board (R2) -----------------------------------------

    def to_pot(self, field_name: str, n: int) -> None:
        """``n`` skitts from ``field_name`` back to the pot (a rule did it: hands needed)."""
        if n:
            self.board[field_name] -= n
            self.pot += n
            self.board_must_change = True

    def clear(self, field_name: str) -> int:
        """All skitts of ``field_name`` back to the pot; returns how many."""
        n = self.board[field_name]
        self.to_pot(field_name, n)
        return n

    def gift(self, field_name: str) -> bool:
        """One skitt from the pot onto ``field_name`` (R11, R12); not given when the pot is
        empty (R20) or the field is blocked."""
        if self.pot < 1 or field_name in self.blocked:
            return False
        self.pot -= 1
        self.board[field_name] += 1
        self.board_must_change = True
        return True

    def block(self, field_name: str) -> bool:
        """Cover ``field_name`` with a flipped skitt from the pot (R16)."""
        if field_name in self.blocked or self.pot < 1:
            return False
        self.pot -= 1
        self.blocked.add(field_name)
        self.board_must_change = True
        self.note(EffectKind.BLOCK, None, Reason.FLIPPING, f"blockade on {where(field_name)}",
                  field_name)
        return True

    def unblock(self, field_name: str, text: str) -> None:
        """Lift the blockade from ``field_name``; the flipped skitt goes to the pot (R16)."""
        self.blocked.discard(field_name)
        self.pot += 1
        self.board_must_change = True
        self.note(EffectKind.UNBLOCK, None, Reason.FLIPPING, text, field_name)
