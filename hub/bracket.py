"""The knockout stage in the tournament: started by the hub referee after the Swiss rounds.

Its rounds are the tournament's rounds (system ``knockout``), so their games go to the
boards and their results arrive, are verified and wait for the referee exactly like a Swiss
game's (``Tournament.refresh_game``); "Pair the next round" pairs the next stage once every
game of the previous one has a winner. The standings stay the Swiss stage's; the bracket is
drawn from the knockout rounds (:func:`bracket_view`). The rules (seeding, who meets whom)
are plain functions in ``hub.knockout``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hub.knockout import (
    SIZES,
    first_round,
    knockout_rounds,
    stage_name,
)
from hub.knockout_stage import META, knockout_of, stage_results
from hub.model import KNOCKOUT, Pairing, StoredGame
from hub.said import MARK, Sentence, keyed
from hub.tournament import Tournament, TournamentError, check_seen, still_open


def start_blocked(t: Tournament, size: int | None = None) -> Sentence | None:
    """Why the knockout stage cannot start now (with ``size`` players), or None."""
    if knockout_of(t.store) is not None:
        return Sentence(MARK.gettext("the knockout stage has started already"))
    rounds = t.store.round_numbers()
    if not rounds:
        return Sentence(MARK.gettext("play the Swiss rounds first"))
    if t.round_open(rounds[-1][0]):
        return still_open(rounds[-1][0])
    if len(rounds) < t.planned_rounds():
        return Sentence(MARK.gettext(
            "the Swiss rounds are not over ({played} of {planned} played)"),
            played=len(rounds), planned=t.planned_rounds())
    if t.store.claims():
        return Sentence(MARK.gettext(
            "a result waits for the referee: decide it first (it may change the standings)"))
    if size is not None:
        if size not in SIZES:
            return Sentence(MARK.gettext("a knockout is for the top 4, 8 or 16 players"))
        active = len(t.active_players())
        if active < size:
            return Sentence(MARK.gettext(
                "only {active} players are still in the tournament, fewer than {size}"),
                active=active, size=size)
    return None


def start_knockout(t: Tournament, size: int, *, third_place: bool, reason: str, seq: int,
                   boards: Sequence[str] = ()) -> list[Pairing]:
    """Seed the top ``size`` players still in by standing and pair the first stage."""
    with t._pairing, t.store.batch():
        check_seen(t, seq)
        blocked = start_blocked(t, size)
        if blocked:
            raise TournamentError(MARK.gettext("cannot start the knockout: {reason}"),
                                  reason=blocked)
        seeds = [s.player for s in t.standings() if not s.dropped][:size]
        number = len(t.store.round_numbers()) + 1
        t.store.set_meta(META, json.dumps({"size": size, "third_place": third_place,
                                           "first_round": number, "seeds": seeds}))
        t.add_round(number, KNOCKOUT, first_round(seeds), boards,
                    words=_started_words(size, number, third_place, reason))
    return t.store.pairings(number)


def _started_words(size: int, number: int, third_place: bool, reason: str) -> Sentence:
    """The field log's line of a knockout started (the referee's reason in brackets)."""
    if third_place:
        words = Sentence(MARK.gettext(
            "Knockout of the top {size} started in round {round}, with a third-place game"),
            size=size, round=number)
    else:
        words = Sentence(MARK.gettext("Knockout of the top {size} started in round {round}"),
                         size=size, round=number)
    return Sentence("{words} ({reason})", words=words, reason=reason) if reason else words


def bracket_view(t: Tournament) -> dict[str, Any] | None:
    """The bracket as the pages draw it: every stage, played or still to come."""
    k = knockout_of(t.store)
    if k is None:
        return None
    seed = {name: i for i, name in enumerate(k.seeds, start=1)}
    stages = []
    champion = None
    for i in range(knockout_rounds(k.size)):
        number = k.first_round + i
        main = k.size >> (i + 1)
        third = k.third_place and main == 1
        pairings = {p.table: p for p in t.store.pairings(number)}
        results = stage_results(t.store, number)
        games = []
        for table in range(1, main + 1 + third):
            p = pairings.get(table)
            g = results.get(table)
            first = p.black if p else None
            second = p.white if p else None
            winner = g.result.winner if g else None
            games.append({
                "round": number, "table": table, "third_place": table > main,
                "first": first, "second": second,
                "first_seed": seed.get(first or ""), "second_seed": seed.get(second or ""),
                "board": p.board if p else None, "winner": winner,
                "score": None if g is None else _score(g, first),
                **keyed("waits_for", None if p else _waits_for(table, main, table > main)),
            })
            if winner and table == 1 and main == 1:
                champion = winner
        stages.append({**keyed("name", stage_name(main)),
                       "round": number, "paired": bool(pairings), "games": games})
    return {"size": k.size, "third_place": k.third_place, "champion": champion,
            "seeds": list(k.seeds), "stages": stages}


def _score(g: StoredGame, first: str | None) -> str:
    """Rounds won, the first player's first."""
    r = g.result
    if first == r.white:
        return f"{r.white_rounds}–{r.black_rounds}"
    return f"{r.black_rounds}–{r.white_rounds}"


def _waits_for(table: int, main: int, third_place: bool) -> Sentence:
    """Who will play a game not yet paired, in words."""
    if third_place:
        return Sentence(MARK.gettext("the losers of the semi-finals"))
    games = {"a": 2 * table - 1, "b": 2 * table}
    if main == 1:
        return Sentence(MARK.gettext("the winners of semi-finals {a} and {b}"), **games)
    if main == 2:
        return Sentence(MARK.gettext("the winners of quarter-finals {a} and {b}"), **games)
    return Sentence(MARK.gettext("the winners of last-{n} games {a} and {b}"), n=4 * main,
                    **games)
