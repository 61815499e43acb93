"""The steps of a match, as recorded in its log and written in scenario files.

A match is the fold of its events (:mod:`scorekeeper.match`). Each event is a frozen value
whose ``to_json()`` gives back the step object it was parsed from (docs/scenarios.md, "Steps"):

- :class:`ShotEvent` ``{"shot": {...}}``: one shot (:class:`~scorekeeper.shot.Shot`).
- :class:`ShootOff` ``{"shootoff": {"black": v, "white": v}}``: the values reached (R14).
- :class:`Correction` ``{"correct": {...}}``: the referee sets part of the position (R19).
- :class:`Undo` ``{"undo": true}``: take back the last step (R19).
- :class:`Decision` ``{"decide": {"by": p, "red": [...]}}`` or ``{..., "unblock": F}``: a
  Hit on Red change (R4) or an unblock choice (R16) made after the shot, before the next.

:func:`parse_event` checks the shape of a step (keys, types, names of players); whether the
step fits the game (field names, whose turn, R2) is for :func:`scorekeeper.rules.apply`.
Both raise :class:`~scorekeeper.errors.IllegalEventError` naming what was wrong, and
nothing else, whatever they are given (:mod:`scorekeeper.checks` bounds depth, numbers and
messages). :func:`parse_event_json` is the same for JSON text: the match log, an imported
log and the API's request bodies all go through it or its decoder.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar

from scorekeeper import checks
from scorekeeper.errors import MalformedEventError
from scorekeeper.fields import Player
from scorekeeper.frozen import FrozenMap, freeze
from scorekeeper.options import BigState, Handicap
from scorekeeper.phrases import literal, plain, slot
from scorekeeper.shot import RedChoice, Shot

SHOT_KEYS = ("by", "delta", "off_board", "big", "knocked_big", "chain", "chain_from",
             "blockade", "red", "opponent_red", "unblock", "invalid", "keep", "minus_hit")
CORRECTION_KEYS = ("score", "board", "blocked", "round_wins", "turn", "big", "handicaps",
                   "points_to_win_round", "rounds_to_win_game", "end_round", "shootoff",
                   "reason")


class RoundEnd(StrEnum):
    """A correction's ``end_round`` that names no winner (a player's side names the winner);
    its JSON is the same word."""

    DRAWN = "drawn"


END_ROUND = ("black", "white", RoundEnd.DRAWN)
BIG_STATES: tuple[BigState, ...] = tuple(BigState)
STEP_KEYS = ("shot", "shootoff", "correct", "undo", "decide")
"""The keys a step object may have, one a step (:class:`StepKind`, in this order)."""
RED_CHOICES = tuple(RedChoice)


class StepKind(StrEnum):
    """What a step is: the key of its JSON object (``{"shot": ...}``), the same word."""

    SHOT = "shot"
    SHOOTOFF = "shootoff"
    CORRECT = "correct"
    UNDO = "undo"
    DECIDE = "decide"


@dataclass(frozen=True, slots=True)
class ShotEvent:
    """One shot (R1)."""

    kind: ClassVar[StepKind] = StepKind.SHOT
    """The key of its step object."""

    shot: Shot
    """What the sensors saw and a person entered."""

    def __post_init__(self) -> None:
        # A Shot made by hand may hold lists and dicts; the rules and the log need values.
        shot = self.shot
        if not isinstance(shot, Shot):
            raise MalformedEventError.at("shot", f"expected a Shot, got {checks.show(shot)}")
        if not (isinstance(shot.delta, FrozenMap) and isinstance(shot.red, tuple)
                and isinstance(shot.opponent_red, tuple)
                and (shot.chain is None or isinstance(shot.chain, tuple))):
            object.__setattr__(self, "shot", replace(
                shot, delta=freeze(shot.delta), red=tuple(shot.red),
                opponent_red=tuple(shot.opponent_red),
                chain=None if shot.chain is None else tuple(shot.chain)))

    def to_json(self) -> dict[str, Any]:
        out = self.shot.to_json()
        if any(v == 0 for v in self.shot.delta.values()):
            out["delta"] = dict(self.shot.delta)  # keep named zero changes: round-trip exact
        return {"shot": out}

    def phrase(self) -> str:
        """The step in a phrase (:mod:`scorekeeper.phrases`); ``describe`` is its log text."""
        return f"{slot(self.shot.by)}'s shot"

    def describe(self) -> str:
        return plain(self.phrase())


@dataclass(frozen=True, slots=True)
class ShootOff:
    """The values each score skitt reached in a shoot-off (R14)."""

    kind: ClassVar[StepKind] = StepKind.SHOOTOFF
    """The key of its step object."""

    black: int
    """Black's value: an integer, −1 when it left the track."""
    white: int
    """White's value."""

    def __post_init__(self) -> None:
        checks.integer(self.black, "shootoff.black", -1)
        checks.integer(self.white, "shootoff.white", -1)

    def to_json(self) -> dict[str, Any]:
        return {"shootoff": {"black": self.black, "white": self.white}}

    def phrase(self) -> str:
        return f"the shoot-off ({self.black} against {self.white})"

    def describe(self) -> str:
        return plain(self.phrase())


