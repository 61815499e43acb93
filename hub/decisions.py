"""The hub referee's say over results: accept or reject a claim, enter a result, remove one.

A board's result that the hub does not believe by itself (``hub.verify``,
``Tournament.refresh_game``) waits as a claim. The referee decides it here, or enters the
result of a game no board reported, or removes a result that is wrong. Each decision is
one transaction: the result changes and the decision, with its reason, goes into the
hub's log of decisions (``HubStore.decisions``) together, or neither does.

Every decision names what the referee saw: a claim by the step that finished it, a table's
result by its :func:`result_version` (which changes with every step or decision that
touches it), so one made on an old picture is refused (:class:`StaleDecision`, HTTP 409,
saying what is there now) instead of deciding something else.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, replace

from hub.model import GameResult, Pairing, StoredGame
from hub.said import MARK, Sentence
from hub.store.connection import no_table
from hub.tournament import (
    Tournament,
    TournamentError,
    name_key,
    same_players,
    spelt_as,
)

ENTERED_BY = "hub"
"""The board of a result the referee entered (no board may be called ``hub``: the broker's
ACL gives that login to the hub)."""


class StaleDecision(TournamentError):
    """The referee decided on a picture that has changed since (a new step, another
    result): nothing was changed."""


class NotFound(TournamentError):
    """No such claim, round or table."""


def no_claim(board: str, match_id: int) -> Sentence:
    return Sentence(MARK.gettext(
        "no result of board {board}, match {match} waits for the referee"), board=board,
        match=match_id)


def moved_on(board: str, seq: int, now: int) -> Sentence:
    """A claim's game took another step since the referee saw step ``seq``."""
    return Sentence(MARK.gettext(
        "board {board}'s game changed since step {seq} (now step {now}); look at it again"),
        board=board, seq=seq, now=now)


def entered_id(round_number: int, table: int) -> int:
    """The ``match_id`` of an entered result: negative, so it never meets a board's match."""
    return -(round_number * 1_000_000 + table)


def _pairing(t: Tournament, round_number: int, table: int) -> Pairing:
    found = next((p for p in t.store.pairings(round_number) if p.table == table), None)
    if found is None:
        raise NotFound(no_table(table, round_number))
    if found.is_bye:
        raise TournamentError(MARK.gettext(
            "table {table} of round {round} is a bye: it has no game"), table=table,
            round=round_number)
    return found


def _result_of(t: Tournament, pairing: Pairing) -> StoredGame | None:
    return next((g for g in t.store.games()
                 if (g.round, g.table) == (pairing.round, pairing.table)), None)


def result_version(game: StoredGame | None, decided: int) -> str:
    """What a referee saw of a table's result, as one text: the result's board, match and
    finishing step, and how many decisions (``decided``) were made about the table. Empty
    while the table has no result and no decision; any change to either gives another."""
    if game is None and not decided:
        return ""
    where = "none" if game is None else f"{game.board}/{game.match_id}/{game.seq}"
    return f"{where}/{decided}"


def decided_about(t: Tournament) -> Counter[tuple[int | None, int | None]]:
    """How many decisions were made about each ``(round, table)``."""
    return Counter((d["round"], d["table"]) for d in t.store.decisions())


def in_words(result: GameResult) -> Sentence:
    """A result as the page says it: who won, the rounds, the points (the page's own
    ``resultWords`` says it the same way, from the same catalog entries)."""
    figures = {"rounds": f"{result.black_rounds}–{result.white_rounds}",
               "first": signed(result.black_points), "second": signed(result.white_points)}
    if result.winner:
        return Sentence(MARK.gettext("{winner} won, rounds {rounds}, points {first} to "
                                     "{second}"), winner=result.winner, **figures)
    return Sentence(MARK.gettext("no winner, rounds {rounds}, points {first} to {second}"),
                    **figures)


def signed(n: int) -> str:
    """A figure with a true minus sign (a score can fall below zero)."""
    return f"−{-n}" if n < 0 else str(n)


