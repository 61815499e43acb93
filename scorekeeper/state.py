"""Where a match stands: one frozen :class:`State` per step.

A state is a plain value: the rules make a new one from the old one and an event
(:func:`scorekeeper.rules.apply`), so undo is "keep the old one" and a match is the fold of
its events. :meth:`State.to_json` is exactly what the scoreboard, the referee page and the
tracker read.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from scorekeeper.checks import show
from scorekeeper.effects import Effect, EffectKind, Reason
from scorekeeper.errors import Field, Fields, MalformedEventError, refused
from scorekeeper.errors import Player as Who
from scorekeeper.fields import PLAYERS, Player, opponent
from scorekeeper.frozen import FrozenMap
from scorekeeper.options import BigState, Handicap, Rules, Setup
from scorekeeper.phrases import slot
from scorekeeper.shot import Shot


class Phase(StrEnum):
    """Where a match is; a string enum, so its JSON is the same word it always was."""

    SHOOTOFF = "shootoff"
    """A shoot-off decides who starts (R14)."""
    PLAYING = "playing"
    GAME_OVER = "game_over"
    """The game has a result (R13, R16, R17)."""


@dataclass(frozen=True, slots=True)
class PendingRed:
    """Hit on Red points the scorer may still push back until the next shot (R4)."""

    player: Player
    """The scorer of the points."""
    choices: tuple[str, ...]
    """Each red point as it counts now: ``"advance"`` or ``"back"``, in the order scored."""
    changeable: tuple[bool, ...]
    """Per point: may it still be changed to ``back``? (Not when the other player was at −1.)"""

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "choices": list(self.choices),
                "changeable": list(self.changeable)}


@dataclass(frozen=True, slots=True)
class PendingUnblock:
    """A right to lift one blockade from the scorer's opposite fields until the next shot (R16)."""

    player: Player
    """Who holds the right (the shooter of the last shot)."""
    fields: tuple[str, ...]
    """The blocked opposite fields the right may lift, in colour order."""

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "fields": list(self.fields)}


@dataclass(frozen=True, slots=True)
class Reopen:
    """The last shot and the state before it, kept while a late decision is open, so that a
    decision re-resolves the shot as if it had been made at the shot (R4, R10, R16)."""

    base: State = field(compare=False, repr=False)
    """The state before the shot (not compared: equal shots from equal states match)."""
    shot: Shot
    """The shot as resolved, with the choices made so far."""


