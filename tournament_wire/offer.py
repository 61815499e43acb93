"""A tournament game offered to a board: the pairing, its two players and the format.

It is part of the contract between the board and the hub: the hub builds offers and sends
them over the wire, the board's table holds one and starts it (``web.table.core``).

When the hub pairs a round, each board given a game is sent an ``offer`` command carrying
one :class:`Offer`; the board's tablet shows it and starts it with one tap, so nobody types
a name on the board. The match it starts keeps :meth:`Offer.ref` in its stored ``meta``
(``{"pairing": {"id", "round", "table"}}``), and every event the board publishes carries it,
so the hub finds the game's pairing by its id, not by names.

:meth:`Offer.from_json` reads an offer from the wire on the board, with the checks the
board's API applies to a new match it is asked to start (``web.api.schemas.NewMatch``):
the same name rules, the same bounds on points and rounds, and the rules engine's own
reading of the options. The hub builds offers with the same class, so the two sides never
disagree on what one is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper import checks
from scorekeeper.errors import ScorekeeperError
from scorekeeper.names import normal_name
from scorekeeper.options import Rules, Variant
from scorekeeper.words import ENGLISH, Words

PAIRING_ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")
MAX_NAME = 40
MAX_POINTS = 50
"""As the board's new-match form allows (``NewMatch.points_to_win_round``)."""
MAX_ROUNDS = 20
MAX_TABLES = 10_000
VARIANTS = ("classic", "trio")


class OfferError(ValueError):
    """An offer, a format or a pairing that does not follow this contract; the message names
    the key at fault (the tournament's wire turns it into its own refusal)."""


def _refused(exc: Exception) -> OfferError:
    return OfferError(str(exc))


@dataclass(frozen=True)
class GameFormat:
    """The tournament's one format: what every game of it is played to."""

    points_to_win_round: int = 5
    rounds_to_win_game: int = 5
    """The engine's own defaults, as the board's new-match form has them."""
    flipping: bool = False
    variant: str = "classic"

    @classmethod
    def from_json(cls, value: Any, key: str = "format") -> GameFormat:
        """A format as a page or the wire gives it; :class:`~web.tournament.OfferError`
        naming the key at fault."""
        if not isinstance(value, Mapping):
            raise OfferError(f"{key}: expected an object, got {checks.show(value)}")
        unknown = set(value) - {"points_to_win_round", "rounds_to_win_game", "flipping",
                                "variant"}
        if unknown:
            raise OfferError(f"{key}: unknown keys {', '.join(sorted(unknown))}")
        try:
            points = checks.integer(value.get("points_to_win_round"),
                                    f"{key}.points_to_win_round", 1, MAX_POINTS)
            rounds = checks.integer(value.get("rounds_to_win_game"),
                                    f"{key}.rounds_to_win_game", 1, MAX_ROUNDS)
            flipping = checks.boolean(value.get("flipping"), f"{key}.flipping")
        except ScorekeeperError as exc:
            raise _refused(exc) from None
        variant = value.get("variant")
        if variant not in VARIANTS:
            raise OfferError(f"{key}.variant: expected \"classic\" or \"trio\", got "
                                 f"{checks.show(variant)}")
        made = cls(points, rounds, flipping, variant)
        try:
            made.rules()  # the engine's own cross-checks (Trio has no flipping, ...)
        except ScorekeeperError as exc:
            raise _refused(exc) from None
        return made

    @classmethod
    def of_rules(cls, rules: Mapping[str, Any]) -> GameFormat:
        """The format a match was played to, from its stored rules (read by the engine)."""
        r = Rules.from_json(dict(rules))
        return cls(r.points_to_win_round, r.rounds_to_win_game, r.flipping, r.variant)

    def rules(self) -> Rules:
        return Rules(variant=self.variant,  # type: ignore[arg-type]
                     flipping=self.flipping, points_to_win_round=self.points_to_win_round,
                     rounds_to_win_game=self.rounds_to_win_game)

    def to_json(self) -> dict[str, Any]:
        return {"points_to_win_round": self.points_to_win_round,
                "rounds_to_win_game": self.rounds_to_win_game,
                "flipping": self.flipping, "variant": self.variant}

    def words(self, t: Words = ENGLISH) -> str:
        """"5 points a round, 3 round wins take the game, no flipping": as the pages say it
        (in the language ``t``)."""
        n = self.points_to_win_round
        if self.variant == Variant.TRIO:
            return t.ngettext("Trio to {n} point", "Trio to {n} points", n).format(
                n=t.number(n))
        points = t.ngettext("{n} point a round", "{n} points a round", n).format(
            n=t.number(n))
        wins = self.rounds_to_win_game
        take = t.ngettext("{n} round win takes the game", "{n} round wins take the game",
                          wins).format(n=t.number(wins))
        flipping = t.gettext("with flipping") if self.flipping else t.gettext("no flipping")
        return f"{points}, {take}, {flipping}"


