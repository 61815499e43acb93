"""The tournament: players, rounds paired on demand, results taken from the boards' events.

A board's match that reaches ``game_over`` is found in the pairings by the two players'
names (whoever took which colour). Its result counts by itself only when that pairing is on
the board that played it and the hub's own replay of the board's steps through the rules
engine ends where the board says (``web.tournament.hub.verify``); the result is the
replay's. Anything else waits for the hub's referee as a claim
(``web.tournament.hub.store.claims``), who accepts or rejects it, or enters a result
(``web.tournament.hub.decisions``). If the board undoes the deciding step, its result (or
claim) is withdrawn until the game ends again.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from scorekeeper.clock import Clock
from scorekeeper.names import name_key, normal_name
from web.tournament.hub.model import ROUND_ROBIN, GameResult, Pairing, Standing
from web.tournament.hub.pairings import (
    PairingError,
    round_robin,
    round_robin_rounds,
    swiss,
    swiss_round_count,
    system_for,
)
from web.tournament.hub.points import points_of
from web.tournament.hub.standings import standings
from web.tournament.hub.store import (
    Claim,
    HubStore,
    HubStoreError,
    ReceivedEvent,
    StoredGame,
)
from web.tournament.hub.verify import judge

__all__ = ["Tournament", "TournamentError", "check_name", "name_key", "points_of",
           "same_players",
           "spelt_as"]

MAX_NAME = 40


class TournamentError(ValueError):
    """A change the tournament cannot take now; the message says why."""




def same_players(names: Sequence[str], pairing: Pairing) -> bool:
    """True when ``names`` are the pairing's two players, spelt as :func:`name_key` allows."""
    return {name_key(n) for n in names} == {name_key(p) for p in pairing.players()}


def check_name(name: object) -> str:
    """A name to register, normalised as the boards' are (:func:`scorekeeper.names.normal_name`)."""
    if not isinstance(name, str) or not name.strip():
        raise TournamentError("a player's name must be a non-empty text")
    try:
        name = normal_name(name)
    except ValueError as exc:
        raise TournamentError(f"a player's name {exc}") from None
    if len(name) > MAX_NAME:
        raise TournamentError(f"a player's name may have at most {MAX_NAME} characters")
    return name