@dataclass(frozen=True, slots=True)
class Correction:
    """A referee's correction (R19); ``None`` leaves that part as it is."""

    kind: ClassVar[StepKind] = StepKind.CORRECT
    """The key of its step object."""

    score: FrozenMap[Player, int] | None = None
    """New scores for the players named."""
    board: FrozenMap[str, int] | None = None
    """New counts for the fields named."""
    blocked: tuple[str, ...] | None = None
    """The exact set of blocked fields (flipping only)."""
    round_wins: FrozenMap[Player, int] | None = None
    """New round wins for the players named."""
    turn: Player | None = None
    """Who is due to shoot; during a shoot-off this ends it."""
    big: FrozenMap[Player, BigState] | None = None
    """Big-skitt states for the players named, as the state has them: ``"hand"`` (to be
    placed again) or ``"center"`` (R11, R12): a wrongly sensed big skitt put right."""
    handicaps: FrozenMap[Player, Handicap] | None = None
    """New handicaps for the players named, shown from the next shot on (R18)."""
    points_to_win_round: int | None = None
    """Fewer points to win a round (the game, in Trio), agreed by the players (R19)."""
    rounds_to_win_game: int | None = None
    """Fewer round wins to win the game, agreed by the players (R19)."""
    end_round: str | None = None
    """The round ends here, recorded by hand: ``"black"``/``"white"`` won it or it is
    ``"drawn"`` (R19, R13)."""
    shootoff: bool = False
    """A shoot-off starts now to decide who shoots (R19, R14)."""
    reason: str | None = None
    """Why, in the referee's words (kept in the log)."""

    def __post_init__(self) -> None:
        for name in ("score", "board", "round_wins", "big", "handicaps"):
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, freeze(value))
        if self.blocked is not None:
            object.__setattr__(self, "blocked", tuple(self.blocked))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.score is not None:
            out["score"] = dict(self.score)
        if self.board is not None:
            out["board"] = dict(self.board)
        if self.blocked is not None:
            out["blocked"] = list(self.blocked)
        if self.round_wins is not None:
            out["round_wins"] = dict(self.round_wins)
        if self.turn is not None:
            out["turn"] = self.turn
        if self.big is not None:
            out["big"] = dict(self.big)
        if self.handicaps is not None:
            out["handicaps"] = {p: h.to_json() for p, h in self.handicaps.items()}
        for key in ("points_to_win_round", "rounds_to_win_game", "end_round"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.shootoff:
            out["shootoff"] = True
        if self.reason is not None:
            out["reason"] = self.reason
        return {"correct": out}

    def phrase(self) -> str:
        """The referee's reason is their own words: kept as typed."""
        return "the correction" + (f" ({literal(self.reason)})" if self.reason else "")

    def describe(self) -> str:
        return plain(self.phrase())


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last step not yet taken back (R19)."""

    kind: ClassVar[StepKind] = StepKind.UNDO
    """The key of its step object."""

    def to_json(self) -> dict[str, Any]:
        return {"undo": True}

    def phrase(self) -> str:
        return "undo"

    def describe(self) -> str:
        return plain(self.phrase())


@dataclass(frozen=True, slots=True)
class Decision:
    """A choice made after a shot and before the next: Hit on Red points changed to
    ``back`` (R4) and/or the blockade lifted with an unblock right (R16)."""

    kind: ClassVar[StepKind] = StepKind.DECIDE
    """The key of its step object."""

    by: Player
    """Who decides: the holder of the pending choice."""
    red: tuple[RedChoice, ...] | None = None
    """The red points' choices in order (a point may only change to ``back``)."""
    unblock: str | None = None
    """The blocked opposite field to lift."""

    def __post_init__(self) -> None:
        if self.red is not None:
            object.__setattr__(self, "red", tuple(self.red))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"by": self.by}
        if self.red is not None:
            out["red"] = list(self.red)
        if self.unblock is not None:
            out["unblock"] = self.unblock
        return {"decide": out}

    def phrase(self) -> str:
        return f"{slot(self.by)}'s decision"

    def describe(self) -> str:
        return plain(self.phrase())


