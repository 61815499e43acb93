"""The tournament: players, rounds paired on demand, and the results the boards' games give.

A board's finished game becomes a result (or a claim for the hub's referee) in
:mod:`hub.game_results`, through :meth:`Tournament.refresh_game`.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import Counter
from collections.abc import Sequence

from hub import game_results
from hub.knockout_stage import next_stage_blocked, next_stage_pairs
from hub.model import KNOCKOUT, ROUND_ROBIN, SWISS, Pairing, Standing
from hub.pairings import (
    PairingError,
    round_robin,
    round_robin_rounds,
    swiss,
    swiss_round_count,
    system_for,
)
from hub.players import (
    TournamentError,
    already_registered,
    check_name,
    same_players,
    spelt_as,
)
from hub.points import points_of
from hub.said import MARK, Sentence
from hub.standings import standings
from hub.store import (
    HubStore,
    HubStoreError,
    ReceivedEvent,
)
from scorekeeper.clock import Clock
from scorekeeper.names import name_key
from tournament_wire.offer import GameFormat, Offer

__all__ = ["Tournament", "TournamentError", "already_registered", "check_name", "name_key",
           "points_of", "same_players", "spelt_as", "still_open"]


class StaleChange(TournamentError):
    """The tournament changed since its person looked: nothing was changed."""


def check_seen(t: Tournament, seq: int) -> None:
    """Refuse a change decided on version ``seq`` when the field has changed since."""
    now = t.store.field_version()
    if seq == now:
        return
    if seq > now:
        raise StaleChange(MARK.gettext(
            "the tournament is at version {now}, not {seq}: look at it again"), now=now, seq=seq)
    since = [c.said() for c in t.store.field_changes(since=seq)]
    raise StaleChange(MARK.gettext(
        "the tournament changed since you looked ({since}); nothing was changed: look at it "
        "again and decide"), since=since)


def still_open(number: int) -> Sentence:
    """Why a round's next step waits: a game of round ``number`` has no result yet."""
    return Sentence(MARK.gettext("round {round} still has games without a result"),
                    round=number)


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
            raise TournamentError(MARK.gettext(
                "players cannot register once the first round is paired: enter them as a "
                "late entry"))
        same = [p for p in self.store.players() if name_key(p) == name_key(name)]
        if same:  # another spelling of a registered player is that player
            raise TournamentError(already_registered(same[0]))
        try:
            with self.store.batch():
                self.store.add_player(name, at=self.clock.now())
                self.store.log_field_change("registered", Sentence(MARK.gettext(
                    "{player} registered"), player=name), at=self.clock.now(), player=name)
        except HubStoreError as exc:
            raise TournamentError(exc) from None
        return name

    def remove_player(self, name: str) -> None:
        if self.store.round_numbers():
            raise TournamentError(MARK.gettext(
                "players cannot be withdrawn once the first round is paired: a player who "
                "leaves drops out between rounds"))
        try:
            with self.store.batch():
                self.store.remove_player(name)
                self.store.log_field_change("withdrawn", Sentence(MARK.gettext(
                    "{player} withdrawn"), player=name), at=self.clock.now(), player=name)
        except HubStoreError as exc:
            raise TournamentError(exc) from None

    # The format and the offers -------------------------------------------------------

    def game_format(self) -> GameFormat | None:
        """The format every game of the tournament is played to; None while the organiser
        has set none (then games of any format count, as before formats existed)."""
        stored = self.store.get_meta("format")
        return None if stored is None else GameFormat.from_json(json.loads(stored))

    def set_game_format(self, fmt: GameFormat) -> None:
        if self.store.round_numbers():
            raise TournamentError(MARK.gettext(
                "the format is fixed once round 1 is paired: every game of a tournament is "
                "played to the same format"))
        self.store.set_meta("format", json.dumps(fmt.to_json()))

    def _tournament_id(self) -> str:
        """A short random id of this tournament, part of each pairing's id (a game offered
        by another tournament's hub never counts here)."""
        found = self.store.get_meta("tournament_id")
        if found is None:
            found = secrets.token_hex(4)
            self.store.set_meta("tournament_id", found)
        return found

    def event_id(self) -> str:
        """This tournament's id: what an exported event is known by at another hub."""
        return self._tournament_id()

    def pairing_id(self, pairing: Pairing) -> str:
        return f"{self._tournament_id()}-{pairing.round}-{pairing.table}"

    def offer(self, pairing: Pairing) -> Offer:
        """The game of ``pairing`` as its board is offered it."""
        if pairing.white is None:
            raise TournamentError(MARK.gettext("table {table} of round {round} is a bye"),
                                  table=pairing.table, round=pairing.round)
        return Offer(self.pairing_id(pairing), pairing.round, pairing.table, pairing.black,
                     pairing.white, self.game_format() or GameFormat())

    def open_offers(self, board: str | None = None) -> list[tuple[str, Offer]]:
        """``(board, offer)`` of every game of the latest round that is on a board and has
        no result yet (of ``board`` only, if given): what the boards should be offered."""
        rounds = self.store.round_numbers()
        if not rounds:
            return []
        return [(p.board, self.offer(p)) for p in self.round_open(rounds[-1][0])
                if p.board is not None and (board is None or p.board == board)]
    def active_players(self) -> list[str]:
        """The players still in the tournament (paired in the next round), by seed."""
        gone = set(self.store.dropped_players())
        return [p for p in self.store.players() if p not in gone]

    # Rounds --------------------------------------------------------------------------

    @property
    def system(self) -> str:
        """``round_robin`` or ``swiss``: the organiser's choice (else by the field's size,
        :func:`system_for`), fixed when the first round is paired."""
        rounds = self.store.round_numbers()
        if rounds:
            return rounds[0][1]
        return self.store.get_meta("system") or system_for(len(self.store.players()))

    def set_system(self, system: str, *, seen: int | None = None) -> None:
        """Choose the pairing system before round 1, decided on the tournament's version
        ``seen`` (the API always gives it): ``StaleChange`` when it changed."""

        if system not in (ROUND_ROBIN, SWISS):
            raise TournamentError(MARK.gettext("the pairing system is round_robin or swiss"))
        if self.store.round_numbers():
            raise TournamentError(MARK.gettext(
                "the pairing system is fixed once the first round is paired"))
        with self.store.batch():
            if seen is not None:
                check_seen(self, seen)
            self.store.set_meta("system", system)
            self.store.log_field_change(
                "system", Sentence(MARK.gettext("Swiss pairing chosen")) if system == SWISS
                else Sentence(MARK.gettext("round robin chosen")), at=self.clock.now())

    def planned_rounds(self) -> int:
        """Rounds before the knockout stage (see :mod:`hub.bracket`)."""
        players = self.store.players()
        if len(players) < 2:
            return 0
        if self.system == ROUND_ROBIN:
            return round_robin_rounds(players)
        stored = self.store.get_meta("swiss_rounds")
        return int(stored) if stored else swiss_round_count(len(players))

    def swiss_round_numbers(self) -> list[int]:
        """The rounds of the Swiss (or round robin) stage: the standings count these."""
        return [n for n, system in self.store.round_numbers() if system != KNOCKOUT]

    def set_swiss_rounds(self, count: int, *, seen: int | None = None) -> None:
        """Plan ``count`` Swiss rounds, decided on the tournament's version ``seen`` (the
        API always gives it): ``StaleChange`` when it changed since."""

        if not 1 <= count <= 30:
            raise TournamentError(MARK.gettext("a Swiss tournament has 1 to 30 rounds"))
        with self.store.batch():
            if seen is not None:
                check_seen(self, seen)
            if count < len(self.store.round_numbers()):
                raise TournamentError(MARK.gettext("that many rounds have already been played"))
            self.store.set_meta("swiss_rounds", str(count))
            planned = Sentence(MARK.ngettext(
                "{n} Swiss round planned", "{n} Swiss rounds planned", count), n=count)
            self.store.log_field_change("swiss_rounds", planned, at=self.clock.now())

    def round_open(self, number: int) -> list[Pairing]:
        """The pairings of round ``number`` still waiting for a result (byes never wait)."""
        done = {(g.round, g.table) for g in self.store.games() if g.round == number}
        return [
            p for p in self.store.pairings(number)
            if not p.is_bye and (p.round, p.table) not in done
        ]

    def can_pair_next(self) -> Sentence | None:
        """None when the next round may be paired, else the reason it may not."""
        players = self.active_players()
        if len(players) < 2:
            return Sentence(MARK.gettext("register at least two players"))
        rounds = self.store.round_numbers()
        if rounds and self.round_open(rounds[-1][0]):
            return still_open(rounds[-1][0])
        if rounds and rounds[-1][1] == KNOCKOUT:

            return next_stage_blocked(self.store)
        if len(rounds) >= self.planned_rounds():
            return Sentence(MARK.gettext("all rounds have been played"))
        return None

    def pair_next_round(self, boards: Sequence[str] = (), *,
                        seen: int | None = None) -> list[Pairing]:
        """Pair the next round and put its games on ``boards`` in order (if given).

        ``seen``: the tournament's version (``field_seq``) its person saw when they decided
        to pair; when the field changed since (a drop, a late entry, a round paired by
        someone else) nothing is paired and the words say what changed
        (``StaleChange``). Runs in a worker thread (the web app's); two
        referees pairing at once get one round and one refusal."""
        with self._pairing:
            if seen is not None:

                check_seen(self, seen)
            return self._pair_next_round(boards)

    def _pair_next_round(self, boards: Sequence[str]) -> list[Pairing]:
        reason = self.can_pair_next()
        if reason:
            raise TournamentError(MARK.gettext("cannot pair the next round: {reason}"),
                                  reason=reason)
        players = self.active_players()
        rounds = self.store.round_numbers()
        number = len(rounds) + 1
        system = self.system
        self._tournament_id()  # before the first offer names it
        try:
            if rounds and rounds[-1][1] == KNOCKOUT:

                system, pairs = KNOCKOUT, next_stage_pairs(self.store)
            elif system == ROUND_ROBIN:
                pairs = round_robin(players, number)
            else:
                pairs = self._swiss_pairs(players)
        except PairingError as exc:
            raise TournamentError(exc) from None
        self.add_round(number, system, pairs, boards)
        return self.store.pairings(number)

    def add_round(self, number: int, system: str, pairs: Sequence[tuple[str, str | None]],
                  boards: Sequence[str] = (), words: Sentence | None = None) -> None:
        """Store a round, log it in the field's log, and put its games on ``boards``."""
        with self.store.batch():
            self.store.add_round(number, system, pairs, at=self.clock.now())
            self.store.log_field_change("paired", words or Sentence(MARK.gettext(
                                            "Round {round} paired"), round=number),
                                        at=self.clock.now(), round_number=number)
        games = [p for p in self.store.pairings(number) if not p.is_bye]
        for pairing, board in zip(games, boards, strict=False):
            self.store.set_pairing_board(number, pairing.table, board)

    def _swiss_pairs(self, players: Sequence[str]) -> list[tuple[str, str | None]]:
        still_in = set(players)  # a dropped player keeps a line, but is not paired
        table = [s for s in self.standings() if s.player in still_in]
        ranked = [s.player for s in table]
        scores = {s.player: s.won for s in table}
        pairings = self.store.pairings()
        played = {p.players() for p in pairings if not p.is_bye}
        had_bye = {p.black for p in pairings if p.is_bye}
        blacks = Counter(p.black for p in pairings if not p.is_bye)
        return swiss(ranked, scores, played, had_bye, blacks)

    def assign_board(self, round_number: int, table: int, board: str | None, *,
                     seen: int | None = None) -> None:
        """Put table ``table`` of round ``round_number`` on ``board`` (None: on none),
        decided on the tournament's version ``seen`` (the API always gives it):
        ``StaleChange`` when it changed since."""

        with self.store.batch():
            if seen is not None:
                check_seen(self, seen)
            try:
                self.store.set_pairing_board(round_number, table, board)
            except HubStoreError as exc:
                raise TournamentError(exc) from None
            self.store.log_field_change("board", Sentence(MARK.gettext(
                "table {table} of round {round} moved to board {board}")
                if board else MARK.gettext("table {table} of round {round} taken off its board"),
                table=table, round=round_number, board=board or ""),
                at=self.clock.now(), round_number=round_number)

    # Results -------------------------------------------------------------------------

    def standings(self) -> list[Standing]:
        """The Swiss (or round robin) stage's table: knockout games are the bracket's."""
        counted = set(self.swiss_round_numbers())
        games = [g.result for g in self.store.games() if g.round in counted]
        byes = [p.black for p in self.store.pairings() if p.is_bye and p.round in counted]
        return standings(self.store.players(), games, byes, self.store.dropped_players())

    def receive(self, ev: ReceivedEvent) -> bool:
        """Keep a board's event; record or withdraw the game's result. True when new."""
        if not self.store.add_event(ev, received_at=self.clock.now()):
            return False
        self.refresh_game(ev.board, ev.match_id)
        return True

    def refresh_game(self, board: str, match_id: int) -> None:
        """Make the recorded result agree with the match's latest event
        (:func:`hub.game_results.refresh_game`)."""
        game_results.refresh_game(self, board, match_id)
