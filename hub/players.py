"""The tournament's players by name, and the refusal every change of the tournament raises.

A name is registered as the boards write it (:func:`check_name`), two names are a pairing's
players however they are spelt (:func:`same_players`), and a result counts under the names as
registered (:func:`spelt_as`). :class:`TournamentError` carries its sentences in English and
as catalog entries, for the API to word in the request's language (``said.detail``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hub.model import GameResult, Pairing
from hub.said import MARK, Refusal, Sentence
from scorekeeper.names import name_key, normal_name

MAX_NAME = 40


class TournamentError(Refusal, ValueError):
    """A change the tournament cannot take now; its sentences say why (English in
    ``str(error)``, the request's language in the API's ``detail``: ``said.detail``)."""


def already_registered(name: str) -> Sentence:
    return Sentence(MARK.gettext("player '{name}' is already registered"), name=name)


def same_players(names: Sequence[str], pairing: Pairing) -> bool:
    """True when ``names`` are the pairing's two players, spelt as :func:`name_key` allows."""
    return {name_key(n) for n in names} == {name_key(p) for p in pairing.players()}


def check_name(name: object) -> str:
    """A name to register, normalised as the boards' are (:func:`scorekeeper.names.normal_name`)."""
    if not isinstance(name, str) or not name.strip():
        raise TournamentError(MARK.gettext("a player's name must be a non-empty text"))
    try:
        name = normal_name(name)
    except ValueError as exc:
        raise TournamentError(MARK.gettext("a player's name {problem}"),
                              problem=Sentence(str(exc))) from None
    if len(name) > MAX_NAME:
        raise TournamentError(MARK.gettext("a player's name may have at most {n} characters"),
                              n=MAX_NAME)
    return name


def spelt_as(result: GameResult, pairing: Pairing) -> GameResult:
    """``result`` with the players' names as registered (standings count by those)."""
    registered = {name_key(p): p for p in pairing.players()}

    def spelt(name: str | None) -> str | None:
        return None if name is None else registered.get(name_key(name), name)

    return replace(result, black=spelt(result.black) or result.black,
                   white=spelt(result.white) or result.white, winner=spelt(result.winner))
