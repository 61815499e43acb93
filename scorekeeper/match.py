"""A match: the fold of its events over the rules, with undo.

Undo is "go back to the state before the last step" (R19). The match does not keep every
state it went through (a long log would hold hundreds of thousands): it keeps one every
:data:`CHECKPOINT_EVERY` steps and every state since the last of those. Undoing past a kept
state replays the block before it once (fewer than :data:`CHECKPOINT_EVERY` steps), which
gives back states equal to the ones before; the block just before the newest kept state is
kept aside too (one block: undos at a kept state are common in a long log). The events,
undos included, are what the match log stores; :meth:`Match.replay` rebuilds a match from
them, and :meth:`Match.replay_json` from the log's JSON text, parsing each distinct text
once (events are values, and a real match repeats a few hundred of them). A replay takes
every step through :meth:`Match.apply`, the one path a live step takes: there is no second,
faster copy of the rules to keep in step with the first.

The match is also the one record of which steps stand: :meth:`Match.last_standing` and
:meth:`Match.taken_back` answer for a position in :attr:`Match.events`, so the table's log
(one entry per event) asks here instead of keeping a second record of undos.
"""

from __future__ import annotations

import copy
from array import array
from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from scorekeeper.checks import show
from scorekeeper.effects import Effect, EffectKind, Reason
from scorekeeper.errors import IllegalEventError, MalformedEventError, NothingToUndoError, because
from scorekeeper.events import Event, Undo, parse_event, parse_event_json
from scorekeeper.fields import PLAYERS, Player
from scorekeeper.frozen import FrozenMap
from scorekeeper.options import Handicap, Rules, Setup
from scorekeeper.rules import apply as apply_rules
from scorekeeper.shot import Shot
from scorekeeper.state import State, initial_state

CHECKPOINT_EVERY = 32
"""Steps between kept states; an undo replays fewer than this many steps."""

_DEFAULT_RULES = Rules()
_DEFAULT_SETUP = Setup()

StepHook = Callable[[int, Event, State, tuple[Effect, ...]], None]
"""Called by a replay after each step: (step number from 1, the event, the state after it,
its effects as :meth:`Match.apply` returns them)."""


