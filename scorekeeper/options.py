"""The options a game is played with (:class:`Rules`) and the position it starts from
(:class:`Setup`), as in the ``rules`` and ``setup`` objects of a scenario file.

Both are frozen values checked when made: a :class:`Rules` or :class:`Setup` that exists is
well formed. Whether a setup fits the rules (field names, score limits, the pot) is checked
by :func:`scorekeeper.state.initial_state`, which needs both.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property
from typing import Any, Literal, get_args

from scorekeeper import checks
from scorekeeper.errors import MalformedEventError, because
from scorekeeper.fields import (
    DEFAULT_COLORS,
    MINUS,
    PLAYERS,
    RED,
    Player,
    field_names,
    home_fields,
    opposite_fields,
)
from scorekeeper.frozen import FrozenMap, freeze


class Variant(StrEnum):
    """Which game is played: classic (R1-R16) or Trio (R17); its JSON is the same word."""

    CLASSIC = "classic"
    TRIO = "trio"


class BigState(StrEnum):
    """Where a player's big skitt is (R11, R12); its JSON is the same word."""

    HAND = "hand"
    """In hand: to be shot to the centre."""
    CENTER = "center"
    """On its spot in the centre."""


ShootingLine = Literal["standard", "semicircle", "beginner"]
Finger = Literal["usual", "different"]
Hand = Literal["dominant", "non-dominant"]
SHOOTING_LINES: tuple[str, ...] = get_args(ShootingLine)
"""R18's shooting lines: the one list the engine, the API and the tablet offer."""
FINGERS: tuple[str, ...] = get_args(Finger)
"""Handicap 2, first part: the usual finger or a different one."""
HANDS: tuple[str, ...] = get_args(Hand)
"""Handicap 2, second part: the dominant hand or the non-dominant one."""
OLD_HANDS = {"finger": "dominant", "hand": "non-dominant"}
"""How a handicap recorded before finger and hand were apart reads: ``"finger"`` was the
usual shot, ``"hand"`` Handicap 2's other hand."""
RULES_KEYS = ("variant", "flipping", "points_to_win_round", "rounds_to_win_game", "pot", "colors")
SETUP_KEYS = ("first", "big", "board", "blocked", "score", "round_wins", "round", "minus_hits")