def _check_seen(t: Tournament, pairing: Pairing, seen: str) -> StoredGame | None:
    """The table's result now, if the referee saw it as it is; else :class:`StaleDecision`
    saying what is there now."""
    game = _result_of(t, pairing)
    decided = decided_about(t)[(pairing.round, pairing.table)]
    if result_version(game, decided) == seen:
        return game
    now = (Sentence(MARK.gettext("it has no result now")) if game is None
           else Sentence(MARK.gettext("its result is now: {result}"), result=in_words(game.result)))
    raise StaleDecision(MARK.gettext(
        "the result of table {table} of round {round} changed since you looked ({now}); look "
        "at it again"), table=pairing.table, round=pairing.round, now=now)


def accept_claim(t: Tournament, board: str, match_id: int, *, seq: int, reason: str = "",
                 where: tuple[int, int] | None = None,
                 first_player: str | None = None) -> StoredGame:
    """Count a board's claim for the pairing it fits, or attach it to the one the referee
    names. A game typed under other names ("Benn" for "Ben") counts for that pairing's
    players: the name that matches finds its player, or the referee says which registered
    player played first (``first_player``), and says why in ``reason``."""
    claim = t.store.claim(board, match_id)
    if claim is None:
        raise NotFound(no_claim(board, match_id))
    if claim.seq != seq:
        raise StaleDecision(moved_on(board, seq, claim.seq))
    round_number, table = where or (claim.round, claim.table)
    if round_number is None or table is None:
        raise TournamentError(MARK.gettext(
            "no open pairing has these players: say which game of the tournament it is (round "
            "and table)"))
    pairing = _pairing(t, round_number, table)
    result = claim.result
    if not same_players((result.black, result.white), pairing):
        if where is None:
            raise TournamentError(MARK.gettext(
                "{first} and {second} are not the players of table {table} in round {round}"),
                first=result.black, second=result.white, table=table, round=round_number)
        if not reason:
            raise TournamentError(MARK.gettext(
                "the game was played as {first} v {second}: say why it is the game of "
                "{player} and {other} (a reason)"), first=result.black, second=result.white,
                player=pairing.black, other=pairing.white)
        result = as_players(result, pairing, first_player)
    existing = _result_of(t, pairing)
    if existing is not None:
        raise StaleDecision(MARK.gettext(
            "table {table} of round {round} has a result already ({result}); remove it "
            "first"), table=table, round=round_number, result=in_words(existing.result))
    game = StoredGame(board, match_id, claim.seq, spelt_as(result, pairing),
                      claim.finished_at, round_number, table)
    with t.store.batch():
        t.store.drop_claim(board, match_id)
        t.store.save_game(game)
        t.store.log_decision("accepted", at=t.clock.now(), reason=reason or claim.why,
                             round_number=round_number, table=table, board=board,
                             match_id=match_id, result=asdict(game.result))
    return game


def as_players(result: GameResult, pairing: Pairing, first_player: str | None) -> GameResult:
    """``result`` of a game played under other names, told as the pairing's players'."""
    assert pairing.white is not None  # not a bye
    registered = {name_key(p): p for p in pairing.players()}
    if first_player is not None:
        first = registered.get(name_key(first_player))
        if first is None:
            raise TournamentError(MARK.gettext("the first player must be {first} or {second}"),
                                  first=pairing.black, second=pairing.white)
    elif name_key(result.black) in registered:
        first = registered[name_key(result.black)]
    elif name_key(result.white) in registered:
        first = next(p for p in (pairing.black, pairing.white)
                     if name_key(p) != name_key(result.white))
    else:
        raise TournamentError(MARK.gettext(
            "neither {first} nor {second} is a player of this game: say which of {player} and "
            "{other} played first (as {first})"), first=result.black, second=result.white,
            player=pairing.black, other=pairing.white)
    second = pairing.white if first == pairing.black else pairing.black
    named = {name_key(result.black): first, name_key(result.white): second}
    winner = None if result.winner is None else named.get(name_key(result.winner))
    return replace(result, black=first, white=second, winner=winner)


