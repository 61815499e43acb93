"""The hub referee changes the field: late entries, drops and swaps, each with a reason.

Each change is one transaction: the field changes and a row goes into the field's log
(``HubStore.field_changes``) with the referee's reason, or nothing happens. Each carries
the tournament's version (``seq``) its person saw; a change made on an older picture is
refused (:class:`StaleChange`, HTTP 409) with the words of what changed since, so two
referees at two screens never undo each other's work unknowingly. The rules themselves are
plain functions in ``hub.field``.
"""

from __future__ import annotations

from hub.field import (
    CREDITS,
    Credit,
    drop_problems,
    not_registered,
    seat_of,
    swap_problems,
    swapped,
)
from hub.model import KNOCKOUT, ROUND_ROBIN, Pairing
from hub.said import MARK, Sentence
from hub.store import HubStoreError
from hub.tournament import (
    Tournament,
    TournamentError,
    already_registered,
    check_name,
    check_seen,
    name_key,
)
from scorekeeper.state import Phase


def registered(t: Tournament, name: str) -> str:
    """The registered spelling of ``name`` (case and spaces aside)."""
    found = next((p for p in t.store.players() if name_key(p) == name_key(name)), None)
    if found is None:
        raise TournamentError(not_registered(name))
    return found


def _changeable(t: Tournament, what: Sentence) -> int:
    """The newest round's number, when the field may change now (``what``: the change)."""
    rounds = t.store.round_numbers()
    if not rounds:
        raise TournamentError(MARK.gettext(
            "no round is paired yet: {what} is for a tournament under way (register or "
            "withdraw players instead)"), what=what)
    if t.system == ROUND_ROBIN:
        raise TournamentError(MARK.gettext(
            "a round robin's field is fixed once it starts (everybody meets everybody): "
            "choose Swiss pairing before round 1 to let players join or drop"))
    if rounds[-1][1] == KNOCKOUT:
        raise TournamentError(MARK.gettext("the knockout stage has started: its field is fixed"))
    return rounds[-1][0]


def late_entry(t: Tournament, name: str, *, credit: str, reason: str, seq: int) -> str:
    """Enter a player after round 1: ``credit`` ``bye`` gives them a bye in the newest round
    (the one they missed), ``zero`` nothing. They are paired from the next round on."""
    name = check_name(name)
    if credit not in CREDITS:
        raise TournamentError(MARK.gettext(
            "a late entry starts with a bye's worth (bye) or nothing (zero)"))
    with t.store.batch():
        check_seen(t, seq)
        newest = _changeable(t, Sentence(MARK.gettext("a late entry")))
        same = [p for p in t.store.players() if name_key(p) == name_key(name)]
        if same:
            raise TournamentError(already_registered(same[0]))
        try:
            t.store.add_player(name, at=t.clock.now())
        except HubStoreError as exc:
            raise TournamentError(exc) from None
        if credit == Credit.BYE:
            t.store.add_bye(newest, name)
            words = Sentence(MARK.gettext("{player} entered late, with a bye in round {round}"),
                             player=name, round=newest)
        else:
            words = Sentence(MARK.gettext("{player} entered late, with no games won"),
                             player=name)
        t.store.log_field_change("late_entry", words, at=t.clock.now(), reason=reason,
                                 player=name, round_number=newest)
    return name


def drop_player(t: Tournament, name: str, *, reason: str, seq: int) -> str:
    """Take a player out between rounds: never paired again, their games kept."""
    with t.store.batch():
        check_seen(t, seq)
        newest = _changeable(t, Sentence(MARK.gettext("a drop")))
        player = registered(t, name)
        open_seat = seat_of(t.round_open(newest), player)
        problems = drop_problems(player, t.store.players(), t.store.dropped_players(),
                                 open_seat)
        if problems:
            raise TournamentError(problems)
        t.store.log_field_change("dropped", Sentence(MARK.gettext(
            "{player} dropped out after round {round}"), player=player, round=newest),
            at=t.clock.now(), reason=reason, player=player, round_number=newest)
    return player


def swap_players(t: Tournament, round_number: int, a: str, b: str, *, reason: str, seq: int,
                 accept_rematch: bool = False) -> list[Pairing]:
    """Put ``a`` and ``b`` in each other's seats in the newest round, before its games start."""
    with t.store.batch():
        check_seen(t, seq)
        newest = _changeable(t, Sentence(MARK.gettext("a swap")))
        if round_number != newest:
            raise TournamentError(MARK.gettext(
                "only the newest round ({newest}) can change; round {round} has been played"),
                newest=newest, round=round_number)
        a, b = _name_or_given(t, a), _name_or_given(t, b)
        pairings = t.store.pairings(newest)
        earlier = [p for p in t.store.pairings() if p.round < newest]
        met = {p.players(): p.round for p in earlier if not p.is_bye}
        had_bye = {p.black: p.round for p in earlier if p.is_bye}
        problems = swap_problems(pairings, a, b, met=met, had_bye=had_bye,
                                 dropped=t.store.dropped_players(),
                                 accept_rematch=accept_rematch)
        if problems:
            raise TournamentError(problems)
        for name in (a, b):
            seat = seat_of(pairings, name)
            assert seat is not None
            started = _started(t, seat)
            if started:
                raise TournamentError(started)
        after = swapped(pairings, a, b)
        for before, now in zip(pairings, after, strict=True):
            if before != now:
                t.store.set_pairing_players(now.round, now.table, now.black, now.white)
        rematch = any(p.players() in met for p in after if p.players() & {a, b})
        words = Sentence(MARK.gettext(
            "{first} and {second} changed seats in round {round} (a rematch, accepted)"
            ) if rematch else MARK.gettext("{first} and {second} changed seats in round {round}"),
            first=a, second=b, round=newest)
        t.store.log_field_change("swapped", words, at=t.clock.now(), reason=reason,
                                 round_number=newest)
    return t.store.pairings(newest)


def _name_or_given(t: Tournament, name: str) -> str:
    found = next((p for p in t.store.players() if name_key(p) == name_key(name)), None)
    return found or name


def _started(t: Tournament, seat: Pairing) -> Sentence | None:
    """Words saying the game of ``seat`` has begun (a result, a claim, a board playing it)."""
    if seat.is_bye:
        return None
    where = {"table": seat.table, "round": seat.round}
    if any((g.round, g.table) == (seat.round, seat.table) for g in t.store.games()):
        return Sentence(MARK.gettext(
            "the game at table {table} of round {round} has a result: a swap is made before a "
            "round's games start"), **where)
    if any((c.round, c.table) == (seat.round, seat.table) for c in t.store.claims()):
        return Sentence(MARK.gettext(
            "the game at table {table} of round {round} has a result waiting for the "
            "referee: it has been played"), **where)
    for entry in t.store.boards():
        payload = entry.get("state") or {}
        names = payload.get("names") or {}
        shown = {name_key(str(n)) for n in names.values() if n}
        if (payload.get("seq") and shown == {name_key(p) for p in seat.players()}
                and (payload.get("state") or {}).get("phase") != Phase.GAME_OVER):
            return Sentence(MARK.gettext(
                "the game at table {table} of round {round} has started on board {board}: a "
                "swap is made before a round's games start"), board=entry["board"], **where)
    return None
