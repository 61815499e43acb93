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
from scorekeeper.events import Correction
from scorekeeper.frozen import FrozenMap
from scorekeeper.phrases import field_slot, literal, slot
from scorekeeper.rules.checks import refuse
from scorekeeper.rules.tally import Transition
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
            f"{slot(p)} {'in the centre' if v == 'center' else 'in hand'}"
            for p, v in c.big.items()))
    what = "; ".join(parts) or "nothing changed"
    return f"referee correction: {what}" + (f" ({literal(c.reason)})" if c.reason else "")


def correct(state: State, c: Correction) -> Transition:
    """Apply a referee correction (R19); raises IllegalEventError outside its limits."""
    if state.is_game_over:
        raise refuse(state, "correct", "the game is over; undo first", rule="R19")
    rules = state.rules
    board = dict(state.board)
    score = dict(state.score)
    wins = dict(state.round_wins)
    blocked = set(state.blocked) if c.blocked is None else set(c.blocked)
    if c.big is not None and rules.is_trio:
        raise refuse(state, "correct.big", "Trio has no big skitts", rule="R17")
    try:
        check_position(rules, dict(c.board or {}), blocked, dict(c.score or {}),
                       dict(c.round_wins or {}), "correct")
        board.update(c.board or {})
        score.update(c.score or {})
        wins.update(c.round_wins or {})
        check_position(rules, board, blocked, score, wins, "correct")
    except IllegalEventError as err:
        raise err.told(f"{err} {state.summary()}") from None
    changes: dict[str, object] = dict(
        score=FrozenMap(score),
        board=FrozenMap(board),
        blocked=frozenset(blocked),
        round_wins=FrozenMap(wins),
        pot=rules.pot - skitts_out_of_pot(rules, board, blocked, wins),
        pending_red=(),
        pending_unblock=None,
        reopen=None,
        last_effects=(Effect(EffectKind.CORRECTION, c.turn, 0, Reason.CORRECTION,
                             correction_phrase(c), fields=tuple(c.board or ())),),
        board_must_change=c.board is not None or c.blocked is not None or c.big is not None,
    )
    if c.big is not None:
        changes["big"] = FrozenMap({**state.big, **c.big})
    if c.turn is not None:
        changes.update(phase=Phase.PLAYING, turn=c.turn)
    new = lose_if_blocked_in(replace(state, **changes))  # type: ignore[arg-type]
    return Transition(new, new.last_effects)