def reject_claim(t: Tournament, board: str, match_id: int, *, seq: int, reason: str) -> None:
    """Drop a board's claim: it does not count (kept in the log with the reason)."""
    claim = t.store.claim(board, match_id)
    if claim is None:
        raise NotFound(no_claim(board, match_id))
    if claim.seq != seq:
        raise StaleDecision(moved_on(board, seq, claim.seq))
    with t.store.batch():
        t.store.drop_claim(board, match_id)
        t.store.log_decision("rejected", at=t.clock.now(), reason=reason,
                             round_number=claim.round, table=claim.table, board=board,
                             match_id=match_id, result=asdict(claim.result))


def _given(pairing: Pairing, winner: str | None, rounds: tuple[int, int],
           points: tuple[int, int]) -> GameResult:
    """The result as the referee gives it (the first player's figures first)."""
    assert pairing.white is not None  # not a bye
    if winner is not None and name_key(winner) not in {name_key(p) for p in pairing.players()}:
        raise TournamentError(MARK.gettext(
            "the winner must be {first} or {second} (or nobody, for a draw)"),
            first=pairing.black, second=pairing.white)
    return spelt_as(GameResult(pairing.black, pairing.white, winner, rounds[0], rounds[1],
                               points[0], points[1]), pairing)


def enter_result(t: Tournament, round_number: int, table: int, *, winner: str | None,
                 rounds: tuple[int, int], points: tuple[int, int], reason: str,
                 seen: str = "") -> StoredGame:
    """Record the result of a game that has none, as the referee gives it (``rounds`` and
    ``points``: the first player's, then the second's; ``winner`` None for a draw);
    ``seen``: the table's :func:`result_version` as the referee saw it."""
    pairing = _pairing(t, round_number, table)
    existing = _check_seen(t, pairing, seen)
    if existing is not None:
        raise StaleDecision(MARK.gettext(
            "table {table} of round {round} has a result already ({result}); correct or remove "
            "it"), table=table, round=round_number, result=in_words(existing.result))
    result = _given(pairing, winner, rounds, points)
    game = StoredGame(ENTERED_BY, entered_id(round_number, table), 0, result, t.clock.now(),
                      round_number, table)
    with t.store.batch():
        t.store.save_game(game)
        t.store.log_decision("entered", at=game.finished_at, reason=reason,
                             round_number=round_number, table=table,
                             result=asdict(result))
    return game


def _seen_result(t: Tournament, pairing: Pairing, seen: str) -> StoredGame:
    game = _check_seen(t, pairing, seen)
    if game is None:
        raise NotFound(MARK.gettext("table {table} of round {round} has no result"),
                       table=pairing.table, round=pairing.round)
    return game


def correct_result(t: Tournament, round_number: int, table: int, *, seen: str,
                   winner: str | None, rounds: tuple[int, int], points: tuple[int, int],
                   reason: str) -> StoredGame:
    """Put a wrong result right: the figures the referee gives replace it in one step (it
    stays the result of its board and match); the log keeps both, with the reason."""
    pairing = _pairing(t, round_number, table)
    old = _seen_result(t, pairing, seen)
    game = replace(old, result=_given(pairing, winner, rounds, points))
    with t.store.batch():
        t.store.save_game(game)
        t.store.log_decision("corrected", at=t.clock.now(), reason=reason,
                             round_number=round_number, table=table, board=game.board,
                             match_id=game.match_id,
                             result={**asdict(game.result), "before": asdict(old.result)})
    return game


def remove_result(t: Tournament, round_number: int, table: int, *, seen: str,
                  reason: str) -> StoredGame:
    """Take a wrong result off its pairing (the game waits for a result again); ``seen``:
    the table's :func:`result_version` as the referee saw it."""
    pairing = _pairing(t, round_number, table)
    game = _seen_result(t, pairing, seen)
    with t.store.batch():
        t.store.drop_game(game.board, game.match_id)
        t.store.log_decision("removed", at=t.clock.now(), reason=reason,
                             round_number=round_number, table=table, board=game.board,
                             match_id=game.match_id, result=asdict(game.result))
    return game
