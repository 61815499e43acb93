"""What the tournament page shows, built from the hub's file in parts: one card per board,
the tournament's parts (standings, rounds, games, what needs the referee ...) and a few
counters. ``web.tournament.hub.feed`` sends the page only the parts that changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scorekeeper.errors import ScorekeeperError
from scorekeeper.events import parse_event
from scorekeeper.words import in_names, players_named
from web.tournament.hub.model import Pairing
from web.tournament.hub.tournament import Tournament, same_players

GAME_KEYS = ("black", "white", "winner", "black_rounds", "white_rounds", "black_points",
             "white_points")


def board_alerts(entry: dict[str, Any], received: int,
                 refused: tuple[int, str] | None = None) -> list[dict[str, str]]:
    """The board's own alerts, plus what only the hub can see (offline, events missing,
    messages it refused)."""
    out: list[dict[str, str]] = []
    if refused is not None:
        count, why = refused
        out.append({"kind": "refused",
                    "message": f"{count} message{'s' if count != 1 else ''} from this board "
                    f"refused and not stored (the latest: {why})"})
    if not entry["online"]:
        out.append({"kind": "offline", "message": "board offline (no link to the broker)"})
    payload = entry.get("state") or {}
    seq = payload.get("seq") or 0
    if received < seq:
        out.append(
            {"kind": "missing", "message": f"waiting for events {received + 1} to {seq}"}
        )
    own = [a for a in payload.get("alerts") or [] if isinstance(a, dict)]
    state = payload.get("state") or {}
    if (state.get("board_must_change") and state.get("phase") != "game_over"
            and not any(a.get("kind") == "restore" for a in own)):
        out.append({"kind": "restore", "message": "board to restore to the match's position"})
    out.extend({"kind": str(a.get("kind", "note")), "message": str(a.get("message", ""))}
               for a in own)
    return out


def name_alerts(payload: dict[str, Any], pairing: Pairing | None) -> list[dict[str, str]]:
    """A warning when the board's players are not the ones paired on it (beyond case and
    spaces, which the hub matches anyway): its result would find no pairing."""
    names = payload.get("names") or {}
    shown = [str(names.get(c, "")) for c in ("black", "white")]
    if pairing is None or pairing.is_bye or not all(n.strip() for n in shown):
        return []
    if same_players(shown, pairing):
        return []
    return [{"kind": "names", "message": f"players {shown[0]} and {shown[1]} are not the pairing "
             f"on this board ({pairing.black} and {pairing.white}): check the names"}]


def attention(t: Tournament) -> list[dict[str, Any]]:
    """What the referee must look at: games whose result found no pairing, and games a board
    left behind without a result while their pairing still waits for one."""
    store = t.store
    out: list[dict[str, Any]] = []
    for c in store.claims():
        r = c.result
        outcome = f"{r.winner} won" if r.winner else "no winner"
        out.append({"kind": "claim", "board": c.board, "match_id": c.match_id, "seq": c.seq,
                    "round": c.round, "table": c.table,
                    "result": {k: getattr(r, k) for k in GAME_KEYS},
                    "message": f"Board {c.board}: the game of {r.black} and {r.white} ended "
                    f"({outcome}, rounds {r.black_rounds}–{r.white_rounds}), but it does not "
                    f"count until the referee accepts it: {c.why}"})
    if not store.round_numbers():
        return out
    claimed = {(c.board, c.match_id) for c in store.claims()}
    for g in store.games():
        if g.round is None:
            out.append({"kind": "unpaired", "board": g.board, "match_id": g.match_id,
                        "message": f"Board {g.board}: the game of {g.result.black} and "
                        f"{g.result.white} ended, but no open pairing has these players; "
                        "check the names"})
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
            out.append({"kind": "no_result", "board": board, "match_id": match_id,
                        "message": f"Board {board}: the game of {names[0]} and {names[1]} "
                        f"(match {match_id}) was left after {count} steps without a result"})
    return out


def boards_view(t: Tournament, only: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """The boards' cards, by name (only those named in ``only``, if given)."""
    store = t.store
    assigned = {p.board: p for p in store.pairings() if p.board}
    refusals = store.refusals()
    out = []
    for entry in store.boards(only):
        payload = entry.get("state") or {}
        state = payload.get("state") or {}
        match_id = payload.get("match_id")
        received = store.contiguous_seq(entry["board"], match_id) if match_id else 0
        commands = store.commands(entry["board"], limit=1)
        pairing = assigned.get(entry["board"])
        out.append(
            {
                "board": entry["board"],
                "online": entry["online"],
                "match_id": match_id,
                "seq": payload.get("seq", 0),
                "received": received,
                "names": players_named(payload.get("names") or {}),
                "phase": state.get("phase"),
                "turn": state.get("turn"),
                "winner": state.get("winner"),
                "round": state.get("round"),
                "score": state.get("score") or {},
                "round_wins": state.get("round_wins") or {},
                "alerts": board_alerts(entry, received, refusals.get(entry["board"]))
                + name_alerts(payload, pairing),
                "refused": refusals.get(entry["board"], (0, ""))[0],
                "pairing": None if pairing is None else
                {"round": pairing.round, "table": pairing.table},
                "last_command": commands[0] if commands else None,
            }
        )
    return out