@dataclass(frozen=True, slots=True)
class State:
    """The whole position of a match after some step. Build the first with
    :func:`initial_state`; every later one comes from :func:`scorekeeper.rules.apply`."""

    rules: Rules
    """The options of the game."""
    phase: Phase
    """``"shootoff"`` (R14), ``"playing"`` or ``"game_over"``."""
    turn: Player | None
    """Who is due to shoot; ``None`` during a shoot-off and after the game."""
    winner: Player | None
    """The winner of the game, once it is over."""
    round: int
    """The round being played (always 1 in Trio)."""
    rounds: tuple[Player | None, ...]
    """Winners of the rounds finished in this match, ``None`` for a drawn round (R2)."""
    score: FrozenMap[Player, int]
    """Points in the current round (the game, in Trio)."""
    round_wins: FrozenMap[Player, int]
    """Round wins so far; each one is a skitt on that player's round counter."""
    board: FrozenMap[str, int]
    """Ordinary skitts on each of the seven fields."""
    blocked: frozenset[str]
    """Fields covered by a blockade (flipping, R16)."""
    pot: int
    """Skitts in the pot (R2)."""
    big: FrozenMap[Player, BigState | None]
    """Each player's big skitt: ``"hand"`` or ``"center"`` (``None`` in Trio)."""
    pending_red: tuple[PendingRed, ...] = ()
    """Hit on Red points that may still be changed to ``back`` (R4): one entry per scorer
    with such points, the shooter first; each player decides their own."""
    pending_unblock: PendingUnblock | None = None
    """An unblock right not yet used (R16)."""
    reopen: Reopen | None = None
    """What a late decision needs to re-resolve the last shot (while one is pending)."""
    last_effects: tuple[Effect, ...] = ()
    """What the step that made this state did."""
    kept: int = 0
    """A loose skitt kept in hand for the next shot (R2), out of the pot: 0 or 1."""
    minus_hits: int = 0
    """Trio (R17): hits on the minus field since it was last cleared."""
    handicaps: FrozenMap[Player, Handicap] = FrozenMap()
    """Handicaps changed during the game (R18), for the players named; the match's own
    handicaps hold for the others."""
    board_must_change: bool = False
    """True when the rules changed the board beyond the shot's sensed changes (clearing,
    chain skitt, invalid shot, blockade, gift skitt, round end): the physical board must be
    set by hand to match :attr:`board`. After an undo the board must also be restored."""

    # -- Predicates -------------------------------------------------------------------------

    @property
    def is_game_over(self) -> bool:
        """True once the game has a result (R13, R16, R17)."""
        return self.phase is Phase.GAME_OVER

    @property
    def shootoff_due(self) -> bool:
        """True while a shoot-off decides who starts (R13, R14)."""
        return self.phase is Phase.SHOOTOFF

    @property
    def must_place_big(self) -> bool:
        """True when the player due must shoot their big skitt (R11, R12)."""
        return self.turn is not None and self.big[self.turn] == BigState.HAND

    def opposite_blocked(self, player: Player) -> bool:
        """True when all three fields ``player`` shoots at are blocked (R16: they lose)."""
        return all(f in self.blocked for f in self.rules.opposite(player))

    def summary(self) -> str:
        """One line for error messages: phase, who is due, scores, pot."""
        if self.is_game_over:
            who = f"game over, {self.winner} won"
        elif self.shootoff_due:
            who = "shoot-off due"
        else:
            who = f"{self.turn} to shoot" + (" (big skitt)" if self.must_place_big else "")
        s = self.score
        return (f"[round {self.round}, {who}, score black {s['black']} white {s['white']}, "
                f"pot {self.pot}]")

    def to_json(self) -> dict[str, Any]:
        """The state as the web UI and the tracker read it (see the module docstring)."""
        return {
            "rules": self.rules.to_json(),
            "phase": str(self.phase),
            "turn": self.turn,
            "winner": self.winner,
            "round": self.round,
            "rounds": list(self.rounds),
            "score": dict(self.score),
            "round_wins": dict(self.round_wins),
            "board": dict(self.board),
            "blocked": sorted(self.blocked),
            "pot": self.pot,
            "kept": self.kept,
            "minus_hits": self.minus_hits,
            "big": dict(self.big),
            "must_place_big": self.must_place_big,
            "shootoff_due": self.shootoff_due,
            "pending": {
                "red": [p.to_json() for p in self.pending_red],
                "unblock": (None if self.pending_unblock is None
                            else self.pending_unblock.to_json()),
            },
            "last_effects": [e.to_json() for e in self.last_effects],
            "board_must_change": self.board_must_change,
        }


def skitts_out_of_pot(rules: Rules, board: dict[str, int] | FrozenMap[str, int],
                      blocked: frozenset[str] | set[str],
                      round_wins: dict[Player, int] | FrozenMap[Player, int]) -> int:
    """Skitts not in the pot: on fields, as blockades, on round counters (R2)."""
    return sum(board.values()) + len(blocked) + sum(round_wins.values())


def check_position(rules: Rules, board: dict[str, int], blocked: set[str] | frozenset[str],
                   score: dict[Player, int], round_wins: dict[Player, int], where: str) -> None:
    """Refuse a position outside the rules: unknown fields, blockades without flipping,
    scores or round wins out of range, more skitts than the pot holds (R2, R16, R19, R20)."""
    for name, n in board.items():
        if name not in rules.fields:
            raise MalformedEventError.at(
                f"{where}.board", "unknown field {got}: expected one of {fields}",
                got=show(name), fields=Fields(rules.fields))
        if n < 0:
            raise refused(where + ".board." + name, "{n} skitts on {field} is below 0", n=n,
                          field=Field(name))
    if blocked and not rules.flipping:
        raise refused(where + ".blocked", "blocked fields exist only with the flipping option",
                      rule=("R16", "R20"))
    for name in blocked:
        if name not in rules.color_fields:
            raise MalformedEventError.at(
                f"{where}.blocked", "{got} is not a colour field that can be blocked",
                got=show(name))
    target = rules.points_to_win_round
    low = 0 if rules.is_trio else -1
    for p, n in score.items():
        if not low <= n < target and rules.is_trio:
            raise refused(where + ".score." + p, "{who}'s score {n} is outside {low}..{high} "
                          "(a score of {target} ends the game)", rule="R19", who=Who(p), n=n,
                          low=low, high=target - 1, target=target)
        if not low <= n < target:
            raise refused(where + ".score." + p, "{who}'s score {n} is outside {low}..{high} "
                          "(a score of {target} ends the round)", rule="R19", who=Who(p), n=n,
                          low=low, high=target - 1, target=target)
    for p, n in round_wins.items():
        if rules.is_trio and n:
            raise refused(where + ".round_wins." + p, "Trio has no rounds", rule="R17")
        if not 0 <= n < rules.rounds_to_win_game:
            raise refused(where + ".round_wins." + p, "{who}'s round wins {n} are outside "
                          "0..{high} ({wins} round wins end the game)", rule="R19", who=Who(p),
                          n=n, high=rules.rounds_to_win_game - 1, wins=rules.rounds_to_win_game)
    used = skitts_out_of_pot(rules, board, blocked, round_wins)
    if used > rules.pot:
        raise refused(where, "{used} skitts on the board, as blockades and on round counters, "
                      "but the pot holds only {pot}", rule=("R2", "R19"), used=used, pot=rules.pot)