Event = ShotEvent | ShootOff | Correction | Undo | Decision
"""Any step of a match."""
_EVENT_TYPES = (ShotEvent, ShootOff, Correction, Undo, Decision)


def _red_list(value: Any, key: str) -> tuple[RedChoice, ...]:
    items = checks.string_list(value, key)
    for i, item in enumerate(items):
        if item not in RED_CHOICES:
            raise MalformedEventError.at(
                f"{key}[{i}]", f"expected \"advance\" or \"back\", got {checks.show(item)}")
    return tuple(RedChoice(item) for item in items)


def _knocked_big(value: Any) -> tuple[str, ...]:
    """R12: where each big skitt knocked loose landed; a string for one (as always written)
    or a list of one or two (there are two big skitts)."""
    key = "shot.knocked_big"
    if value is None:
        return ()
    if isinstance(value, str):
        return (checks.string(value, key),)
    items = checks.string_list(value, key)
    if not items:
        raise MalformedEventError.at(key, "expected at least one landing (leave the key out "
                                     "when no big skitt was knocked loose)")
    if len(items) > 2:
        raise MalformedEventError.at(key, f"there are two big skitts: at most two can be "
                                     f"knocked loose, got {len(items)}")
    return items


def parse_shot(obj: Any) -> Shot:
    """A :class:`~scorekeeper.shot.Shot` from a scenario ``shot`` object (keys and types
    checked here; field names against the game by the rules)."""
    obj = checks.mapping(obj, "shot")
    checks.only_keys(obj, SHOT_KEYS, "shot")
    if "by" not in obj:
        raise MalformedEventError.at("shot.by", "missing (who shot?)")
    by = checks.player(obj["by"], "shot.by")
    delta = checks.counts(obj.get("delta", {}), "shot.delta")
    off_board = checks.integer(obj.get("off_board", 0), "shot.off_board", 0)
    big = obj.get("big")
    if big is not None:
        checks.string(big, "shot.big")
    knocked = _knocked_big(obj.get("knocked_big"))
    chain = obj.get("chain")
    if chain is not None:
        chain = checks.string_list(chain, "shot.chain")
        if len(chain) != 2:
            raise MalformedEventError.at("shot.chain", f"expected two fields, got {len(chain)}")
    blockade = _blockades(obj.get("blockade"))
    chain_from = obj.get("chain_from")
    if chain_from is not None:
        checks.string(chain_from, "shot.chain_from")
    unblock = obj.get("unblock")
    if unblock is not None:
        checks.string(unblock, "shot.unblock")
    return Shot(
        by=by,
        delta=FrozenMap(delta),
        off_board=off_board,
        big=big,
        knocked_big=knocked,
        chain=chain,  # type: ignore[arg-type]
        blockade=blockade,
        chain_from=chain_from,
        red=_red_list(obj.get("red", []), "shot.red"),
        opponent_red=_red_list(obj.get("opponent_red", []), "shot.opponent_red"),
        unblock=unblock,
        invalid=checks.boolean(obj.get("invalid", False), "shot.invalid"),
        keep=checks.boolean(obj.get("keep", False), "shot.keep"),
        minus_hit=checks.boolean(obj.get("minus_hit", False), "shot.minus_hit"),
    )


