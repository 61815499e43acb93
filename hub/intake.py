"""What the hub accepts from a board: every payload checked before anything is stored.

A board's login lets it publish under its own id only, but what it publishes is still input
from the network, trusted no more than a request to a board's API. So each message goes
through the API's own decoder (:func:`tournament_wire.wire.decode`: a size cap, UTF-8, no
NaN or Infinity, bounded depth, safe integers, no lone surrogates) and then through the
value checks below: integer ranges, players' names as the board's own API checks them
(:class:`web_common.schemas.Names`), steps as the rules engine parses them, bounded lists. A
payload that fails raises :class:`~tournament_wire.wire.WireError` naming the key at fault;
the link drops it, counts it for that board and shows it to the hub's referee.

Only the keys the hub reads are kept: what a board adds beyond them is not stored.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from typing import Any

from pydantic import ValidationError

from hub.intake_why import refusal_why
from hub.model import ReceivedEvent
from scorekeeper import checks
from scorekeeper.errors import ScorekeeperError
from scorekeeper.events import parse_event as parse_step
from scorekeeper.names import MAX_REASON
from scorekeeper.options import Rules, Setup
from scorekeeper.shot import RedChoice
from scorekeeper.state import Phase
from tournament_wire import selftest_wire, wire
from tournament_wire.offer import OfferError, pairing_ref
from web_common.schemas import Names

MAX_SEQ = 1_000_000
"""Steps a match may have (a long real game has a few hundred)."""
MAX_PREVIOUS = 8
"""Earlier matches a state may name (a board names 3)."""
MAX_ALERTS = 16
MAX_ROUNDS = 1_000
MAX_EFFECTS = 64
MAX_EFFECT_FIELDS = 16
"""Fields one effect may name (a clearing names 2, a correction at most the board's)."""
RED_CHOICES = tuple(RedChoice)
MAX_POINTS = 100_000
MAX_SHORT = 64
"""Characters of an id, a kind or a source."""
PHASES = tuple(str(p) for p in Phase)


def _refused(exc: Exception) -> wire.WireError:
    return wire.WireError(str(exc))


def _integer(value: Any, key: str, low: int, high: int) -> int:
    try:
        return checks.integer(value, key, low, high)
    except ScorekeeperError as exc:
        raise _refused(exc) from None


def _short(value: Any, key: str, limit: int = MAX_SHORT) -> str:
    try:
        text = checks.string(value, key)
    except ScorekeeperError as exc:
        raise _refused(exc) from None
    if len(text) > limit:
        raise wire.WireError(f"{key}: longer than {limit} characters")
    return text


def _time(value: Any, key: str) -> float:
    try:
        return checks.timestamp(value, key)
    except ScorekeeperError as exc:
        raise _refused(exc) from None


def _list(value: Any, key: str, limit: int) -> list[Any]:
    if not isinstance(value, list):
        raise wire.WireError(f"{key}: expected a list, got {checks.show(value)}")
    if len(value) > limit:
        raise wire.WireError(f"{key}: {len(value)} items, at most {limit} allowed")
    return value


def _object(value: Any, key: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise wire.WireError(f"{key}: expected an object, got {checks.show(value)}")
    return value


def _player_or_none(value: Any, key: str) -> str | None:
    if value is None:
        return None
    try:
        return checks.player(value, key)
    except ScorekeeperError as exc:
        raise _refused(exc) from None


def _per_player(value: Any, key: str, low: int, high: int) -> dict[str, int]:
    try:
        return dict(checks.per_player(value, key, low, high))
    except ScorekeeperError as exc:
        raise _refused(exc) from None


def names(value: Any, key: str = "names") -> dict[str, str]:
    """The players' names as the board's own API checks them (``Names``: text, no control or
    direction characters, at most 40 characters each)."""
    if value is None:
        return {}
    _object(value, key)
    try:
        checked = Names.model_validate(value)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise wire.WireError(f"{key}.{where}: {first.get('msg', 'not a name')}") from None
    return {p: n for p, n in checked.model_dump().items() if p in value}


def _effect(value: Any, key: str) -> dict[str, Any]:
    obj = _object(value, key)
    out: dict[str, Any] = {}
    if "kind" in obj:
        out["kind"] = _short(obj["kind"], f"{key}.kind")
    if "player" in obj:
        out["player"] = _player_or_none(obj["player"], f"{key}.player")
    if "amount" in obj:
        out["amount"] = _integer(obj["amount"], f"{key}.amount", -MAX_POINTS, MAX_POINTS)
    if "reason" in obj:  # the ruling, which another language's words name
        out["reason"] = _short(obj["reason"], f"{key}.reason")
    if "text" in obj:
        out["text"] = _short(obj["text"], f"{key}.text", MAX_REASON)
    if "phrase" in obj:  # the words with their players and fields open, worded in names
        out["phrase"] = _short(obj["phrase"], f"{key}.phrase", 2 * MAX_REASON)
    if "fields" in obj:  # the values the hub words it from in another language
        out["fields"] = [_short(f, f"{key}.fields[{i}]")
                         for i, f in enumerate(_list(obj["fields"], f"{key}.fields",
                                                     MAX_EFFECT_FIELDS))]
    if "who" in obj:
        out["who"] = _player_or_none(obj["who"], f"{key}.who")
    if "red" in obj:
        out["red"] = _one_of(obj["red"], f"{key}.red", RED_CHOICES)
    return out


def _one_of(value: Any, key: str, allowed: Collection[str]) -> str:
    """``value`` when it is one of ``allowed``, else the refusal naming ``key``."""
    if value not in allowed:
        raise wire.WireError(f"{key}: expected one of {', '.join(allowed)}, "
                             f"got {checks.show(value)}")
    return str(value)


def match_state(value: Any, key: str = "state") -> dict[str, Any] | None:
    """The keys of a match state the hub reads, each checked; the rest is not kept."""
    if value is None:
        return None
    obj = _object(value, key)
    out: dict[str, Any] = {}
    if "phase" in obj:
        out["phase"] = _one_of(obj["phase"], f"{key}.phase", PHASES)
    for name in ("turn", "winner"):
        if name in obj:
            out[name] = _player_or_none(obj[name], f"{key}.{name}")
    if "round" in obj:
        out["round"] = _integer(obj["round"], f"{key}.round", 0, MAX_ROUNDS)
    if "rounds" in obj:
        out["rounds"] = [_player_or_none(r, f"{key}.rounds[{i}]")
                         for i, r in enumerate(_list(obj["rounds"], f"{key}.rounds",
                                                     MAX_ROUNDS))]
    if "score" in obj:
        out["score"] = _per_player(obj["score"], f"{key}.score", -MAX_POINTS, MAX_POINTS)
    if "round_wins" in obj:
        out["round_wins"] = _per_player(obj["round_wins"], f"{key}.round_wins", 0, MAX_ROUNDS)
    if "last_effects" in obj:
        out["last_effects"] = [
            _effect(e, f"{key}.last_effects[{i}]")
            for i, e in enumerate(_list(obj["last_effects"], f"{key}.last_effects",
                                        MAX_EFFECTS))]
    for name in ("board_must_change", "must_place_big"):
        if name in obj:
            out[name] = _boolean(obj[name], f"{key}.{name}")
    if "rules" in obj:
        out["rules"] = _rules_read(obj["rules"], f"{key}.rules")
    return out


def _boolean(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise wire.WireError(f"{key}: expected true or false, got {checks.show(value)}")
    return value


RULES_READ = ("variant", "points_to_win_round", "rounds_to_win_game")
"""What the hub's overlay reads of a state's rules (first to how many, rounds or points)."""


def _rules_read(value: Any, key: str) -> dict[str, Any]:
    """A state's rules as the rules engine reads them; only :data:`RULES_READ` is kept."""
    _object(value, key)
    try:
        rules = Rules.from_json(dict(value)).to_json()
    except (ScorekeeperError, TypeError, ValueError) as exc:
        raise wire.WireError(f"{key}: {exc}") from None
    return {k: rules[k] for k in RULES_READ}


def _match_id(value: Any, key: str = "match_id") -> int:
    return _integer(value, key, 1, checks.MAX_INT)


def _seq(value: Any, key: str = "seq", low: int = 1) -> int:
    return _integer(value, key, low, MAX_SEQ)


def status(data: Mapping[str, Any]) -> bool:
    """Whether a board's status message says it is online."""
    online = data.get("online")
    if not isinstance(online, bool):
        raise wire.WireError(f"online: expected true or false, got {checks.show(online)}")
    if "at" in data:
        _time(data["at"], "at")
    return online


VERSION_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9.+!_-]{0,39}$")


def reported_version(data: Mapping[str, Any]) -> str | None:
    """The version of skitter a board's status message names; None for a board whose
    skitter is older than the version's sending (0.4.0)."""
    if "version" not in data:
        return None
    found = data["version"]
    if not isinstance(found, str) or not VERSION_RE.match(found):
        raise wire.WireError(f"version: expected a version such as 0.4.0, got "
                             f"{checks.show(found)}")
    return found


def board_state(data: Mapping[str, Any]) -> dict[str, Any]:
    """A board's retained state message, as the hub keeps it."""
    match_id = data.get("match_id")
    out: dict[str, Any] = {
        "match_id": None if match_id is None else _match_id(match_id),
        "seq": _seq(data.get("seq", 0), low=0),
        "names": names(data.get("names")),
        "state": match_state(data.get("state")),
        "previous": [],
        "alerts": [],
    }
    for i, item in enumerate(_list(data.get("previous", []), "previous", MAX_PREVIOUS)):
        item = _object(item, f"previous[{i}]")
        out["previous"].append({"match_id": _match_id(item.get("match_id"),
                                                      f"previous[{i}].match_id"),
                                "seq": _seq(item.get("seq"), f"previous[{i}].seq")})
    for i, alert in enumerate(_list(data.get("alerts", []), "alerts", MAX_ALERTS)):
        alert = _object(alert, f"alerts[{i}]")
        out["alerts"].append({"kind": _short(alert.get("kind", "note"), f"alerts[{i}].kind"),
                              "message": _short(alert.get("message", ""),
                                                f"alerts[{i}].message", MAX_REASON)})
    if "at" in data:
        out["at"] = _time(data["at"], "at")
    return out


def event(board: str, data: Mapping[str, Any]) -> ReceivedEvent:
    """A board's event payload as a :class:`ReceivedEvent`; the step itself is parsed by the
    rules engine, as a step sent to the board's API is."""
    match_id = _match_id(data.get("match_id"))
    seq = _seq(data.get("seq"))
    ev_id = data.get("id")
    if ev_id != wire.event_id(board, match_id, seq):
        raise wire.WireError(f"event id {checks.show(ev_id)} does not match board, match and seq")
    step = _object(data.get("event"), "event")
    try:
        parse_step(step)
    except ScorekeeperError as exc:
        raise wire.WireError(f"event: {exc}") from None
    rules, setup = data.get("rules"), data.get("setup")
    try:  # the rules engine's own reading of a match's options
        if rules is not None:
            Rules.from_json(dict(_object(rules, "rules")))
        if setup is not None:
            Setup.from_json(dict(_object(setup, "setup")))
    except (ScorekeeperError, TypeError, ValueError) as exc:
        raise wire.WireError(f"rules or setup: {exc}") from None
    return ReceivedEvent(
        id=ev_id,
        board=board,
        match_id=match_id,
        seq=seq,
        at=_time(data.get("at"), "at"),
        source=_short(data.get("source", ""), "source"),
        event=dict(step),
        state=match_state(data.get("state")) or {},
        names=names(data.get("names")),
        rules=None if rules is None else dict(rules),
        setup=None if setup is None else dict(setup),
        pairing=_pairing(data.get("pairing")),
    )


def _pairing(value: Any) -> dict[str, Any] | None:
    """The pairing a match started from the hub's offer carries (``tournament_wire.offer``)."""
    try:
        return pairing_ref(value)
    except OfferError as exc:
        raise _refused(exc) from None


def command_result(data: Mapping[str, Any]) -> dict[str, Any]:
    """A board's answer to a command, as the page shows it (a refusal's ``why`` checked by
    :func:`~hub.intake_why.refusal_why`: dropped, never fatal, if wrong)."""
    ok = data.get("ok")
    if not isinstance(ok, bool):
        raise wire.WireError(f"ok: expected true or false, got {checks.show(ok)}")
    result = data.get("result") or {}
    _object(result, "result")
    message = data.get("message")
    return {
        "id": None if data.get("id") is None else _short(data.get("id"), "id"),
        "kind": None if data.get("kind") is None else _short(data.get("kind"), "kind"),
        "ok": ok,
        "message": None if message is None else _short(message, "message", 2 * MAX_REASON),
        "result": dict(result),
        "why": None if ok else refusal_why(data.get("why")),
        "at": _time(data.get("at", 0), "at"),
    }


MAX_FAILED_TEXT = 80
"""Characters of one failed check in a self-test message (``cell 17: never changed``)."""
MAX_DATE = 40
MAX_SUMMARY = 120


def selftest(data: Mapping[str, Any]) -> dict[str, Any]:
    """A board's last self-test (:mod:`tournament_wire.selftest_wire`), as the hub keeps it:
    a few failed checks named, their count, pass or fail agreeing with both."""
    passed = _boolean(data.get("passed"), "passed")
    count = _integer(data.get("failed_count"), "failed_count", 0, checks.MAX_INT)
    failed = [_short(f, f"failed[{i}]", MAX_FAILED_TEXT)
              for i, f in enumerate(_list(data.get("failed"), "failed",
                                          selftest_wire.MAX_FAILED))]
    if count < len(failed):
        raise wire.WireError(f"failed_count: {count}, fewer than the {len(failed)} failed "
                             "checks named")
    if passed and count:
        raise wire.WireError(f"passed: true, yet {count} checks failed")
    return {"date": _short(data.get("date"), "date", MAX_DATE), "passed": passed,
            "summary": _short(data.get("summary"), "summary", MAX_SUMMARY),
            "failed": failed, "failed_count": count}
