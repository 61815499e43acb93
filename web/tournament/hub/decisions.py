"""The hub referee's say over results: accept or reject a claim, enter a result, remove one.

A board's result that the hub does not believe by itself (``web.tournament.hub.verify``,
``Tournament.refresh_game``) waits as a claim. The referee decides it here, or enters the
result of a game no board reported, or removes a result that is wrong. Each decision is
one transaction: the result changes and the decision, with its reason, goes into the
hub's log of decisions (``HubStore.decisions``) together, or neither does.

Every decision names what the referee saw: a claim by the step that finished it, a result
by the board and match it came from, so one made on an old picture is refused
(:class:`StaleDecision`, HTTP 409) instead of deciding something else.
"""

from __future__ import annotations

from dataclasses import asdict

from web.tournament.hub.model import GameResult, Pairing, StoredGame
from web.tournament.hub.tournament import (
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


def entered_id(round_number: int, table: int) -> int:
    """The ``match_id`` of an entered result: negative, so it never meets a board's match."""
    return -(round_number * 1_000_000 + table)


def _pairing(t: Tournament, round_number: int, table: int) -> Pairing:
    found = next((p for p in t.store.pairings(round_number) if p.table == table), None)
    if found is None:
        raise NotFound(f"no table {table} in tournament round {round_number}")
    if found.is_bye:
        raise TournamentError(f"table {table} of round {round_number} is a bye: it has no game")
    return found


def _result_of(t: Tournament, pairing: Pairing) -> StoredGame | None:
    return next((g for g in t.store.games()
                 if (g.round, g.table) == (pairing.round, pairing.table)), None)


def accept_claim(t: Tournament, board: str, match_id: int, *, seq: int, reason: str = "",
                 where: tuple[int, int] | None = None) -> StoredGame:
    """Count a board's claim for the pairing it fits (or the one the referee names)."""
    claim = t.store.claim(board, match_id)
    if claim is None:
        raise NotFound(f"no result of board {board}, match {match_id} waits for the referee")
    if claim.seq != seq:
        raise StaleDecision(f"board {board}'s game changed since step {seq} (now step "
                            f"{claim.seq}); look at it again")
    round_number, table = where or (claim.round, claim.table)
    if round_number is None or table is None:
        raise TournamentError("no open pairing has these players: say which game of the "
                              "tournament it is (round and table)")
    pairing = _pairing(t, round_number, table)
    if not same_players((claim.result.black, claim.result.white), pairing):
        raise TournamentError(f"{claim.result.black} and {claim.result.white} are not the "
                              f"players of table {table} in round {round_number}")
    if _result_of(t, pairing) is not None:
        raise StaleDecision(f"table {table} of round {round_number} has a result already; "
                            "remove it first")
    game = StoredGame(board, match_id, claim.seq, spelt_as(claim.result, pairing),
                      claim.finished_at, round_number, table)
    with t.store.batch():
        t.store.drop_claim(board, match_id)
        t.store.save_game(game)
        t.store.log_decision("accepted", at=t.clock.now(), reason=reason or claim.why,
                             round_number=round_number, table=table, board=board,
                             match_id=match_id, result=asdict(game.result))
    return game


def reject_claim(t: Tournament, board: str, match_id: int, *, seq: int, reason: str) -> None:
    """Drop a board's claim: it does not count (kept in the log with the reason)."""
    claim = t.store.claim(board, match_id)
    if claim is None:
        raise NotFound(f"no result of board {board}, match {match_id} waits for the referee")
    if claim.seq != seq:
        raise StaleDecision(f"board {board}'s game changed since step {seq} (now step "
                            f"{claim.seq}); look at it again")
    with t.store.batch():
        t.store.drop_claim(board, match_id)
        t.store.log_decision("rejected", at=t.clock.now(), reason=reason,
                             round_number=claim.round, table=claim.table, board=board,
                             match_id=match_id, result=asdict(claim.result))


def enter_result(t: Tournament, round_number: int, table: int, *, winner: str | None,
                 rounds: tuple[int, int], points: tuple[int, int], reason: str) -> StoredGame:
    """Record the result of a game that has none, as the referee gives it (``rounds`` and
    ``points``: the first player's, then the second's; ``winner`` None for a draw)."""
    pairing = _pairing(t, round_number, table)
    if _result_of(t, pairing) is not None:
        raise StaleDecision(f"table {table} of round {round_number} has a result already; "
                            "remove it first")
    assert pairing.white is not None  # not a bye
    if winner is not None and name_key(winner) not in {name_key(p) for p in pairing.players()}:
        raise TournamentError(f"the winner must be {pairing.black} or {pairing.white} "
                              "(or nobody, for a draw)")
    result = spelt_as(GameResult(pairing.black, pairing.white, winner, rounds[0],
                                       rounds[1], points[0], points[1]), pairing)
    game = StoredGame(ENTERED_BY, entered_id(round_number, table), 0, result, t.clock.now(),
                      round_number, table)
    with t.store.batch():
        t.store.save_game(game)
        t.store.log_decision("entered", at=game.finished_at, reason=reason,
                             round_number=round_number, table=table,
                             result=asdict(result))
    return game


def remove_result(t: Tournament, round_number: int, table: int, *, board: str, match_id: int,
                  reason: str) -> StoredGame:
    """Take a wrong result off its pairing (the game waits for a result again); ``board``
    and ``match_id`` name the result the referee saw."""
    pairing = _pairing(t, round_number, table)
    game = _result_of(t, pairing)
    if game is None:
        raise NotFound(f"table {table} of round {round_number} has no result")
    if (game.board, game.match_id) != (board, match_id):
        raise StaleDecision(f"the result of table {table} in round {round_number} is another "
                            "one now; look at it again")
    with t.store.batch():
        t.store.drop_game(game.board, game.match_id)
        t.store.log_decision("removed", at=t.clock.now(), reason=reason,
                             round_number=round_number, table=table, board=game.board,
                             match_id=game.match_id, result=asdict(game.result))
    return game
