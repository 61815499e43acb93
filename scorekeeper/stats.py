"""Players' statistics, computed from the events of their matches (no storage of their own).

The match log already keeps every match with its players' names and every step; a match's
statistics are the fold of its *standing* steps (an undo takes a step's counts back with it,
R19), so they are derived on read rather than stored, and can never disagree with the log.

Players are people, not colours: a name is matched case-insensitively and with its spaces
tidied (:func:`player_key`). A match counts once it is finished (R13) and both players have
real, different names: a match without names (or named "Black" and "White", as earlier
versions stored one) is nobody's.

What each figure means (each shot is credited to its shooter, a late decision to whoever made
it, R4/R16):

- *points*: points the player made: their own points (R3, R17), plus the opponent's Hit on Red
  set-backs they chose (R4); a late decision moves a point from ``advance`` to ``back``, which
  changes neither. Points given away by an own goal (R7) or a gift are not the shooter's.
- *Hit on Red*: how each of the player's red points counted in the end (``advance`` or
  ``back``), after any late decision.
- *penalties*: penalty points (R6) of the player's shots; *own goals*: points their shots put
  on their own home fields for the opponent (R7).
- *clearings* (R5) and *chains* (R15) made by the player's shots.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from scorekeeper.effects import Effect, EffectKind, Reason
from scorekeeper.events import Decision, Event, ShotEvent, Undo
from scorekeeper.fields import PLAYERS, Player, opponent
from scorekeeper.match import Match
from scorekeeper.names import name_key
from scorekeeper.options import Rules, Setup
from scorekeeper.shot import RedChoice
from scorekeeper.state import State
from scorekeeper.words import UNNAMED  # names that name nobody: such a match is nobody's


def player_key(name: str) -> str:
    """The identity of a player's name: case, extra spaces and invisible characters do not
    make another person (:func:`scorekeeper.names.name_key`, the hub's too)."""
    return name_key(name)


@dataclass(frozen=True)
class Tally:
    """Counts of one player's play; added up over shots, then over matches."""

    shots: int = 0
    points: int = 0
    red_advance: int = 0
    red_back: int = 0
    penalties: int = 0
    own_goals: int = 0
    clearings: int = 0
    chains: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(**{f.name: getattr(self, f.name) + getattr(other, f.name)
                        for f in fields(Tally)})


@dataclass(frozen=True)
class MatchRecord:
    """One stored match as the statistics see it."""

    match_id: int
    created_at: float
    names: Mapping[Player, str]
    finished: bool
    winner: Player | None
    round_wins: Mapping[Player, int]
    rounds_played: int
    tally: Mapping[Player, Tally]

    @property
    def counted(self) -> bool:
        """Finished, and between two different, named people."""
        keys = {player_key(self.names.get(p, p)) for p in PLAYERS}
        return self.finished and len(keys) == 2 and not keys & UNNAMED

    def key(self, player: Player) -> str:
        return player_key(self.names.get(player, player))


def _points(effects: Iterable[Effect], actor: Player) -> int:
    other = opponent(actor)
    total = 0
    for e in effects:
        if e.kind is EffectKind.POINT and e.player == actor:
            total += e.amount
        elif e.kind is EffectKind.BACK and e.player == other:
            total -= e.amount  # the opponent set back by the actor's Hit on Red point
        elif e.kind is EffectKind.BACK and e.player == actor and e.reason is Reason.HIT_ON_RED:
            total += e.amount  # a late decision takes back the advance it replaces
    return total


def step_tally(event: Event, effects: Iterable[Effect]) -> Tally:
    """What one shot or late decision adds to the counts of whoever made it."""
    effects = tuple(effects)
    if isinstance(event, ShotEvent):
        by = event.shot.by
        other = opponent(by)
        return Tally(
            shots=1,
            points=_points(effects, by),
            red_advance=sum(1 for e in effects if e.kind is EffectKind.POINT
                            and e.player == by and e.red == RedChoice.ADVANCE),
            red_back=sum(1 for e in effects if e.kind is EffectKind.BACK and e.player == other),
            penalties=sum(1 for e in effects if e.kind is EffectKind.PENALTY),
            own_goals=sum(1 for e in effects if e.reason is Reason.OWN_GOAL),
            clearings=sum(1 for e in effects if e.kind is EffectKind.CLEAR),
            chains=1 if event.shot.chain is not None and not event.shot.invalid else 0,
        )
    if isinstance(event, Decision):
        # Each point changed from advance to back takes back its advance (R4).
        changed = sum(1 for e in effects if e.kind is EffectKind.BACK and e.player == event.by)
        return Tally(points=_points(effects, event.by), red_advance=-changed, red_back=changed)
    return Tally()


def match_record(match_id: int, created_at: float, rules: Any, setup: Any,
                 names: Mapping[str, str], steps: Iterable[Any]) -> MatchRecord:
    """Replay a stored match (its header's JSON and its step objects) and count it.

    Raises :class:`~scorekeeper.errors.IllegalEventError` when the rules refuse a step.
    """
    stack: list[tuple[Player | None, Tally]] = []  # per standing step: an undo pops one

    def on_step(_: int, event: Event, state: State, effects: tuple[Effect, ...]) -> None:
        if isinstance(event, Undo):
            if stack:
                stack.pop()
            return
        actor = event.shot.by if isinstance(event, ShotEvent) else (
            event.by if isinstance(event, Decision) else None)
        stack.append((actor, step_tally(event, effects)))

    clean = {p: n for p, n in names.items() if p in PLAYERS and isinstance(n, str)}
    match = Match.replay(Rules.from_json(rules), Setup.from_json(setup), steps, clean,
                         on_step=on_step)
    state = match.state
    return MatchRecord(
        match_id=match_id,
        created_at=created_at,
        names={p: " ".join(clean.get(p, p).split()) for p in PLAYERS},
        finished=state.is_game_over,
        winner=state.winner,
        round_wins=dict(state.round_wins),
        rounds_played=max(1, len(state.rounds)),
        tally=_totals(stack),
    )


def _totals(stack: list[tuple[Player | None, Tally]]) -> dict[Player, Tally]:
    totals = {p: Tally() for p in PLAYERS}
    for actor, tally in stack:
        if actor is not None:
            totals[actor] = totals[actor] + tally
    return totals


@dataclass(frozen=True)
class PlayerStats:
    """Everything ``/stats`` and ``skitter stats`` show for one player."""

    name: str
    """The spelling used in the player's newest match."""
    matches: int = 0
    matches_won: int = 0
    rounds_won: int = 0
    rounds_played: int = 0
    tally: Tally = field(default_factory=Tally)

    @property
    def points_per_shot(self) -> float:
        return self.tally.points / self.tally.shots if self.tally.shots else 0.0

    @property
    def shots_per_round(self) -> float:
        return self.tally.shots / self.rounds_played if self.rounds_played else 0.0

    def to_json(self) -> dict[str, Any]:
        t = self.tally
        return {
            "name": self.name, "matches": self.matches, "matches_won": self.matches_won,
            "rounds_won": self.rounds_won, "rounds_played": self.rounds_played,
            "shots": t.shots, "points": t.points,
            "points_per_shot": round(self.points_per_shot, 2),
            "red_advance": t.red_advance, "red_back": t.red_back, "penalties": t.penalties,
            "own_goals": t.own_goals, "clearings": t.clearings, "chains": t.chains,
            "shots_per_round": round(self.shots_per_round, 2),
        }


def counted_records(records: Iterable[MatchRecord]) -> list[MatchRecord]:
    """The matches that count, oldest first (the order ratings are updated in)."""
    return sorted((r for r in records if r.counted), key=lambda r: (r.created_at, r.match_id))


def player_stats(records: Iterable[MatchRecord]) -> dict[str, PlayerStats]:
    """Each player's statistics by :func:`player_key`, over the matches that count."""
    out: dict[str, PlayerStats] = {}
    for r in counted_records(records):
        for p in PLAYERS:
            key = r.key(p)
            before = out.get(key, PlayerStats(name=r.names[p]))
            out[key] = replace(
                before,
                name=r.names[p],
                matches=before.matches + 1,
                matches_won=before.matches_won + (r.winner == p),
                rounds_won=before.rounds_won + r.round_wins.get(p, 0),
                rounds_played=before.rounds_played + r.rounds_played,
                tally=before.tally + r.tally[p],
            )
    return out


@dataclass(frozen=True)
class HeadToHead:
    """Two players' matches against each other."""

    names: tuple[str, str]
    matches: int
    wins: tuple[int, int]
    rounds: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        return {"names": list(self.names), "matches": self.matches, "wins": list(self.wins),
                "rounds": list(self.rounds)}


def head_to_head(records: Iterable[MatchRecord], a: str, b: str) -> HeadToHead:
    """``a`` against ``b`` (names matched as :func:`player_key` does; shown as given)."""
    ka, kb = player_key(a), player_key(b)
    matches, wins, rounds = 0, [0, 0], [0, 0]
    for r in counted_records(records):
        side = {r.key(p): p for p in PLAYERS}
        if set(side) != {ka, kb}:
            continue
        matches += 1
        for i, key in enumerate((ka, kb)):
            p = side[key]
            wins[i] += r.winner == p
            rounds[i] += r.round_wins.get(p, 0)
    return HeadToHead((" ".join(a.split()), " ".join(b.split())), matches,
                      (wins[0], wins[1]), (rounds[0], rounds[1]))


def known_names(records: Iterable[MatchRecord]) -> list[str]:
    """Every person's name (newest spelling), for the new-match form, sorted."""
    latest: dict[str, str] = {}
    for r in sorted(records, key=lambda r: (r.created_at, r.match_id)):
        for p in PLAYERS:
            key = r.key(p)
            if key not in UNNAMED:
                latest[key] = " ".join(r.names[p].split())
    return sorted(latest.values(), key=str.casefold)
