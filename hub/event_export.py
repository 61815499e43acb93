"""One event's results as one file, for another hub (``skitter hub export FILE``).

A club league plays at several venues, each with its own hub. The file holds what another
hub needs to check and count the event's games: the players, the rounds with their pairings,
and every finished game with its board's whole event log and the rules and setup it was
played under, so the receiving hub replays each game with its own rules engine instead of
believing the file (:mod:`hub.event_import`).

The file is JSON (``FORMAT``, ``VERSION``); the event is named by the tournament's id, which
the receiving hub uses to refuse the same event twice.
"""

from __future__ import annotations

from typing import Any

from hub.store import HubStore
from hub.tournament import Tournament

FORMAT = "skitter-hub-event"
VERSION = 1
RESULT_KEYS = ("black", "white", "winner", "black_rounds", "white_rounds", "black_points",
               "white_points")


def export_event(tournament: Tournament, name: str | None = None) -> dict[str, Any]:
    """The event's file content: players, rounds and pairings, games with their event logs."""
    store = tournament.store
    return {
        "format": FORMAT,
        "version": VERSION,
        "event": tournament.event_id(),
        "name": name or store.get_meta("event_name") or tournament.event_id(),
        "players": store.players(),
        "rounds": [{"number": number, "system": system,
                    "pairings": [{"table": p.table, "black": p.black, "white": p.white,
                                  "board": p.board} for p in store.pairings(number)]}
                   for number, system in store.round_numbers()],
        "games": [_game(store, g.board, g.match_id) for g in store.games()],
    }


def _game(store: HubStore, board: str, match_id: int) -> dict[str, Any]:
    game = store.game(board, match_id)
    assert game is not None
    options = store.match_rules(board, match_id)
    return {
        "board": board,
        "match_id": match_id,
        "round": game.round,
        "table": game.table,
        "finished_at": game.finished_at,
        "result": {k: getattr(game.result, k) for k in RESULT_KEYS},
        "rules": None if options is None else options[0],
        "setup": None if options is None else options[1],
        "events": [{"seq": e.seq, "at": e.at, "source": e.source, "event": dict(e.event),
                    "state": dict(e.state), "names": dict(e.names)}
                   for e in store.events(board, match_id)],
    }
