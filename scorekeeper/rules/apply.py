"""``apply(state, event) -> Transition``: the one entry point of the rules.

Pure: it reads the state and the event and returns a new state with the effects, in the
order the rules applied them. A refused event raises
:class:`~scorekeeper.errors.IllegalEventError` and nothing is changed (there is nothing to
change: states are frozen). Undo is not a rule but a matter of keeping the old state; it
lives in :class:`scorekeeper.match.Match`.
"""

from __future__ import annotations

from scorekeeper.errors import IllegalEventError
from scorekeeper.events import Correction, Decision, Event, ShootOff, ShotEvent
from scorekeeper.rules.corrections import correct
from scorekeeper.rules.decisions import decide
from scorekeeper.rules.rounds import shoot_off
from scorekeeper.rules.shots import resolve_shot
from scorekeeper.rules.tally import Transition
from scorekeeper.state import State


def apply(state: State, event: Event) -> Transition:
    """The state after ``event`` and what it did.

    - :class:`ShotEvent`: R1-R12, R15-R17 (see :mod:`scorekeeper.rules.classic` and
      :mod:`scorekeeper.rules.trio`), then R2/R13 round and game ends.
    - :class:`ShootOff`: R14. :class:`Correction`: R19. :class:`Decision`: R4, R16.

    Raises :class:`IllegalEventError` for a refused event (the message names the bad key or
    value and summarises the state).
    """
    if isinstance(event, ShotEvent):
        return resolve_shot(state, event.shot)
    if isinstance(event, ShootOff):
        return shoot_off(state, event)
    if isinstance(event, Correction):
        return correct(state, event)
    if isinstance(event, Decision):
        return decide(state, event)
    raise IllegalEventError(
        f"{type(event).__name__} is not a rules event (undo belongs to the match) "
        f"{state.summary()}")

