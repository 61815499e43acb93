"""The tournament: players, rounds paired on demand, results taken from the boards' events.

A result is recorded when a board's match reaches ``game_over`` (winner, round wins, points)
and found again in the pairings by the two players' names, so it does not matter which board
the game was played on, nor who took which colour. If the board then undoes the deciding
step, the result is withdrawn until the game ends again.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

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
from web.tournament.hub.standings import standings
from web.tournament.hub.store import HubStore, HubStoreError, ReceivedEvent, StoredGame

PLAYERS = ("black", "white")
MAX_NAME = 40


class TournamentError(ValueError):
    """A change the tournament cannot take now; the message says why."""


def points_of(states: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Points each player scored over a whole game, from the states after each of its events.

    A round's points are the scores when it ended: on the step that ends a round the board
    already shows the next round at 0–0, so they are the scores before that step plus the
    point changes the step made before its ``round`` effect (R10: the rest of a deciding
    shot is void). An undo that takes a round back takes its points back. The last round of
    a game keeps its scores (R20); a game lost otherwise (R16) or a Trio game counts the
    scores it ended with.
    """
    finished: list[Mapping[str, int]] = []
    prev: Mapping[str, Any] | None = None
    grew = False
    for st in states:
        rounds = st.get("rounds") or []
        while len(finished) > len(rounds):
            finished.pop()
        grew = len(rounds) > len(finished)
        if grew:
            while len(finished) < len(rounds) - 1:
                finished.append({})
            if st.get("phase") == "game_over":
                finished.append(_scores(st))
            else:
                finished.append(_scores_at_round_end(prev, st))
        prev = st
    totals = dict.fromkeys(PLAYERS, 0)
    for scores in finished:
        for p in PLAYERS:
            totals[p] += int(scores.get(p, 0))
    if prev is not None and prev.get("phase") == "game_over" and not grew:
        for p, v in _scores(prev).items():
            totals[p] += v
    return totals


def _scores(state: Mapping[str, Any]) -> dict[str, int]:
    score = state.get("score") or {}
    return {p: int(score.get(p, 0)) for p in PLAYERS}


def _scores_at_round_end(
    prev: Mapping[str, Any] | None, state: Mapping[str, Any]
) -> dict[str, int]:
    totals = _scores(prev) if prev is not None else dict.fromkeys(PLAYERS, 0)
    for effect in state.get("last_effects") or []:
        if effect.get("kind") in ("round", "game"):
            break
        player, amount = effect.get("player"), effect.get("amount")
        if player in totals and isinstance(amount, int):
            totals[player] += amount
    return totals


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
            return
        if self.store.contiguous_seq(board, match_id) < latest.seq:
            # Events are missing (a full broker queue dropped them; the resend is on its
            # way): the points would come from a partial log, so the result waits for them.
            return
        result = self._result(latest, self.store.events(board, match_id))
        if result is None:
            return
        where: tuple[int | None, int | None] = (None, None)
        if existing is not None and existing.round is not None:
            where = (existing.round, existing.table)
        else:
            pairing = self._pairing_for(result, board)
            if pairing is not None:
                where = (pairing.round, pairing.table)
                result = _spelt_as(result, pairing)
        self.store.save_game(
            StoredGame(board, match_id, latest.seq, result, latest.at, where[0], where[1])
        )

    def _result(
        self, latest: ReceivedEvent, events: Sequence[ReceivedEvent]
    ) -> GameResult | None:
        names = latest.names
        black, white = names.get("black"), names.get("white")
        if not isinstance(black, str) or not isinstance(white, str) or black == white:
            return None
        state = latest.state
        wins = state.get("round_wins") or {}
        points = points_of([e.state for e in events])
        winner_colour = state.get("winner")
        return GameResult(
            black=black,
            white=white,
            winner=names.get(winner_colour) if winner_colour in PLAYERS else None,
            black_rounds=int(wins.get("black", 0)),
            white_rounds=int(wins.get("white", 0)),
            black_points=points["black"],
            white_points=points["white"],
        )

    def _pairing_for(self, result: GameResult, board: str) -> Pairing | None:
        """The newest unfinished pairing of these two players (this board's first)."""
        taken = {(g.round, g.table) for g in self.store.games() if g.round is not None}
        candidates = [
            p for p in self.store.pairings()
            if not p.is_bye and same_players((result.black, result.white), p)
            and (p.round, p.table) not in taken
        ]
        candidates.sort(key=lambda p: (p.round, p.board == board), reverse=True)
        return candidates[0] if candidates else None


def _spelt_as(result: GameResult, pairing: Pairing) -> GameResult:
    """``result`` with the players' names as registered (standings count by those)."""
    registered = {name_key(p): p for p in pairing.players()}

    def spelt(name: str | None) -> str | None:
        return None if name is None else registered.get(name_key(name), name)

    return replace(result, black=spelt(result.black) or result.black,
                   white=spelt(result.white) or result.white, winner=spelt(result.winner))