class Match:
    """One game from its setup, step by step.

    >>> m = Match(Rules(), Setup(first="black", big={"black": "center", "white": "center"}))
    >>> m.apply({"shot": {"by": "black", "delta": {"white.red": 1}}})
    ()
    >>> m.state.turn
    'white'
    """

    __slots__ = ("_rules", "_setup", "_names", "_handicaps", "_state", "_kept", "_tail",
                 "_aside", "_standing", "_events", "_events_tuple")

    def __init__(self, rules: Rules = _DEFAULT_RULES, setup: Setup = _DEFAULT_SETUP,
                 names: Mapping[Player, str] | None = None,
                 handicaps: Mapping[Player, Handicap] | None = None) -> None:
        """Raises :class:`IllegalEventError` when the setup does not fit the rules, or a
        name or handicap is not given for ``black``/``white``."""
        self._rules = rules
        self._setup = setup
        self._names: FrozenMap[Player, str] = FrozenMap(self._check_names(names))
        for p, h in (handicaps or {}).items():
            if p not in PLAYERS or not isinstance(h, Handicap):
                raise MalformedEventError.at(
                    "handicaps", f"expected a Handicap for black/white, got {show(p)}: {show(h)}")
        self._handicaps: FrozenMap[Player, Handicap] = FrozenMap(handicaps or {})
        self._state = initial_state(rules, setup)
        self._kept: list[State] = [self._state]
        """The state after 0, K, 2K... standing steps (K = CHECKPOINT_EVERY)."""
        self._tail: list[State] = []
        """The states after each step since the last kept state."""
        self._aside: list[State] | None = None
        """The tail as it was when the newest kept state was made (the states of the block
        before it), until that kept state is taken back."""
        self._standing = array("q")
        """The positions in ``_events`` of the steps not taken back, in order (an array of
        machine integers: a long log holds a hundred thousand)."""
        self._events: list[Event] = []
        self._events_tuple: tuple[Event, ...] | None = ()

    @staticmethod
    def _check_names(names: Mapping[Player, str] | None) -> dict[Player, str]:
        out: dict[Player, str] = {}
        for p, name in (names or {}).items():
            if p not in PLAYERS:
                raise MalformedEventError.at("names", f"unknown player {show(p)}")
            if not isinstance(name, str):
                raise MalformedEventError.at(f"names.{p}", f"expected a string, got {show(name)}")
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
    def handicaps(self) -> FrozenMap[Player, Handicap]:
        """R18: each player's shooting line and hand, shown but never scored; a change made
        during the game (a correction) holds from then on."""
        changed = self._state.handicaps
        return FrozenMap({**self._handicaps, **changed}) if changed else self._handicaps

    @property
    def state(self) -> State:
        """The state now."""
        return self._state

    @property
    def events(self) -> tuple[Event, ...]:
        """Every accepted step in order, undos included (what the match log stores)."""
        if self._events_tuple is None:
            self._events_tuple = tuple(self._events)
        return self._events_tuple

    @property
    def can_undo(self) -> bool:
        """True when there is a step left to take back."""
        return bool(self._standing)

    @property
    def last_standing(self) -> int | None:
        """The position in :attr:`events` of the newest step no undo has taken back."""
        return self._standing[-1] if self._standing else None

    def taken_back(self, position: int) -> bool:
        """True when an undo took back the step at ``position`` in :attr:`events` (R19: it
        stays in the log, struck through). An undo itself is never taken back."""
        if isinstance(self._events[position], Undo):
            return False
        standing = self._standing
        k = bisect_left(standing, position)
        return k == len(standing) or standing[k] != position

    def frozen(self) -> Match:
        """A copy that later steps on this match leave as it is, for readers on other
        threads while the owner goes on. Cheap: states and events are shared (they never
        change), only the growing lists are copied."""
        other = copy.copy(self)
        other._kept, other._tail = list(self._kept), list(self._tail)
        other._aside = None if self._aside is None else list(self._aside)
        other._standing, other._events = array("q", self._standing), list(self._events)
        return other

    # -- Changing it -----------------------------------------------------------------------

    def _push(self, state: State) -> None:
        """Stand the step about to be added to ``_events``, leading to ``state``."""
        self._standing.append(len(self._events))
        self._state = state
        if len(self._standing) % CHECKPOINT_EVERY == 0:
            self._kept.append(state)
            self._aside = self._tail
            self._tail = []
        else:
            self._tail.append(state)

    def _pop(self) -> Event:
        """Take back the last step; the state before it is kept, or rebuilt from the kept
        state before it."""
        standing, kept, tail = self._standing, self._kept, self._tail
        if tail:
            tail.pop()
        else:  # the current state is a kept one: the block before it, set aside or rebuilt
            kept.pop()
            if self._aside is not None:
                tail = self._tail = self._aside
                self._aside = None
            else:
                state = kept[-1]
                for i in standing[(len(kept) - 1) * CHECKPOINT_EVERY:-1]:
                    state = apply_rules(state, self._events[i]).state
                    tail.append(state)
        self._state = tail[-1] if tail else kept[-1]
        return self._events[standing.pop()]

    def apply(self, event: Event | Shot | Mapping[str, Any]) -> tuple[Effect, ...]:
        """Take one step (an event, a shot or a step object) and return its effects.

        Undo takes back the last step not yet taken back, completely; undos in a row go
        further back. Raises :class:`IllegalEventError` for a refused step; the match is
        then exactly as it was.
        """
        ev = parse_event(event)
        if isinstance(ev, Undo):
            if not self._standing:
                raise NothingToUndoError.at("undo", because("nothing to undo", rule="R19"),
                                            summary=self._state.summary())
            undone = self._pop()
            effects: tuple[Effect, ...] = (
                Effect(EffectKind.UNDO, None, 0, Reason.UNDO, f"took back {undone.phrase()}"),)
        else:
            transition = apply_rules(self._state, ev)
            self._push(transition.state)
            effects = transition.effects
        self._events.append(ev)
        self._events_tuple = None
        return effects

    @classmethod
    def replay(cls, rules: Rules, setup: Setup,
               events: Iterable[Event | Shot | Mapping[str, Any]],
               names: Mapping[Player, str] | None = None,
               handicaps: Mapping[Player, Handicap] | None = None,
               *, on_step: StepHook | None = None) -> Match:
        """The match these events make, rebuilt exactly (as if each was given to
        :meth:`apply` in turn); ``on_step`` sees every step as it is taken.

        Raises :class:`IllegalEventError` naming the step (counted from 1) that was refused.
        """
        match = cls(rules, setup, names, handicaps)
        match._fold(_parsed(events), on_step)
        return match

    @classmethod
    def replay_json(cls, rules: Rules, setup: Setup, bodies: Iterable[str | bytes],
                    names: Mapping[Player, str] | None = None,
                    handicaps: Mapping[Player, Handicap] | None = None,
                    *, on_step: StepHook | None = None) -> Match:
        """:meth:`replay` for a log read as JSON text, one step object per item (the
        ``body`` column of the match log, :meth:`MatchStore.iter_bodies`).

        Each distinct text is decoded and checked once; an equal text later gets the same
        event (a text decides its event completely). A log file may be damaged: text that
        is not JSON or not a step is refused like any bad step, with its step number.
        """
        match = cls(rules, setup, names, handicaps)
        match._fold(_parsed_json(bodies), on_step)
        return match

    def _fold(self, events: Iterator[Event], on_step: StepHook | None) -> None:
        """Take each step of ``events`` in turn through :meth:`apply`, the one path every
        step takes, live or replayed; a refusal names its step number."""
        for i, ev in enumerate(events, 1):
            try:
                effects = self.apply(ev)
            except IllegalEventError as err:
                raise err.told(f"step {i}: {err}") from err
            if on_step is not None:
                on_step(i, ev, self._state, effects)

    def to_json(self) -> dict[str, Any]:
        """The state as the UI shows it, with the players' names, handicaps and
        ``can_undo``."""
        out = self._state.to_json()
        out["names"] = dict(self._names)
        out["handicaps"] = {p: h.to_json() for p, h in self.handicaps.items()}
        out["can_undo"] = self.can_undo
        return out


def _parsed(items: Iterable[Event | Shot | Mapping[str, Any]]) -> Iterator[Event]:
    """Each item as an event; a bad one is refused naming its step."""
    for i, item in enumerate(items, 1):
        try:
            yield parse_event(item)
        except IllegalEventError as err:
            raise err.told(f"step {i}: {err}") from err


def _parsed_json(bodies: Iterable[str | bytes]) -> Iterator[Event]:
    """Each JSON text as an event, decoding and checking each distinct text once."""
    seen: dict[str | bytes, Event] = {}
    for i, text in enumerate(bodies, 1):
        ev = seen.get(text)
        if ev is None:
            try:
                ev = parse_event_json(text)
            except IllegalEventError as err:
                raise err.told(f"step {i}: {err}") from err
            seen[text] = ev
        yield ev
