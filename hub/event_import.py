"""Another venue's event brought into this hub (``skitter hub import FILE``), checked first.

The file (:mod:`hub.event_export`) is believed no more than a board is: each
game's steps are replayed by this hub's rules engine with the rules and setup they were
played under (:func:`hub.verify.judge`), and the game counts only when the
replay ends where the file says, with the file's result. The file's games must name its
players and fit its pairings; an event already imported, or a game already here, is refused.
Anything wrong refuses the whole file with a message naming the place (``games[3]``, its
board, match and players) and what is wrong; nothing is stored.

What is stored: every game with its event log, under its board's name prefixed with the
event's id (``<event>/<board>``, so two venues' ``board-1`` stay apart), outside this hub's
own rounds. The imported games count in the players' ratings (``/api/ratings``), so ratings
span the venues; this hub's own standings and pairings are its own event's. The event's
players and pairings are kept with it (in the hub's settings, ``imported:<event>``).

A result a referee entered by hand at the other venue has no steps to replay (a negative
match id, no events): it is taken as that referee's word, and counted as such in the summary.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from hub.event_export import FORMAT, RESULT_KEYS, VERSION
from hub.model import GameResult, ReceivedEvent, StoredGame
from hub.store.connection import dump_json
from hub.tournament import Tournament
from hub.verify import judge
from tournament_wire.wire import event_id

IMPORTED = "imported:"
"""The settings key of an imported event (its players and rounds, and when)."""


class ImportRefused(Exception):
    """The file is refused; the message names what was wrong."""


@dataclass(frozen=True)
class Imported:
    """What an import brought in."""

    event: str
    name: str
    players: int
    games: int
    by_referee: int
    """Of ``games``: results a referee entered by hand (no steps to replay)."""


@dataclass(frozen=True)
class _Game:
    stored: StoredGame
    events: tuple[ReceivedEvent, ...]


def read_event_file(text: str) -> dict[str, Any]:
    """The file's JSON object, or :class:`ImportRefused` saying why it is not one."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportRefused(f"not a JSON file: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(f"not an exported skitter event (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise ImportRefused(f"version {data.get('version')!r} of the event file; this hub reads "
                            f"version {VERSION}")
    return data


def import_event(tournament: Tournament, data: Mapping[str, Any], *, at: float) -> Imported:
    """Check the exported event ``data`` and store its games; :class:`ImportRefused` names
    the first problem (nothing is stored then)."""
    store = tournament.store
    event = _text(data, "event", "the file")
    name = _text(data, "name", "the file")
    if event == tournament.event_id():
        raise ImportRefused(f"event {event} is this hub's own event")
    if store.get_meta(IMPORTED + event) is not None:
        raise ImportRefused(f"event {event} ({name}) was imported already")
    players = _list(data, "players", "the file")
    for i, player in enumerate(players):
        if not isinstance(player, str) or not player.strip():
            raise ImportRefused(f"players[{i}]: must be a player's name")
    if len(set(players)) != len(players):
        raise ImportRefused("players: a name is listed twice")
    pairings = _pairings(data, set(players))
    games = [_game(event, game, f"games[{i}]", set(players), pairings)
             for i, game in enumerate(_list(data, "games", "the file"))]
    seen: set[tuple[str, int]] = set()
    for i, g in enumerate(games):
        key = (g.stored.board, g.stored.match_id)
        if key in seen or store.game(*key) is not None:
            raise ImportRefused(f"games[{i}]: board {g.stored.board}, match {g.stored.match_id} "
                                "is here already")
        seen.add(key)
    with store.batch():
        for g in games:
            for ev in g.events:
                store.add_event(ev, received_at=at)
            store.save_game(g.stored)
        store.set_meta(IMPORTED + event, dump_json(
            {"name": name, "players": players, "rounds": data.get("rounds"), "at": at}))
    return Imported(event, name, len(players), len(games),
                    sum(1 for g in games if not g.events))


def _pairings(data: Mapping[str, Any], players: set[str]) -> dict[tuple[int, int], tuple[str, str]]:
    """(round, table) -> (black, white) of every game the file paired."""
    out = {}
    for i, rnd in enumerate(_list(data, "rounds", "the file")):
        where = f"rounds[{i}]"
        number = _int(rnd, "number", where)
        for j, p in enumerate(_list(rnd, "pairings", where)):
            at = f"{where}.pairings[{j}]"
            table, black = _int(p, "table", at), _text(p, "black", at)
            white = p.get("white") if isinstance(p, Mapping) else None
            for who in (black, white):
                if who is not None and who not in players:
                    raise ImportRefused(f"{at}: '{who}' is not among the file's players")
            if white is not None:
                out[(number, table)] = (black, str(white))
    return out