@dataclass(frozen=True)
class Rules:
    """The options of a game (docs/rules.md; docs/scenarios.md ``rules``)."""

    variant: Variant = Variant.CLASSIC
    """``"classic"`` or ``"trio"`` (R17)."""

    flipping: bool = False
    """The advanced flipping option (R16); classic only."""

    points_to_win_round: int = 5
    """Points that win a round (classic, R13) or the game (Trio, R17)."""

    rounds_to_win_game: int = 5
    """Round wins that win the game (R13; 3 for a short game). Unused in Trio."""

    pot: int = 20
    """Skitts in the pot at the start (R2)."""

    colors: tuple[str, str, str] = DEFAULT_COLORS
    """The three colours in order; the first is always ``red`` (R4)."""

    def __post_init__(self) -> None:
        if not isinstance(self.colors, tuple):
            object.__setattr__(self, "colors", tuple(self.colors))
        if self.variant not in tuple(Variant):
            raise MalformedEventError.at(
                "rules.variant",
                f"expected \"classic\" or \"trio\", got {checks.show(self.variant)}")
        object.__setattr__(self, "variant", Variant(self.variant))  # decoded once, here
        checks.boolean(self.flipping, "rules.flipping")
        checks.integer(self.points_to_win_round, "rules.points_to_win_round", 1, 1000)
        checks.integer(self.rounds_to_win_game, "rules.rounds_to_win_game", 1, 1000)
        checks.integer(self.pot, "rules.pot", 1, 10_000)
        if self.variant is Variant.TRIO and self.flipping:
            raise MalformedEventError.at("rules.flipping",
                                         because("Trio has no blockades", rule="R17"))
        if self.variant is Variant.CLASSIC and self.pot < 2 * self.rounds_to_win_game - 1:
            raise MalformedEventError.at(
                "rules.pot", f"{self.pot} skitts cannot fill the round counters of a game to "
                f"{self.rounds_to_win_game} round wins (need at least "
                f"{2 * self.rounds_to_win_game - 1})"
            )
        colors = self.colors
        if len(colors) != 3 or not all(isinstance(c, str) for c in colors):
            raise MalformedEventError.at(
                "rules.colors", f"expected three colour names, got {checks.show(list(colors))}"
            )
        if colors[0] != RED:
            raise MalformedEventError.at(
                "rules.colors", f"the first colour is always \"red\", got {checks.show(colors[0])}"
            )
        for c in colors:
            if not c or "." in c or c == MINUS or c.strip() != c:
                raise MalformedEventError.at(
                    "rules.colors", f"{checks.show(c)} is not a colour name")
        if len(set(colors)) != 3:
            raise MalformedEventError.at(
                "rules.colors", f"names repeat in {checks.show(list(colors))}")

    @property
    def is_trio(self) -> bool:
        """True for the Trio variant (R17)."""
        return self.variant is Variant.TRIO

    @cached_property
    def fields(self) -> tuple[str, ...]:
        """The seven field names in board order (black's colours, white's, minus)."""
        return field_names(self.colors)

    @cached_property
    def color_fields(self) -> frozenset[str]:
        """The six colour fields."""
        return frozenset(self.fields[:-1])

    @cached_property
    def _opposite(self) -> dict[str, tuple[str, ...]]:
        return {p: opposite_fields(p, self.colors) for p in PLAYERS}  # type: ignore[arg-type]

    @cached_property
    def _home(self) -> dict[str, tuple[str, ...]]:
        return {p: home_fields(p, self.colors) for p in PLAYERS}  # type: ignore[arg-type]

    def opposite(self, shooter: Player) -> tuple[str, ...]:
        """The fields ``shooter`` collects on, in colour order."""
        return self._opposite[shooter]

    def home(self, shooter: Player) -> tuple[str, ...]:
        """The shooter's own colour fields, in colour order."""
        return self._home[shooter]

    @classmethod
    def from_json(cls, obj: Any) -> Rules:
        """The rules described by a scenario ``rules`` object; every key is optional.

        Raises :class:`~scorekeeper.errors.MalformedEventError` naming the bad key.
        """
        if obj is None:
            return cls()
        obj = checks.mapping(obj, "rules")
        checks.only_keys(obj, RULES_KEYS, "rules")
        kwargs: dict[str, Any] = dict(obj)
        if "colors" in kwargs:
            kwargs["colors"] = checks.string_list(kwargs["colors"], "rules.colors")
        return cls(**kwargs)

    def to_json(self) -> dict[str, Any]:
        """The full ``rules`` object (every key, so a log says exactly what was played)."""
        return {
            "variant": str(self.variant),
            "flipping": self.flipping,
            "points_to_win_round": self.points_to_win_round,
            "rounds_to_win_game": self.rounds_to_win_game,
            "pot": self.pot,
            "colors": list(self.colors),
        }