def initial_state(rules: Rules = Rules(), setup: Setup = Setup()) -> State:  # noqa: B008
    """The position before the first step.

    Raises :class:`~scorekeeper.errors.IllegalEventError` when the setup does not fit the
    rules (an unknown field, a blockade without flipping, a big skitt in Trio, a score out of
    range, more skitts than the pot holds).
    """
    board = {f: 0 for f in rules.fields}
    board.update(setup.board)
    blocked = frozenset(setup.blocked)
    score: dict[Player, int] = {"black": 0, "white": 0}
    score.update(setup.score)
    wins: dict[Player, int] = {"black": 0, "white": 0}
    wins.update(setup.round_wins)
    check_position(rules, dict(setup.board), blocked, score, wins, "setup")
    if rules.is_trio:
        if setup.big is not None and any(v is not None for v in setup.big.values()):
            raise refused("setup.big", "Trio has no big skitts", rule="R17")
        big: dict[Player, BigState | None] = {"black": None, "white": None}
        if setup.round not in (None, 1):
            raise refused("setup.round", "Trio has no rounds, got round {n}", rule="R17",
                          n=setup.round)
        round_no = 1
    else:
        big = {"black": BigState.HAND, "white": BigState.HAND}
        big.update(setup.big or {})
        least = 1 + sum(wins.values())
        round_no = least if setup.round is None else setup.round
        if round_no < least:
            raise refused("setup.round", "round {n} is before round {least}, the first round "
                          "after {wins} round wins", n=round_no, least=least, wins=least - 1)
    pot = rules.pot - skitts_out_of_pot(rules, board, blocked, wins)
    minus_hits = 0
    if rules.is_trio:
        minus_hits = min(board["minus"], 3) if setup.minus_hits is None else setup.minus_hits
    elif setup.minus_hits is not None:
        raise refused("setup.minus_hits", "only Trio counts hits on the minus field",
                      rule="R17")
    state = State(
        rules=rules,
        phase=Phase.SHOOTOFF if setup.first is None else Phase.PLAYING,
        turn=setup.first,
        winner=None,
        round=round_no,
        rounds=(),
        score=FrozenMap(score),
        round_wins=FrozenMap(wins),
        board=FrozenMap(board),
        blocked=blocked,
        pot=pot,
        big=FrozenMap(big),
        minus_hits=minus_hits,
    )
    return lose_if_blocked_in(state)


def lose_if_blocked_in(state: State) -> State:
    """R16: a player due to shoot while all three of their opposite fields are blocked loses
    the game at once; nothing else changes."""
    turn = state.turn
    if turn is None or not state.blocked or not state.opposite_blocked(turn):
        return state
    winner = opponent(turn)
    effect = Effect(EffectKind.GAME, winner, 0, Reason.FLIPPING,
                    f"{slot(turn)} loses the game: all three fields {slot(turn)} shoots at are "
                    f"blocked; {slot(winner)} wins", who=turn)
    return replace(state, phase=Phase.GAME_OVER, turn=None, winner=winner, pending_red=(),
                   pending_unblock=None, reopen=None,
                   last_effects=state.last_effects + (effect,))


__all__ = ["PLAYERS", "PendingRed", "PendingUnblock", "Phase", "Reopen", "State",
           "check_position", "initial_state", "lose_if_blocked_in", "skitts_out_of_pot"]