def _blockades(value: Any) -> tuple[tuple[str, str], ...]:
    """R16: each blockade knocked loose, ``{"from": F, "to": G}``; an object for one (as
    always written) or a list of them, in the order they landed."""
    if value is None:
        return ()
    many = isinstance(value, list)
    items = value if many else [value]
    if many and not items:
        raise MalformedEventError.at("shot.blockade", "expected at least one blockade (leave "
                                     "the key out when none was knocked loose)")
    out: list[tuple[str, str]] = []
    for i, item in enumerate(items):
        key = f"shot.blockade[{i}]" if many else "shot.blockade"
        b = checks.mapping(item, key)
        checks.only_keys(b, ("from", "to"), key)
        for k in ("from", "to"):
            if k not in b:
                raise MalformedEventError.at(f"{key}.{k}", "missing")
            checks.string(b[k], f"{key}.{k}")
        out.append((b["from"], b["to"]))
    return tuple(out)


def _parse_shootoff(obj: Any) -> ShootOff:
    obj = checks.mapping(obj, "shootoff")
    checks.only_keys(obj, ("black", "white"), "shootoff")
    for k in ("black", "white"):
        if k not in obj:
            raise MalformedEventError.at(f"shootoff.{k}", "missing")
    return ShootOff(black=checks.integer(obj["black"], "shootoff.black", -1),
                    white=checks.integer(obj["white"], "shootoff.white", -1))


def _big_states(value: Any) -> dict[Player, BigState]:
    """A correction's ``{player: "hand" | "center"}`` (any subset of the two players)."""
    obj = checks.mapping(value, "correct.big")
    out: dict[Player, BigState] = {}
    for p, v in obj.items():
        player = checks.player(p, "correct.big", of_key=True)
        if v not in BIG_STATES:
            raise MalformedEventError.at(
                f"correct.big.{p}", f"expected \"hand\" or \"center\", got {checks.show(v)}")
        out[player] = BigState(v)
    return out


def _parse_correction(obj: Any) -> Correction:
    obj = checks.mapping(obj, "correct")
    checks.only_keys(obj, CORRECTION_KEYS, "correct")
    blocked = None
    if "blocked" in obj:
        blocked = checks.string_list(obj["blocked"], "correct.blocked")
        if len(set(blocked)) != len(blocked):
            raise MalformedEventError.at("correct.blocked", f"a field is named twice in {blocked}")
    return Correction(
        score=None if "score" not in obj else FrozenMap(
            checks.per_player(obj["score"], "correct.score")),
        board=None if "board" not in obj else FrozenMap(
            checks.counts(obj["board"], "correct.board")),
        blocked=blocked,
        round_wins=None if "round_wins" not in obj else FrozenMap(
            checks.per_player(obj["round_wins"], "correct.round_wins")),
        turn=None if "turn" not in obj else checks.player(obj["turn"], "correct.turn"),
        big=None if "big" not in obj else FrozenMap(_big_states(obj["big"])),
        handicaps=None if "handicaps" not in obj else FrozenMap(_handicaps(obj["handicaps"])),
        points_to_win_round=None if "points_to_win_round" not in obj else checks.integer(
            obj["points_to_win_round"], "correct.points_to_win_round", 1),
        rounds_to_win_game=None if "rounds_to_win_game" not in obj else checks.integer(
            obj["rounds_to_win_game"], "correct.rounds_to_win_game", 1),
        end_round=None if "end_round" not in obj else _end_round(obj["end_round"]),
        shootoff=False if "shootoff" not in obj else _true(obj["shootoff"], "correct.shootoff"),
        reason=None if "reason" not in obj else checks.string(obj["reason"], "correct.reason"),
    )