@dataclass(frozen=True)
class Setup:
    """The position before the first step (docs/scenarios.md ``setup``); every part optional."""

    first: Player | None = None
    """Who shoots first; ``None`` starts the game with a shoot-off (R14)."""

    big: Mapping[Player, BigState] | None = None
    """``"hand"`` or ``"center"`` per player (classic); missing players hold theirs in hand."""

    board: Mapping[str, int] = field(default_factory=FrozenMap)
    """Ordinary skitts per field; they come out of the pot (R2)."""

    blocked: tuple[str, ...] = ()
    """Blocked fields (flipping only, R16); each blockade comes out of the pot."""

    score: Mapping[Player, int] = field(default_factory=FrozenMap)
    """Points per player in the current round (default 0)."""

    round_wins: Mapping[Player, int] = field(default_factory=FrozenMap)
    """Round wins per player so far; each is a skitt on a round counter (R2, R13)."""

    round: int | None = None
    """The round being played; default 1 + all round wins."""

    minus_hits: int | None = None
    """Trio (R17): hits on the minus field since it was last cleared; default one per skitt
    on it (at most three: a fourth hit would have cleared it)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "board", freeze(self.board))
        object.__setattr__(self, "score", freeze(self.score))
        object.__setattr__(self, "round_wins", freeze(self.round_wins))
        if self.big is not None:
            object.__setattr__(self, "big", freeze(self.big))
        object.__setattr__(self, "blocked", tuple(self.blocked))
        if self.first is not None:
            checks.player(self.first, "setup.first")
        if self.big is not None:
            for p, v in self.big.items():
                checks.player(p, "setup.big", of_key=True)
                if v not in tuple(BigState):
                    raise MalformedEventError.at(
                        f"setup.big.{p}", f"expected \"hand\" or \"center\", got {checks.show(v)}"
                    )
            object.__setattr__(self, "big", freeze({p: BigState(v) for p, v in self.big.items()}))
        for name, n in self.board.items():
            checks.string(name, "setup.board", of_key=True)
            checks.integer(n, f"setup.board.{name}", 0)
        for i, name in enumerate(self.blocked):
            checks.string(name, f"setup.blocked[{i}]")
        if len(set(self.blocked)) != len(self.blocked):
            raise MalformedEventError.at(
                "setup.blocked", f"a field is named twice in {self.blocked}")
        for p, n in self.score.items():
            checks.player(p, "setup.score", of_key=True)
            checks.integer(n, f"setup.score.{p}")
        for p, n in self.round_wins.items():
            checks.player(p, "setup.round_wins", of_key=True)
            checks.integer(n, f"setup.round_wins.{p}", 0)
        if self.round is not None:
            checks.integer(self.round, "setup.round", 1)
        if self.minus_hits is not None:
            checks.integer(self.minus_hits, "setup.minus_hits", 0, 3)

    @classmethod
    def from_json(cls, obj: Any) -> Setup:
        """The setup described by a scenario ``setup`` object; every key is optional.

        Raises :class:`~scorekeeper.errors.MalformedEventError` naming the bad key.
        """
        if obj is None:
            return cls()
        obj = checks.mapping(obj, "setup")
        checks.only_keys(obj, SETUP_KEYS, "setup")
        big = obj.get("big")
        return cls(
            first=None if obj.get("first") is None else checks.player(obj["first"], "setup.first"),
            big=None if big is None else checks.mapping(big, "setup.big"),  # type: ignore[arg-type]
            board=checks.counts(obj.get("board", {}), "setup.board"),
            blocked=checks.string_list(obj.get("blocked", []), "setup.blocked"),
            score=checks.per_player(obj.get("score", {}), "setup.score"),
            round_wins=checks.per_player(obj.get("round_wins", {}), "setup.round_wins", 0),
            round=None if obj.get("round") is None else checks.integer(obj["round"], "setup.round"),
            minus_hits=None if obj.get("minus_hits") is None else checks.integer(
                obj["minus_hits"], "setup.minus_hits", 0, 3),
        )

    def to_json(self) -> dict[str, Any]:
        """The ``setup`` object, leaving out what is at its default."""
        out: dict[str, Any] = {}
        if self.first is not None:
            out["first"] = self.first
        if self.big is not None:
            out["big"] = dict(self.big)
        if self.board:
            out["board"] = dict(self.board)
        if self.blocked:
            out["blocked"] = list(self.blocked)
        if self.score:
            out["score"] = dict(self.score)
        if self.round_wins:
            out["round_wins"] = dict(self.round_wins)
        if self.round is not None:
            out["round"] = self.round
        if self.minus_hits is not None:
            out["minus_hits"] = self.minus_hits
        return out


@dataclass(frozen=True)
class Handicap:
    """R18: how a player shoots. Recorded and shown; it changes no score. Handicap 2 is "a
    different finger and/or the non-dominant hand", so finger and hand are recorded apart."""

    line: ShootingLine = "standard"
    """The shooting line: ``"standard"``, ``"semicircle"`` or ``"beginner"``."""

    finger: Finger = "usual"
    """The ``"usual"`` finger or a ``"different"`` one."""

    hand: Hand = "dominant"
    """The ``"dominant"`` hand or the ``"non-dominant"`` one."""

    def __post_init__(self) -> None:
        for key, allowed in (("line", SHOOTING_LINES), ("finger", FINGERS), ("hand", HANDS)):
            value = getattr(self, key)
            if value not in allowed:
                raise MalformedEventError.at(
                    f"handicap.{key}",
                    f"expected one of {', '.join(allowed)}, got {checks.show(value)}")

    @classmethod
    def from_json(cls, obj: Any) -> Handicap:
        """A handicap from ``{"line": ..., "finger": ..., "hand": ...}`` (all optional). A
        record from before finger and hand were apart (``"hand": "finger"`` or ``"hand"``)
        reads as :data:`OLD_HANDS` says, so old match logs still load."""
        obj = dict(checks.mapping(obj, "handicap"))
        checks.only_keys(obj, ("line", "finger", "hand"), "handicap")
        if "finger" not in obj and obj.get("hand") in OLD_HANDS:
            obj["hand"] = OLD_HANDS[obj["hand"]]
        return cls(**obj)

    def to_json(self) -> dict[str, str]:
        return {"line": self.line, "finger": self.finger, "hand": self.hand}
