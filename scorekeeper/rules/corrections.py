"""R19 Corrections: the referee sets scores, board counts, blocked fields, round wins, whose
turn it is or where a big skitt is (in hand or in the centre), with a reason.

A correction is a step like any other: recorded in the log, undoable, never erased. It is
refused when it would set a score below −1 or at or above the round target, round wins at
or above the game target, more skitts on the board than the pot can supply, blockades
without flipping, or when the game is over (undo first). A turn correction during a
shoot-off ends the shoot-off. Choices still open from the last shot (R4, R16) close: the
referee has set the position.
"""

from __future__ import annotations

from dataclasses import replace

from scorekeeper.effects import Effect, EffectKind, Reason
from scorekeeper.errors import IllegalEventError
from scorekeeper.events import Correction, RoundEnd
from scorekeeper.fields import MINUS, Player
from scorekeeper.frozen import FrozenMap
from scorekeeper.options import BigState, Rules
from scorekeeper.phrases import field_slot, literal, slot
from scorekeeper.rules.checks import refuse
from scorekeeper.rules.rounds import end_round, end_round_on_empty_pot
from scorekeeper.rules.tally import Tally, Transition
from scorekeeper.state import Phase, State, check_position, lose_if_blocked_in, skitts_out_of_pot


def correction_phrase(c: Correction) -> str:
    """The correction's effect as a phrase; the referee's reason is their own words, kept as
    typed (the hub words a board's correction again from its step with it)."""
    parts: list[str] = []
    if c.score is not None:
        parts.append("score " + ", ".join(f"{slot(p)} {n}" for p, n in c.score.items()))
    if c.board is not None:
        parts.append("board " + ", ".join(f"{field_slot(f)} {n}" for f, n in c.board.items()))
    if c.blocked is not None:
        parts.append("blocked " + (", ".join(field_slot(f) for f in c.blocked) or "none"))
    if c.round_wins is not None:
        parts.append("round wins " + ", ".join(f"{slot(p)} {n}"
                                               for p, n in c.round_wins.items()))
    if c.turn is not None:
        parts.append(f"{slot(c.turn)} to shoot")
    if c.big is not None:
        parts.append("big skitt " + ", ".join(
            f"{slot(p)} {'in the centre' if v == BigState.CENTER else 'in hand'}"
            for p, v in c.big.items()))
    for p, h in (c.handicaps or {}).items():
        parts.append(f"{slot(p)} now shoots from the {h.line} line, {h.finger} finger, "
                     f"{h.hand} hand")
    if c.points_to_win_round is not None:
        parts.append(f"{c.points_to_win_round} points now win "
                     + "a round")
    if c.rounds_to_win_game is not None:
        parts.append(f"{c.rounds_to_win_game} round wins now win the game")
    if c.end_round == RoundEnd.DRAWN:
        parts.append("the round is ended drawn")
    elif c.end_round is not None:
        parts.append(f"the round is ended, won by {slot(c.end_round)}")
    if c.shootoff:
        parts.append("a shoot-off starts")
    what = "; ".join(parts) or "nothing changed"
    return f"referee correction: {what}" + (f" ({literal(c.reason)})" if c.reason else "")


def _targets(state: State, c: Correction, score: dict[str, int],
             wins: dict[str, int]) -> Rules:
    """R19: fewer points to win a round or rounds to win the game, by agreement; never more,
    and never at or below what a player already has."""
    rules = state.rules
    if c.rounds_to_win_game is not None and rules.is_trio:
        raise refuse(state, "correct.rounds_to_win_game", "Trio has no rounds", rule="R17")
    for key, now, has in (("points_to_win_round", rules.points_to_win_round, score),
                          ("rounds_to_win_game", rules.rounds_to_win_game, wins)):
        new = getattr(c, key)
        if new is None:
            continue
        if new > now:
            raise refuse(state, f"correct.{key}", "the players may agree on fewer, not more: "
                         "{new} is more than {now}", rule="R19", new=new, now=now)
        most = max(has.values())
        if new <= most:
            raise refuse(state, f"correct.{key}", "{new} is not more than a player already has "
                         "({most}); end the round or the game by hand instead", rule="R19",
                         new=new, most=most)
        rules = replace(rules, **{key: new})
    return rules