def _handicaps(value: Any) -> dict[Player, Handicap]:
    """A correction's ``{player: {"line", "finger", "hand"}}`` (R18)."""
    obj = checks.mapping(value, "correct.handicaps")
    out: dict[Player, Handicap] = {}
    for p, v in obj.items():
        player = checks.player(p, "correct.handicaps", of_key=True)
        try:
            out[player] = Handicap.from_json(v)
        except MalformedEventError as err:
            raise MalformedEventError.at(f"correct.handicaps.{p}", err.why) from None
    return out


def _end_round(value: Any) -> str:
    """``"black"``, ``"white"`` or ``"drawn"``."""
    text = checks.string(value, "correct.end_round")
    if text not in END_ROUND:
        raise MalformedEventError.at(
            "correct.end_round",
            f"expected \"black\", \"white\" or \"drawn\", got {checks.show(value)}")
    return RoundEnd.DRAWN if text == RoundEnd.DRAWN else text


def _true(value: Any, key: str) -> bool:
    """A key that is only ever written ``true``."""
    if value is not True:
        raise MalformedEventError.at(key, f"expected true, got {checks.show(value)}")
    return True


def _parse_decision(obj: Any) -> Decision:
    obj = checks.mapping(obj, "decide")
    checks.only_keys(obj, ("by", "red", "unblock"), "decide")
    if "by" not in obj:
        raise MalformedEventError.at("decide.by", "missing (who decides?)")
    by = checks.player(obj["by"], "decide.by")
    red = None if "red" not in obj else _red_list(obj["red"], "decide.red")
    unblock = None if "unblock" not in obj else checks.string(obj["unblock"], "decide.unblock")
    if red is None and unblock is None:
        raise MalformedEventError.at("decide", "give \"red\" (R4) or \"unblock\" (R16)")
    return Decision(by=by, red=red, unblock=unblock)


def parse_event_json(text: str | bytes) -> Event:
    """The event for a step given as JSON text (a match log body, an imported line): the
    same checks as :func:`parse_event`, after :func:`~scorekeeper.checks.decode_json`."""
    return parse_event(checks.decode_json(text, "step"))


def parse_event(obj: Mapping[str, Any] | Event | Shot) -> Event:
    """The event for a step object ``{"shot": {...}}``, ``{"shootoff": {...}}``,
    ``{"correct": {...}}``, ``{"undo": true}`` or ``{"decide": {...}}``.

    An event passed in is returned as it is; a bare :class:`~scorekeeper.shot.Shot` becomes
    a :class:`ShotEvent`. Raises
    :class:`~scorekeeper.errors.MalformedEventError` naming the key that is wrong.
    """
    if isinstance(obj, _EVENT_TYPES):
        return obj  # type: ignore[return-value]
    if isinstance(obj, Shot):
        return ShotEvent(obj)
    if not isinstance(obj, Mapping):
        raise MalformedEventError.at("step", f"expected an object, got {checks.show(obj)}")
    checks.within_depth(obj, "step")
    if len(obj) != 1:
        raise MalformedEventError.at(
            "step", f"expected exactly one of {', '.join(STEP_KEYS)}, got {checks.show(list(obj))}")
    ((key, value),) = obj.items()
    if key == "shot":
        return ShotEvent(parse_shot(value))
    if key == "shootoff":
        return _parse_shootoff(value)
    if key == "correct":
        return _parse_correction(value)
    if key == "undo":
        if value is not True:
            raise MalformedEventError.at("undo", f"expected true, got {checks.show(value)}")
        return Undo()
    if key == "decide":
        return _parse_decision(value)
    raise MalformedEventError.at(
        "step", f"unknown key {checks.show(key)} (known: {', '.join(STEP_KEYS)})")