def check_pairing_id(value: Any, key: str = "pairing.id") -> str:
    if not isinstance(value, str) or not PAIRING_ID_RE.match(value):
        raise OfferError(f"{key}: expected 1-64 letters, digits, '_', '.', ':' or '-', "
                             f"got {checks.show(value)}")
    return value


def pairing_ref(value: Any, key: str = "pairing") -> dict[str, Any] | None:
    """The pairing a board's match carries (``{"id", "round", "table"}``), checked; None when
    the match carries none (a game started by hand, or a board from before offers)."""
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise OfferError(f"{key}: expected an object, got {checks.show(value)}")
    try:
        return {"id": check_pairing_id(value.get("id"), f"{key}.id"),
                "round": checks.integer(value.get("round"), f"{key}.round", 1, MAX_TABLES),
                "table": checks.integer(value.get("table"), f"{key}.table", 1, MAX_TABLES)}
    except ScorekeeperError as exc:
        raise _refused(exc) from None


def _name(value: Any, key: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise OfferError(f"{key}: a player's name must be a non-empty text")
    try:
        name = normal_name(value)
    except ValueError as exc:
        raise OfferError(f"{key}: {exc}") from None
    if len(name) > MAX_NAME:
        raise OfferError(f"{key}: at most {MAX_NAME} characters")
    return name


@dataclass(frozen=True)
class Offer:
    """One tournament game offered to a board."""

    id: str
    """The pairing's id: the same on the hub, in the board's match and in its events."""
    round: int
    table: int
    black: str
    """The first player (the pairing's first-named); the second is :attr:`white`."""
    white: str
    format: GameFormat

    @classmethod
    def from_json(cls, value: Any, key: str = "offer") -> Offer:
        if not isinstance(value, Mapping):
            raise OfferError(f"{key}: expected an object, got {checks.show(value)}")
        ref = pairing_ref(value, key)
        assert ref is not None
        black = _name(value.get("black"), f"{key}.black")
        white = _name(value.get("white"), f"{key}.white")
        if black.casefold() == white.casefold():
            raise OfferError(f"{key}: the two players must be different people")
        return cls(ref["id"], ref["round"], ref["table"], black, white,
                   GameFormat.from_json(value.get("format"), f"{key}.format"))

    def ref(self) -> dict[str, Any]:
        """What the match keeps and its events carry."""
        return {"id": self.id, "round": self.round, "table": self.table}

    def names(self) -> dict[str, str]:
        return {"black": self.black, "white": self.white}

    def to_json(self) -> dict[str, Any]:
        return {**self.ref(), **self.names(), "format": self.format.to_json()}

    def words(self, t: Words = ENGLISH) -> str:
        """"Anna v Ben, round 2, table 3": how the TV and the caller announce it."""
        return t.gettext("{black} v {white}, round {round}, table {table}").format(
            black=self.black, white=self.white, round=self.round, table=self.table)

    def shown(self, t: Words = ENGLISH) -> dict[str, Any]:
        """The offer as the pages receive it: the values and the sentences."""
        return {**self.to_json(), "words": self.words(t), "format_words": self.format.words(t)}


def offer_in_language(shown: Mapping[str, Any] | None, t: Words) -> dict[str, Any] | None:
    """An offer as :meth:`Offer.shown` gave it, its sentences made again in ``t`` (from its
    own values: the snapshot keeps the offer as the board was given it)."""
    if shown is None:
        return None
    values = {k: shown[k] for k in ("id", "round", "table", "black", "white", "format")}
    return Offer.from_json(values).shown(t)
