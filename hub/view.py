"""What the tournament page shows, built from the hub's file in parts: one card per board,
the tournament's parts (standings, rounds, games, what needs the referee ...) and a few
counters. ``hub.feed`` sends the page only the parts that changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from hub.bracket import bracket_view, start_blocked
from hub.decisions import decided_about, result_version
from hub.forecast import forecast
from hub.model import Pairing, StoredGame
from hub.overlay import card_view
from hub.said import MARK, keyed, said, said_n
from hub.tournament import Tournament, same_players
from scorekeeper.errors import Why
from scorekeeper.state import Phase
from scorekeeper.words import is_named, players_named, refusal
from web_common.i18n import available, language

NORMAL_KINDS = frozenset({"restore"})
"""Alerts of a board that are a normal moment of play (putting the board back after a shot
or at a round's end): the card shows them as notes, never as a fault."""


def board_alerts(entry: dict[str, Any], received: int,
                 refused: tuple[int, str] | None = None) -> list[dict[str, Any]]:
    """The board's own alerts, plus what only the hub can see (offline, events missing,
    messages it refused)."""
    out: list[dict[str, Any]] = []
    if refused is not None:
        count, why = refused
        out.append(said_n("refused", MARK.ngettext(
            "{n} message from this board refused and not stored (the latest: {why})",
            "{n} messages from this board refused and not stored (the latest: {why})",
            count), count, why=why))
    if not entry["online"]:
        out.append(said("offline", MARK.gettext("board offline (no link to the broker)")))
    payload = entry.get("state") or {}
    seq = payload.get("seq") or 0
    if received < seq:
        out.append(said("missing", MARK.gettext("waiting for events {first} to {last}"),
                        first=received + 1, last=seq))
    own = [a for a in payload.get("alerts") or [] if isinstance(a, dict)]
    state = payload.get("state") or {}
    if (state.get("board_must_change") and state.get("phase") != Phase.GAME_OVER
            and not any(a.get("kind") == "restore" for a in own)):
        out.append(said("restore", MARK.gettext("board to restore to the match's position")))
    out.extend({"kind": str(a.get("kind", "note")), "message": str(a.get("message", ""))}
               for a in own)
    return out


def version_alerts(version: str | None, others: Iterable[str | None]) -> list[dict[str, Any]]:
    """A warning when this board runs another skitter than the other boards at the event
    (``others``: their versions, None for a board too old to send one, which carries its
    own warning)."""
    sent = {o for o in others if o is not None}
    if version is None:
        return [said("version", MARK.gettext(
            "this board runs a skitter too old to say its version, other boards here run "
            "{others}: update it so every board follows the same rules"),
            others=", ".join(sorted(sent)))] if sent else []
    differ = sorted(sent - {version})
    if not differ:
        return []
    return [said("version", MARK.gettext(
        "this board runs skitter {version}, other boards here run {others}: update them so "
        "every board follows the same rules"), version=version, others=", ".join(differ))]


def split_alerts(alerts: list[dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                         list[dict[str, Any]]]:
    """The faults, and the normal moments (:data:`NORMAL_KINDS`)."""
    return ([a for a in alerts if a["kind"] not in NORMAL_KINDS],
            [a for a in alerts if a["kind"] in NORMAL_KINDS])


def name_alerts(payload: dict[str, Any], pairing: Pairing | None,
                finished: bool = False) -> list[dict[str, Any]]:
    """A warning when the board's players are not the ones paired on it (beyond case and
    spaces, which the hub matches anyway): its result would find no pairing. None for a
    match whose result the hub already has (``finished``): the board still shows that
    game while its next pairing waits, which is normal."""
    names = payload.get("names") or {}
    shown = [str(names.get(c, "")) for c in ("black", "white")]
    if pairing is None or pairing.is_bye or finished or not all(n.strip() for n in shown):
        return []
    if same_players(shown, pairing):
        return []
    return [said("names", MARK.gettext(
        "players {first} and {second} are not the pairing on this board ({black} and "
        "{white}): check the names"), first=shown[0], second=shown[1], black=pairing.black,
        white=pairing.white)]


def attention(t: Tournament) -> list[dict[str, Any]]:
    """What the referee must look at: games whose result found no pairing, and games a board
    left behind without a result while their pairing still waits for one."""
    store = t.store
    out: list[dict[str, Any]] = []
    for c in store.claims():
        r = c.result
        rounds = f"{r.black_rounds}–{r.white_rounds}"
        line = said("claim", MARK.gettext(
            "Board {board}: the game of {black} and {white} ended ({winner} won, rounds "
            "{rounds}), but it does not count until the referee accepts it: {why}"),
            board=c.board, black=r.black, white=r.white, winner=r.winner, rounds=rounds,
            why=c.why) if r.winner else said("claim", MARK.gettext(
                "Board {board}: the game of {black} and {white} ended (no winner, rounds "
                "{rounds}), but it does not count until the referee accepts it: {why}"),
                board=c.board, black=r.black, white=r.white, rounds=rounds, why=c.why)
        out.append({**line, "board": c.board, "match_id": c.match_id, "seq": c.seq,
                    "round": c.round, "table": c.table,
                    "result": r.to_json()})
    if not store.round_numbers():
        return out
    claimed = {(c.board, c.match_id) for c in store.claims()}
    for g in store.games():
        if g.round is None:
            out.append({**said("unpaired", MARK.gettext(
                "Board {board}: the game of {black} and {white} ended, but no open pairing "
                "has these players; check the names"), board=g.board, black=g.result.black,
                white=g.result.white), "board": g.board, "match_id": g.match_id})
    current = {b["board"]: (b.get("state") or {}).get("match_id") for b in store.boards()}
    open_pairings = [p for n, _ in store.round_numbers() for p in t.round_open(n)]
    for board, match_id, count in store.matches_received():
        if (match_id == current.get(board) or store.game(board, match_id) is not None
                or (board, match_id) in claimed):
            continue
        latest = store.latest_event(board, match_id)
        if latest is None:
            continue
        names = [str(latest.names.get(c, "")) for c in ("black", "white")]
        if any(same_players(names, p) for p in open_pairings):
            out.append({**said_n("no_result", MARK.ngettext(
                "Board {board}: the game of {black} and {white} (match {match}) was left "
                "after {n} step without a result",
                "Board {board}: the game of {black} and {white} (match {match}) was left "
                "after {n} steps without a result", count), count, board=board,
                black=names[0], white=names[1], match=match_id),
                "board": board, "match_id": match_id})
    return out


def boards_view(t: Tournament, only: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """The boards' cards, by name (only those named in ``only``, if given)."""
    store = t.store
    assigned = {p.board: p for p in store.pairings() if p.board}
    refusals = store.refusals()
    selftests = store.selftests()
    versions = {e["board"]: e["version"] for e in store.boards()}
    out = []
    for entry in store.boards(only):
        payload = entry.get("state") or {}
        state = payload.get("state") or {}
        match_id = payload.get("match_id")
        received = store.contiguous_seq(entry["board"], match_id) if match_id else 0
        commands = store.commands(entry["board"], limit=1)
        pairing = assigned.get(entry["board"])
        done = store.game(entry["board"], match_id) if match_id else None
        faults, notes = split_alerts(
            board_alerts(entry, received, refusals.get(entry["board"]))
            + name_alerts(payload, pairing, finished=done is not None)
            + version_alerts(entry["version"], (v for b, v in versions.items()
                                                if b != entry["board"])))
        if done is not None and done.round is not None:
            notes.append(_finished_words(done, pairing))
            if (done.round, done.table) != (None if pairing is None else
                                            (pairing.round, pairing.table)):
                pairing = next(p for p in store.pairings(done.round) if p.table == done.table)
        out.append(
            {
                "board": entry["board"],
                "online": entry["online"],
                "version": entry["version"],
                "match_id": match_id,
                "seq": payload.get("seq", 0),
                "received": received,
                "names": players_named(payload.get("names") or {}),
                "seats": [p for p in ("black", "white")
                          if not is_named((payload.get("names") or {}).get(p))],
                "phase": state.get("phase"),
                "turn": state.get("turn"),
                "winner": state.get("winner"),
                "round": state.get("round"),
                "score": state.get("score") or {},
                "round_wins": state.get("round_wins") or {},
                "alerts": faults,
                "notes": notes,
                "refused": refusals.get(entry["board"], (0, ""))[0],
                "pairing": None if pairing is None else
                {"round": pairing.round, "table": pairing.table},
                "last_command": answered_in(commands[0], payload.get("names") or {})
                if commands else None,
                "selftest": selftests.get(entry["board"]),
                "overlay": card_view(
                    payload, store.latest_event(entry["board"], match_id) if match_id else None),
            }
        )
    return out


def answered_in(command: dict[str, Any], names: Mapping[str, Any]) -> dict[str, Any]:
    """The last command with a refusal the board sent as data worded in each language
    (``result.message_in``: code to sentence, the players named); the board's English
    ``message`` stays for an answer without one (an older board's, or a wrong one)."""
    result = command.get("result")
    why = result.get("why") if isinstance(result, Mapping) else None
    if not isinstance(why, Mapping):
        return command
    refused = Why.from_json(why)
    words = {code: refusal(refused, players_named(names, language(code)), language(code))
             for code in available()}
    return {**command, "result": {**result, "message_in": words}}


def _finished_words(done: StoredGame, pairing: Pairing | None) -> dict[str, Any]:
    """The note on a card whose game the hub has counted: and what the board plays next."""
    if pairing is not None and (pairing.round, pairing.table) != (done.round, done.table):
        return said("finished", MARK.gettext(
            "Game over: counted for round {round}, table {table}. Next on this board: "
            "{black} v {white}, round {next_round}, table {next_table}"),
            round=done.round, table=done.table, black=pairing.black, white=pairing.white,
            next_round=pairing.round, next_table=pairing.table)
    return said("finished", MARK.gettext("Game over: counted for round {round}, table {table}"),
                round=done.round, table=done.table)


def rounds_view(t: Tournament) -> list[dict[str, Any]]:
    games = {(g.round, g.table): g for g in t.store.games() if g.round is not None}
    decided = decided_about(t)
    rounds = []
    for number, system in t.store.round_numbers():
        pairings = []
        for p in t.store.pairings(number):
            g = games.get((p.round, p.table))
            pairings.append(
                {
                    "table": p.table,
                    "black": p.black,
                    "white": p.white,
                    "bye": p.is_bye,
                    "board": p.board,
                    "version": "" if p.is_bye else result_version(g, decided[(p.round, p.table)]),
                    "result": None if g is None else {
                        "board": g.board,
                        "match_id": g.match_id,
                        **g.result.to_json(),
                    },
                }
            )
        rounds.append({"number": number, "system": system, "pairings": pairings})
    return rounds


def games_view(t: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "board": g.board,
            "match_id": g.match_id,
            "round": g.round,
            "table": g.table,
            "finished_at": g.finished_at,
            **g.result.to_json(),
        }
        for g in t.store.games()
    ]


def tournament_parts(t: Tournament) -> dict[str, Any]:
    """Everything the page shows beside the boards' cards and the counters."""
    return {
        "system": t.system,
        "format": _format(t),
        "planned_rounds": t.planned_rounds(),
        **keyed("next_round_blocked", t.can_pair_next()),
        "attention": attention(t),
        "decisions": t.store.decisions(),
        "players": t.store.players(),
        "standings": [s.to_json() for s in t.standings()],
        "rounds": rounds_view(t),
        "games": games_view(t),
        "forecast": None if (f := forecast(t)) is None else f.to_json(),
        **field_parts(t),
    }


def field_parts(t: Tournament) -> dict[str, Any]:
    """The field's version and log, who dropped out, and the knockout stage."""
    return {
        "field_seq": t.store.field_version(),
        "field_changes": [c.to_json() for c in t.store.field_changes()],
        "dropped": t.store.dropped_players(),
        **keyed("knockout_blocked", start_blocked(t)),
        "bracket": bracket_view(t),
    }


def _format(t: Tournament) -> dict[str, Any] | None:
    """The tournament's format, and its words in each language with a catalog (the view is
    one for every page: each page reads its own, ``words_in``)."""
    fmt = t.game_format()
    if fmt is None:
        return None
    return {**fmt.to_json(), "words": fmt.words(),
            "words_in": {code: fmt.words(language(code)) for code in available()}}


def counters(t: Tournament, *, broker_connected: bool,
             problems: list[str] | None = None) -> dict[str, Any]:
    """The page's few cheap figures, read again at every refresh (``problems``: what keeps
    the hub from hearing the boards, as ``/healthz`` names it)."""
    return {
        "broker_connected": broker_connected,
        "problems": list(problems or []),
        "duplicates": t.store.counter("duplicates"),
        "rejected": t.store.counter("rejected"),
    }