def _game(event: str, game: Any, where: str, players: set[str],
          pairings: Mapping[tuple[int, int], tuple[str, str]]) -> _Game:
    board, match_id = _text(game, "board", where), _int(game, "match_id", where)
    result_data = game.get("result")
    if not isinstance(result_data, Mapping):
        raise ImportRefused(f"{where}.result: missing")
    try:
        result = GameResult(**{k: result_data[k] for k in RESULT_KEYS})
    except KeyError as exc:
        raise ImportRefused(f"{where}.result: no {exc.args[0]}") from None
    who = f"{where} (board {board}, match {match_id}, {result.black} v {result.white})"
    for name in (result.black, result.white):
        if name not in players:
            raise ImportRefused(f"{who}: '{name}' is not among the file's players")
    if result.winner not in (None, result.black, result.white):
        raise ImportRefused(f"{who}: the winner '{result.winner}' did not play this game")
    rnd, table = game.get("round"), game.get("table")
    if rnd is not None and pairings.get((rnd, table)) != (result.black, result.white):
        raise ImportRefused(f"{who}: round {rnd}, table {table} did not pair these players")
    finished_at = game.get("finished_at")
    if not isinstance(finished_at, int | float):
        raise ImportRefused(f"{who}: finished_at must be a time")
    here = f"{event}/{board}"
    events = tuple(_event(here, match_id, e, f"{where}.events[{k}]", game)
                   for k, e in enumerate(_list(game, "events", where)))
    if not events:
        if match_id >= 0:
            raise ImportRefused(f"{who}: a board's game without its steps")
        return _Game(StoredGame(here, match_id, 0, result, float(finished_at), None, None), ())
    seqs = [e.seq for e in events]
    if seqs != list(range(1, len(seqs) + 1)):
        raise ImportRefused(f"{who}: its steps are not numbered 1 to {len(seqs)} in order")
    options = None
    if isinstance(game.get("rules"), Mapping) and isinstance(game.get("setup"), Mapping):
        options = (game["rules"], game["setup"])
    verdict = judge(events, options)
    if verdict.doubt is not None:
        raise ImportRefused(f"{who}: {verdict.doubt}")
    if verdict.result != result:
        raise ImportRefused(f"{who}: the file says {_said(result)}, its steps give "
                            f"{_said(verdict.result)}")
    return _Game(StoredGame(here, match_id, seqs[-1], result, float(finished_at), None, None),
                 events)


def _said(r: GameResult | None) -> str:
    if r is None:
        return "no result"
    won = f"{r.winner} won" if r.winner else "nobody won"
    return (f"{won} {r.black_rounds}-{r.white_rounds} in rounds, "
            f"{r.black_points}-{r.white_points} in points")


def _event(board: str, match_id: int, e: Any, where: str, game: Mapping[str, Any]
           ) -> ReceivedEvent:
    seq = _int(e, "seq", where)
    at = e.get("at")
    if not isinstance(at, int | float):
        raise ImportRefused(f"{where}.at: must be a time")
    parts = {k: e.get(k) for k in ("event", "state", "names")}
    for key, value in parts.items():
        if not isinstance(value, Mapping):
            raise ImportRefused(f"{where}.{key}: must be an object")
    first = seq == 1
    return ReceivedEvent(
        event_id(board, match_id, seq), board, match_id, seq, float(at),
        _text(e, "source", where), parts["event"], parts["state"], parts["names"],
        rules=game.get("rules") if first else None, setup=game.get("setup") if first else None)


def _list(data: Any, key: str, where: str) -> Sequence[Any]:
    value = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(value, list):
        raise ImportRefused(f"{where}: no list '{key}'")
    return value


def _text(data: Any, key: str, where: str) -> str:
    value = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(value, str) or not value:
        raise ImportRefused(f"{where}: '{key}' must be a text")
    return value


def _int(data: Any, key: str, where: str) -> int:
    value = data.get(key) if isinstance(data, Mapping) else None
    if not isinstance(value, int) or isinstance(value, bool):
        raise ImportRefused(f"{where}: '{key}' must be a whole number")
    return value