def rounds_view(t: Tournament) -> list[dict[str, Any]]:
    games = {(g.round, g.table): g for g in t.store.games() if g.round is not None}
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
                    "result": None if g is None else {
                        "board": g.board,
                        "match_id": g.match_id,
                        **{k: getattr(g.result, k) for k in GAME_KEYS},
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
            **{k: getattr(g.result, k) for k in GAME_KEYS},
        }
        for g in t.store.games()
    ]


def tournament_parts(t: Tournament) -> dict[str, Any]:
    """Everything the page shows beside the boards' cards and the counters."""
    return {
        "system": t.system,
        "planned_rounds": t.planned_rounds(),
        "next_round_blocked": t.can_pair_next(),
        "attention": attention(t),
        "decisions": t.store.decisions(),
        "players": t.store.players(),
        "standings": [s.to_json() for s in t.standings()],
        "rounds": rounds_view(t),
        "games": games_view(t),
    }


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


def match_log(t: Tournament, board: str, match_id: int) -> dict[str, Any]:
    """A match's events as the hub received them, with the score after each; the steps and
    their effects in the players' names (the raw step stays in ``event``). ``result`` is
    the counted one, or the board's claim while it waits for the referee (``counted``
    False)."""
    events = t.store.events(board, match_id)
    counted = t.store.game(board, match_id)
    game = counted or t.store.claim(board, match_id)
    names = players_named(events[-1].names if events else {})
    return {
        "board": board,
        "match_id": match_id,
        "names": names,
        "complete": bool(events) and events[-1].seq == len(events),
        "result": None if game is None else {k: getattr(game.result, k) for k in GAME_KEYS},
        "counted": counted is not None,
        "events": [
            {
                "seq": e.seq,
                "at": e.at,
                "source": e.source,
                "event": e.event,
                "text": in_names(_describe(e.event), names),
                "score": (e.state or {}).get("score"),
                "round": (e.state or {}).get("round"),
                "effects": [in_names(x, names) for x in _effects(e.event, e.state)],
            }
            for e in events
        ],
    }


def _effects(event: dict[str, Any] | Any, state: dict[str, Any] | Any) -> list[str]:
    if "undo" in event:
        return ["the last step was taken back"]
    effects = (state or {}).get("last_effects") or []
    return [str(x.get("text", "")) for x in effects if isinstance(x, dict)]


def _describe(event: dict[str, Any] | Any) -> str:
    """Short words for a step (``black's shot``); its keys if the engine cannot read it."""
    try:
        return parse_event(event).describe()
    except (ScorekeeperError, TypeError, AttributeError):
        return ", ".join(map(str, event)) if isinstance(event, dict) else str(event)
