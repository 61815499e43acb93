"""A match: the fold of its events over the rules, with undo.

The match keeps every state it went through, so undo is "go back to the state before the
last step" (R19): exact, and as cheap as popping a list. The events, undos included, are
what the match log stores; :meth:`Match.replay` rebuilds a match from them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from scorekeeper.checks import show
from scorekeeper.effects import Effect, Reason
from scorekeeper.errors import IllegalEventError, MalformedEventError, NothingToUndoError
from scorekeeper.events import Event, Undo, parse_event
from scorekeeper.fields import PLAYERS, Player
from scorekeeper.frozen import FrozenMap
from scorekeeper.options import Rules, Setup
from scorekeeper.rules import apply as apply_rules
from scorekeeper.state import State, initial_state

_DEFAULT_RULES = Rules()
_DEFAULT_SETUP = Setup()


class Match:
    """One game from its setup, step by step.

    >>> m = Match(Rules(), Setup(first="black", big={"black": "center", "white": "center"}))
    >>> m.apply({"shot": {"by": "black", "delta": {"white.red": 1}}})
    ()
    >>> m.state.turn
    'white'
    """

    __slots__ = ("_rules", "_setup", "_names", "_states", "_steps", "_events", "_events_tuple")

    def __init__(self, rules: Rules = _DEFAULT_RULES, setup: Setup = _DEFAULT_SETUP,
                 names: Mapping[Player, str] | None = None) -> None:
        """Raises :class:`IllegalEventError` when the setup does not fit the rules or a
        name is not a string for ``black``/``white``."""
        self._rules = rules
        self._setup = setup
        self._names: FrozenMap[Player, str] = FrozenMap(self._check_names(names))
        self._states: list[State] = [initial_state(rules, setup)]
        self._steps: list[Event] = []
        """The steps not taken back, parallel to ``_states[1:]`` (for undo messages)."""
        self._events: list[Event] = []
        self._events_tuple: tuple[Event, ...] | None = ()

    @staticmethod
    def _check_names(names: Mapping[Player, str] | None) -> dict[Player, str]:
        out: dict[Player, str] = {}
        for p, name in (names or {}).items():
            if p not in PLAYERS:
                raise MalformedEventError(f"names: unknown player {show(p)}")
            if not isinstance(name, str):
                raise MalformedEventError(f"names.{p}: expected a string, got {show(name)}")
            out[p] = name
        return out

    # -- What a match is -------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The options of the game."""
        return self._rules

    @property
    def setup(self) -> Setup:
        """The position before the first step."""
        return self._setup

    @property
    def names(self) -> FrozenMap[Player, str]:
        """The players' names for display (may be empty)."""
        return self._names

    @property
    def state(self) -> State:
        """The state now."""
        return self._states[-1]

    @property
    def events(self) -> tuple[Event, ...]:
        """Every accepted step in order, undos included (what the match log stores)."""
        if self._events_tuple is None:
            self._events_tuple = tuple(self._events)
        return self._events_tuple

    @property
    def can_undo(self) -> bool:
        """True when there is a step left to take back."""
        return len(self._states) > 1

    # -- Changing it -----------------------------------------------------------------------

    def apply(self, event: Event | Mapping[str, Any]) -> tuple[Effect, ...]:
        """Take one step (an event or a step object) and return its effects.

        Undo takes back the last step not yet taken back, completely; undos in a row go
        further back. Raises :class:`IllegalEventError` for a refused step; the match is
        then exactly as it was.
        """
        ev = parse_event(event)
        if isinstance(ev, Undo):
            if len(self._states) == 1:
                raise NothingToUndoError(f"undo: nothing to undo {self.state.summary()}")
            self._states.pop()
            undone = self._steps.pop()
            effects: tuple[Effect, ...] = (
                Effect("undo", None, 0, Reason.UNDO, f"took back {undone.describe()}"),)
        else:
            transition = apply_rules(self._states[-1], ev)
            self._states.append(transition.state)
            self._steps.append(ev)
            effects = transition.effects
        self._events.append(ev)
        self._events_tuple = None
        return effects

    @classmethod
    def replay(cls, rules: Rules, setup: Setup, events: Iterable[Event | Mapping[str, Any]],
               names: Mapping[Player, str] | None = None) -> Match:
        """The match these events make, rebuilt exactly.

        Raises :class:`IllegalEventError` naming the step (counted from 1) that was refused.
        """
        match = cls(rules, setup, names)
        states, steps, log = match._states, match._steps, match._events
        for i, item in enumerate(events, 1):
            try:
                ev = parse_event(item)
                if isinstance(ev, Undo):
                    if len(states) == 1:
                        raise NothingToUndoError("undo: nothing to undo")
                    states.pop()
                    steps.pop()
                else:
                    states.append(apply_rules(states[-1], ev).state)
                    steps.append(ev)
            except IllegalEventError as err:
                raise type(err)(f"step {i}: {err}") from err
            log.append(ev)
        match._events_tuple = None
        return match

    def to_json(self) -> dict[str, Any]:
        """The state as the UI shows it, with the players' names and ``can_undo``."""
        out = self.state.to_json()
        out["names"] = dict(self._names)
        out["can_undo"] = self.can_undo
        return out