def _check_moment(state: State, c: Correction) -> None:
    """R19: the end of a round is recorded while a round is played, not together with a
    turn or a shoot-off; Trio has no rounds (R17)."""
    if c.end_round is not None:
        if state.rules.is_trio:
            raise refuse(state, "correct.end_round", "Trio has no rounds; set the score "
                         "instead", rule="R17")
        if state.phase is not Phase.PLAYING:
            raise refuse(state, "correct.end_round", "no round is being played (a shoot-off "
                         "is due); record the shoot-off first", rule="R19")
        if c.turn is not None or c.shootoff:
            raise refuse(state, "correct.end_round", "a round that ends has nobody to shoot: "
                         "leave out the turn and the shoot-off (the next round sets them)",
                         rule="R19")
    if c.shootoff and c.turn is not None:
        raise refuse(state, "correct.shootoff", "a shoot-off decides who shoots: leave out "
                     "the turn, or set the turn without a shoot-off", rule="R19")


def correct(state: State, c: Correction) -> Transition:
    """Apply a referee correction (R19); raises IllegalEventError outside its limits."""
    if state.is_game_over:
        raise refuse(state, "correct", "the game is over; undo first", rule="R19")
    _check_moment(state, c)
    board = dict(state.board)
    score = dict(state.score)
    wins = dict(state.round_wins)
    blocked = set(state.blocked) if c.blocked is None else set(c.blocked)
    if c.big is not None and state.rules.is_trio:
        raise refuse(state, "correct.big", "Trio has no big skitts", rule="R17")
    try:
        check_position(state.rules, dict(c.board or {}), blocked, dict(c.score or {}),
                       dict(c.round_wins or {}), "correct")
        board.update(c.board or {})
        score.update(c.score or {})
        wins.update(c.round_wins or {})
        rules = _targets(state, c, score, wins)
        check_position(rules, board, blocked, score, wins, "correct")
    except IllegalEventError as err:
        raise err.told(f"{err} {state.summary()}") from None
    changes: dict[str, object] = dict(
        rules=rules,
        score=FrozenMap(score),
        board=FrozenMap(board),
        blocked=frozenset(blocked),
        round_wins=FrozenMap(wins),
        pot=rules.pot - skitts_out_of_pot(rules, board, blocked, wins) - state.kept,
        pending_red=(),
        pending_unblock=None,
        reopen=None,
        last_effects=(Effect(EffectKind.CORRECTION, c.turn, 0, Reason.CORRECTION,
                             correction_phrase(c), fields=tuple(c.board or ())),),
        board_must_change=c.board is not None or c.blocked is not None or c.big is not None,
    )
    if changes["pot"] < 0:  # type: ignore[operator]
        raise refuse(state, "correct.board", "a skitt is kept in hand for the next shot: the "
                     "board can hold one fewer", rule=("R2", "R19"))
    if c.board is not None and MINUS in c.board and rules.is_trio:
        changes["minus_hits"] = min(c.board[MINUS], 3)  # one hit per skitt, as in a setup
    if c.big is not None:
        changes["big"] = FrozenMap({**state.big, **c.big})
    if c.handicaps is not None:
        changes["handicaps"] = FrozenMap({**state.handicaps, **c.handicaps})
    if c.turn is not None:
        changes.update(phase=Phase.PLAYING, turn=c.turn)
    if c.shootoff:
        changes.update(phase=Phase.SHOOTOFF, turn=None)
    new = replace(state, **changes)  # type: ignore[arg-type]
    if c.end_round is not None:
        return _round_ends(new, None if c.end_round == RoundEnd.DRAWN else c.end_round)  # type: ignore[arg-type]
    if new.pot == 0 and new.phase is Phase.PLAYING and not new.rules.is_trio:
        return _pot_emptied(new)
    new = lose_if_blocked_in(new)
    return Transition(new, new.last_effects)


def _tally(state: State) -> Tally:
    """A tally of the corrected position, with its effects so far (the correction)."""
    t = Tally(state, state.turn or "black")
    t.effects = list(state.last_effects)
    return t


def _round_ends(state: State, winner: Player | None) -> Transition:
    """R19: the referee records the end of the round; R13 then goes on as after a shot."""
    t = _tally(state)
    if winner is None:
        t.note(EffectKind.ROUND, None, Reason.CORRECTION,
               f"the referee ends round {state.round} drawn")
    return end_round(t, winner)


def _pot_emptied(state: State) -> Transition:
    """R19 with R2: a correction that leaves the pot empty ends the round on points, as
    after a shot. (Trio has no rounds: there the next ordinary shot is refused, R20.)"""
    return end_round_on_empty_pot(_tally(state))