class Tournament:
    """One tournament kept in a :class:`HubStore`; all methods are thread-safe through it."""

    def __init__(self, store: HubStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._pairing = threading.Lock()

    # Players -------------------------------------------------------------------------

    def add_player(self, name: str) -> str:
        name = check_name(name)
        if self.store.round_numbers():
            raise TournamentError("players cannot join once the first round is paired")
        same = [p for p in self.store.players() if name_key(p) == name_key(name)]
        if same:  # another spelling of a registered player is that player
            raise TournamentError(f"player {same[0]!r} is already registered")
        try:
            self.store.add_player(name, at=self.clock.now())
        except HubStoreError as exc:
            raise TournamentError(str(exc)) from None
        return name

    def remove_player(self, name: str) -> None:
        if self.store.round_numbers():
            raise TournamentError("players cannot leave once the first round is paired")
        try:
            self.store.remove_player(name)
        except HubStoreError as exc:
            raise TournamentError(str(exc)) from None

    # Rounds --------------------------------------------------------------------------

    @property
    def system(self) -> str:
        """``round_robin`` or ``swiss``: fixed when the first round is paired."""
        rounds = self.store.round_numbers()
        return rounds[0][1] if rounds else system_for(len(self.store.players()))

    def planned_rounds(self) -> int:
        players = self.store.players()
        if len(players) < 2:
            return 0
        if self.system == ROUND_ROBIN:
            return round_robin_rounds(players)
        stored = self.store.get_meta("swiss_rounds")
        return int(stored) if stored else swiss_round_count(len(players))

    def set_swiss_rounds(self, count: int) -> None:
        if not 1 <= count <= 30:
            raise TournamentError("a Swiss tournament has 1 to 30 rounds")
        if count < len(self.store.round_numbers()):
            raise TournamentError("that many rounds have already been played")
        self.store.set_meta("swiss_rounds", str(count))

    def round_open(self, number: int) -> list[Pairing]:
        """The pairings of round ``number`` still waiting for a result (byes never wait)."""
        done = {(g.round, g.table) for g in self.store.games() if g.round == number}
        return [
            p for p in self.store.pairings(number)
            if not p.is_bye and (p.round, p.table) not in done
        ]

    def can_pair_next(self) -> str | None:
        """None when the next round may be paired, else the reason it may not."""
        players = self.store.players()
        if len(players) < 2:
            return "register at least two players"
        rounds = self.store.round_numbers()
        if len(rounds) >= self.planned_rounds():
            return "all rounds have been played"
        if rounds and self.round_open(rounds[-1][0]):
            return f"round {rounds[-1][0]} still has games without a result"
        return None

    def pair_next_round(self, boards: Sequence[str] = ()) -> list[Pairing]:
        """Pair the next round and put its games on ``boards`` in order (if given).

        Runs in a worker thread (the web app's); two referees pairing at once get one round
        and one refusal."""
        with self._pairing:
            return self._pair_next_round(boards)

    def _pair_next_round(self, boards: Sequence[str]) -> list[Pairing]:
        reason = self.can_pair_next()
        if reason:
            raise TournamentError(f"cannot pair the next round: {reason}")
        players = self.store.players()
        number = len(self.store.round_numbers()) + 1
        system = self.system
        try:
            if system == ROUND_ROBIN:
                pairs = round_robin(players, number)
            else:
                pairs = self._swiss_pairs(players)
        except PairingError as exc:
            raise TournamentError(str(exc)) from None
        self.store.add_round(number, system, pairs, at=self.clock.now())
        games = [p for p in self.store.pairings(number) if not p.is_bye]
        for pairing, board in zip(games, boards, strict=False):
            self.store.set_pairing_board(number, pairing.table, board)
        return self.store.pairings(number)

    def _swiss_pairs(self, players: Sequence[str]) -> list[tuple[str, str | None]]:
        table = self.standings()
        ranked = [s.player for s in table]
        scores = {s.player: s.won for s in table}
        pairings = self.store.pairings()
        played = {p.players() for p in pairings if not p.is_bye}
        had_bye = {p.black for p in pairings if p.is_bye}
        blacks = Counter(p.black for p in pairings if not p.is_bye)
        return swiss(ranked, scores, played, had_bye, blacks)

    def assign_board(self, round_number: int, table: int, board: str | None) -> None:
        try:
            self.store.set_pairing_board(round_number, table, board)
        except HubStoreError as exc:
            raise TournamentError(str(exc)) from None

    # Results -------------------------------------------------------------------------

    def standings(self) -> list[Standing]:
        games = [g.result for g in self.store.games() if g.round is not None]
        byes = [p.black for p in self.store.pairings() if p.is_bye]
        return standings(self.store.players(), games, byes)

    def receive(self, ev: ReceivedEvent) -> bool:
        """Keep a board's event; record or withdraw the game's result. True when new."""
        if not self.store.add_event(ev, received_at=self.clock.now()):
            return False
        self.refresh_game(ev.board, ev.match_id)
        return True

    def refresh_game(self, board: str, match_id: int) -> None:
        """Make the recorded result agree with the match's latest event."""
        latest = self.store.latest_event(board, match_id)
        existing = self.store.game(board, match_id)
        if latest is None or latest.state.get("phase") != "game_over":
            if existing is not None:
                self.store.drop_game(board, match_id)
            self.store.drop_claim(board, match_id)
            return
        if self.store.contiguous_seq(board, match_id) < latest.seq:
            # Events are missing (a full broker queue dropped them; the resend is on its
            # way): the points would come from a partial log, so the result waits for them.
            return
        events = self.store.events(board, match_id)
        verdict = judge(events, self.store.match_rules(board, match_id))
        if verdict.result is None:  # no two players named: nothing to count or to claim
            return
        result = verdict.result
        pairing = self._pairing_for(result, board, existing)
        if pairing is None and not self.store.round_numbers():
            self.store.drop_claim(board, match_id)  # before the tournament: nothing to count
            return
        doubt = verdict.doubt
        if doubt is None and pairing is None:
            doubt = "no open pairing has these players (check the names)"
        elif doubt is None and pairing is not None and pairing.board != board:
            doubt = (f"the game of {pairing.black} and {pairing.white} is paired to "
                     f"{'board ' + pairing.board if pairing.board else 'no board'}, "
                     f"not to board {board}")
        if pairing is not None:
            result = spelt_as(result, pairing)
        if doubt is None and pairing is not None:
            self.store.drop_claim(board, match_id)
            self.store.save_game(StoredGame(board, match_id, latest.seq, result, latest.at,
                                            pairing.round, pairing.table))
            return
        if existing is not None:
            self.store.drop_game(board, match_id)
        self.store.save_claim(Claim(
            board, match_id, latest.seq, result, latest.at,
            None if pairing is None else pairing.round,
            None if pairing is None else pairing.table, doubt or "the referee decides"))

    def _pairing_for(self, result: GameResult, board: str,
                     existing: StoredGame | None = None) -> Pairing | None:
        """The pairing this game answers: the one it already counts for, else the newest
        unfinished pairing of these two players (the one on this board first)."""
        taken = {(g.round, g.table) for g in self.store.games() if g.round is not None}
        if existing is not None and existing.round is not None:
            taken.discard((existing.round, existing.table))
        candidates = [
            p for p in self.store.pairings()
            if not p.is_bye and same_players((result.black, result.white), p)
            and (p.round, p.table) not in taken
        ]
        candidates.sort(key=lambda p: (p.board == board, p.round), reverse=True)
        return candidates[0] if candidates else None


def spelt_as(result: GameResult, pairing: Pairing) -> GameResult:
    """``result`` with the players' names as registered (standings count by those)."""
    registered = {name_key(p): p for p in pairing.players()}

    def spelt(name: str | None) -> str | None:
        return None if name is None else registered.get(name_key(name), name)

    return replace(result, black=spelt(result.black) or result.black,
                   white=spelt(result.white) or result.white, winner=spelt(result.winner))
