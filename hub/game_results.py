"""A board's finished game as a tournament result: which pairing it answers, and whether it
counts by itself or waits for the hub's referee as a claim.

A board's match that reaches ``game_over`` is found in the pairings by the pairing id it
carries when it was started from the hub's offer (``tournament_wire.offer``), else by the
two players' names (whoever took which colour). A game played to another format than the
tournament's (:meth:`Tournament.game_format`) never counts by itself: it is held as a claim
saying so. Its result counts by itself only when that pairing is on
the board that played it and the hub's own replay of the board's steps through the rules
engine ends where the board says (``hub.verify``); the result is the
replay's. Anything else waits for the hub's referee as a claim
(``hub.store.claims``), who accepts or rejects it, or enters a result
(``hub.decisions``). If the board undoes the deciding step, its result (or
claim) is withdrawn until the game ends again.

Apart from :mod:`hub.tournament` (players, rounds, pairing) so each file does
one job; :meth:`Tournament.refresh_game` is the way in.
"""

from __future__ import annotations

from typing import Protocol

from hub.model import Claim, GameResult, Pairing
from hub.players import same_players, spelt_as
from hub.said import MARK, Sentence
from hub.store import HubStore, StoredGame
from hub.verify import judge
from scorekeeper.state import Phase
from tournament_wire.offer import GameFormat


class Games(Protocol):
    """What a result is checked against: the tournament's store, its format and the ids it
    gives its pairings (:class:`hub.tournament.Tournament` is one; it calls us, so we name
    only what we use)."""

    store: HubStore

    def game_format(self) -> GameFormat | None: ...

    def pairing_id(self, pairing: Pairing) -> str: ...


def refresh_game(t: Games, board: str, match_id: int) -> None:
    """Make the recorded result agree with the match's latest event."""
    latest = t.store.latest_event(board, match_id)
    existing = t.store.game(board, match_id)
    if latest is None or latest.state.get("phase") != Phase.GAME_OVER:
        if existing is not None:
            t.store.drop_game(board, match_id)
        t.store.drop_claim(board, match_id)
        return
    if t.store.contiguous_seq(board, match_id) < latest.seq:
        # Events are missing (a full broker queue dropped them; the resend is on its
        # way): the points would come from a partial log, so the result waits for them.
        return
    events = t.store.events(board, match_id)
    verdict = judge(events, t.store.match_rules(board, match_id))
    if verdict.result is None:  # no two players named: nothing to count or to claim
        return
    result = verdict.result
    ref = t.store.match_pairing(board, match_id)
    if ref is not None:
        pairing, doubt = _pairing_by_id(t, ref, result, board, match_id)
    else:
        pairing, doubt = _pairing_for(t, result, board, existing), None
    if pairing is None and not t.store.round_numbers():
        t.store.drop_claim(board, match_id)  # before the tournament: nothing to count
        return
    doubt = verdict.doubt or doubt or _format_doubt(t, board, match_id)
    if doubt is None and pairing is None:
        doubt = Sentence(MARK.gettext(
            "no open pairing has these players (check the names)"))
    elif doubt is None and pairing is not None and pairing.board != board:
        doubt = Sentence(MARK.gettext(
            "the game of {first} and {second} is paired to board {paired}, not to board "
            "{board}") if pairing.board else MARK.gettext(
            "the game of {first} and {second} is paired to no board, not to board {board}"),
            first=pairing.black, second=pairing.white, paired=pairing.board, board=board)
    if pairing is not None:
        result = spelt_as(result, pairing)
    if doubt is None and pairing is not None:
        t.store.drop_claim(board, match_id)
        t.store.save_game(StoredGame(board, match_id, latest.seq, result, latest.at,
                                        pairing.round, pairing.table))
        return
    if existing is not None:
        t.store.drop_game(board, match_id)
    t.store.save_claim(Claim(
        board, match_id, latest.seq, result, latest.at,
        None if pairing is None else pairing.round,
        None if pairing is None else pairing.table,
        doubt or Sentence(MARK.gettext("the referee decides"))))


def _format_doubt(t: Games, board: str, match_id: int) -> str | None:
    """Why the game does not count by itself when it was played to another format."""
    fmt = t.game_format()
    options = t.store.match_rules(board, match_id)
    if fmt is None or options is None:
        return None
    played = GameFormat.of_rules(options[0])
    if played == fmt:
        return None
    return Sentence(MARK.gettext(
        "it was played to {played}, but the tournament plays {format}"),
        played=played.words(), format=fmt.words())


def _pairing_by_id(t: Games, ref: dict[str, object], result: GameResult, board: str,
                   match_id: int) -> tuple[Pairing | None, str | None]:
    """The pairing a game started from an offer answers, and why it may not count."""
    round_number, table = ref.get("round"), ref.get("table")
    pairing = next((p for p in t.store.pairings()
                    if (p.round, p.table) == (round_number, table) and not p.is_bye),
                   None)
    if pairing is None or ref.get("id") != t.pairing_id(pairing):
        return None, Sentence(MARK.gettext(
            "this game was started from pairing {id}, which is no game of this tournament"),
            id=ref.get("id"))
    if not same_players((result.black, result.white), pairing):
        return pairing, Sentence(MARK.gettext(
            "the board's game is {first} v {second}, but table {table} of round {round} is "
            "{player} v {other} now"), first=result.black, second=result.white,
            table=table, round=round_number, player=pairing.black, other=pairing.white)
    taken = next((g for g in t.store.games()
                  if (g.round, g.table) == (pairing.round, pairing.table)
                  and (g.board, g.match_id) != (board, match_id)), None)
    if taken is not None:
        return pairing, Sentence(MARK.gettext(
            "table {table} of round {round} has a result already (board {board}, match "
            "{match})"), table=table, round=round_number, board=taken.board,
            match=taken.match_id)
    return pairing, None


def _pairing_for(t: Games, result: GameResult, board: str,
                 existing: StoredGame | None = None) -> Pairing | None:
    """The pairing this game answers: the one it already counts for, else the newest
    unfinished pairing of these two players (the one on this board first)."""
    taken = {(g.round, g.table) for g in t.store.games() if g.round is not None}
    if existing is not None and existing.round is not None:
        taken.discard((existing.round, existing.table))
    candidates = [
        p for p in t.store.pairings()
        if not p.is_bye and same_players((result.black, result.white), p)
        and (p.round, p.table) not in taken
    ]
    candidates.sort(key=lambda p: (p.board == board, p.round), reverse=True)
    return candidates[0] if candidates else None
