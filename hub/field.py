"""The rules of a changing field, as plain functions: late entries, drops and swaps.

- A **late entry** joins once rounds are paired. The organiser chooses what they start
  with: ``bye`` (a bye in the newest round, the round they missed: a game won with no rounds
  and no points, and their one bye of the tournament) or ``zero`` (nothing).
- A **drop** leaves between rounds: never paired again; the games played stay in the
  standings and keep counting for the opponents' Buchholz.
- A **swap** puts two players of a round not yet started in each other's seats. It is
  refused when it makes a rematch (unless the organiser accepts that one explicitly), when
  it gives a second bye to a player who had one, and when it would bring in a player who
  dropped out or who is not in that round.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from enum import StrEnum

from hub.model import Pairing
from hub.said import MARK, Sentence


class Credit(StrEnum):
    """What a late entry starts with (the same word in a request)."""

    BYE = "bye"
    """A bye's worth: one game won, in the newest round."""
    ZERO = "zero"
    """Nothing."""


CREDITS = tuple(Credit)
"""What a late entry starts with: a bye's worth (one game won) or nothing."""


def not_registered(player: str) -> Sentence:
    return Sentence(MARK.gettext("no player '{player}' is registered"), player=player)


def seat_of(pairings: Sequence[Pairing], player: str) -> Pairing | None:
    """The pairing of ``pairings`` where ``player`` sits, if any."""
    return next((p for p in pairings if player in p.players()), None)


def swapped(pairings: Sequence[Pairing], a: str, b: str) -> list[Pairing]:
    """``pairings`` with ``a`` and ``b`` in each other's seats (colours follow the seat)."""
    def other(name: str | None) -> str | None:
        return b if name == a else a if name == b else name

    return [replace(p, black=other(p.black) or p.black, white=other(p.white))
            for p in pairings]


def swap_problems(pairings: Sequence[Pairing], a: str, b: str, *,
                  met: Mapping[frozenset[str], int], had_bye: Mapping[str, int],
                  dropped: Collection[str], accept_rematch: bool = False) -> list[Sentence]:
    """Why ``a`` and ``b`` may not change seats in ``pairings`` (one round's), in words;
    empty when they may. ``met``: the round each pair of players already met in;
    ``had_bye``: the round each player had a bye in."""
    problems = []
    for name in (a, b):
        if name in dropped:
            problems.append(Sentence(MARK.gettext(
                "{player} has dropped out and cannot be paired again"), player=name))
        elif seat_of(pairings, name) is None:
            problems.append(Sentence(MARK.gettext("{player} is not paired in this round"),
                                     player=name))
    if problems:
        return problems
    if a == b:
        return [Sentence(MARK.gettext("{player} cannot change seats with themselves"),
                         player=a)]
    first = seat_of(pairings, a)
    if first is not None and b in first.players():
        return [Sentence(MARK.gettext(
            "{first} and {second} play each other: changing their seats changes nothing"),
            first=a, second=b)]
    changed = [p for p in swapped(pairings, a, b) if p.players() & {a, b}]
    for p in changed:
        if p.is_bye:
            if p.black in had_bye:
                problems.append(Sentence(MARK.gettext(
                    "{player} had a bye in round {round} already: a player gets at most one "
                    "bye"), player=p.black, round=had_bye[p.black]))
        elif p.players() in met and not accept_rematch:
            problems.append(Sentence(MARK.gettext(
                "{first} and {second} met in round {round} already: accept the rematch "
                "explicitly to pair them again"), first=p.black, second=p.white,
                round=met[p.players()]))
    return problems


def drop_problems(player: str, players: Collection[str], dropped: Collection[str],
                  open_seat: Pairing | None) -> list[Sentence]:
    """Why ``player`` cannot drop out now (``open_seat``: their game of the newest round
    while it has no result)."""
    if player not in players:
        return [not_registered(player)]
    if player in dropped:
        return [Sentence(MARK.gettext("{player} has dropped out already"), player=player)]
    if open_seat is not None:
        return [Sentence(MARK.gettext(
            "{player}'s game at table {table} of round {round} has no result yet: a player "
            "drops between rounds (enter or wait for that result first)"), player=player,
            table=open_seat.table, round=open_seat.round)]
    return []
