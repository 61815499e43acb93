"""Reading and changing the match: steps, undo, amending the last shot, new matches.

Every change takes the referee's session and the ``seq`` it was made against; the table
refuses it with 422 (rules, input) or 409 (stale) and then nothing reaches the log.
"""

from __future__ import annotations

import asyncio
import io
import json
from datetime import UTC, datetime
from functools import partial
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from scorekeeper.events import Undo
from scorekeeper.words import PLAYERS, name_of, players_named
from web.api.deps import Referee, TableDep
from web.api.responses import CHANGE_ANSWERS, MatchLog, Snapshot, StoredMatch, download
from web.api.schemas import Amend, Change, NewMatch, Resume, StartOffered, StepRequest
from web.api.writer import change as change_on_writer
from web.table import records
from web.table.snapshot import worded
from web_common.i18n import SOURCE, current
from web_common.json_body import CheckedJSONRoute
from web_common.spreadsheet_csv import csv_writer

router = APIRouter(prefix="/api", tags=["match"], route_class=CheckedJSONRoute)
change = partial(router.post, response_model=Snapshot, responses=CHANGE_ANSWERS)
"""A change: answered with the new state, or one of the refusals."""


@router.get("/state", response_model=Snapshot,
            summary="The current published state (same as the WebSocket's)")
async def get_state(table: TableDep) -> dict[str, Any]:
    return worded(table.published)


@router.get("/match/log", response_model=MatchLog,
            summary="The whole match log, with effects and the score after each step")
async def get_log(table: TableDep) -> dict[str, Any]:
    now = table.committed  # as stored: a step still waiting on the disk is not in it
    t = current()  # the referee page's language, as the CSV's
    return {"match_id": now.match_id, "seq": table.seq, "names": players_named(now.names, t),
            "entries": records.full_log(now, None if t.code == SOURCE else t)}


@router.get("/match/log.jsonl", summary="The match as JSON lines (as `skitter log --export`)",
            **download("application/x-ndjson", "One stored step a line, to download."))
async def get_log_jsonl(table: TableDep) -> Response:
    out = io.StringIO()
    # committed data, no writer
    await asyncio.to_thread(records.export_jsonl, table.committed, table.store, out)
    return Response(out.getvalue(), media_type="application/x-ndjson", headers={
        "Content-Disposition": f'attachment; filename="skitter-match-{table.match_id}.jsonl"'})


@router.get("/match/log.csv", summary="The match log as a table: one row per step, in words",
            **download("text/csv", "One row per step, to download."))
async def get_log_csv(table: TableDep) -> Response:
    now = table.committed
    t = current()
    out = io.StringIO()
    writer = csv_writer(out)
    writer.writerow([
        "seq", t.gettext("time (UTC)"), t.gettext("round"), t.gettext("source"),
        t.gettext("step"), t.gettext("what it did"), t.gettext("reason"),
        *(t.gettext("score {who}").format(who=name_of(p, now.names, t)) for p in PLAYERS),
        t.gettext("undone"), t.gettext("raw step")])
    for e in records.full_log(now, None if t.code == SOURCE else t):
        writer.writerow([
            e["seq"], datetime.fromtimestamp(e["at"], UTC).isoformat(timespec="seconds"),
            e["round"], e["source"], e["words"],
            "; ".join(f"{x['reason']} {x['text']}" for x in e["effects"]), e.get("reason") or "",
            e["score"]["black"], e["score"]["white"], t.gettext("yes") if e["undone"] else "",
            json.dumps(e["step"]),
        ])
    return Response(out.getvalue(), media_type="text/csv", headers={
        "Content-Disposition": f'attachment; filename="skitter-match-{now.match_id}.csv"'})


@router.get("/matches", response_model=list[StoredMatch],
            summary="Every stored match, newest first")
async def list_matches(table: TableDep) -> list[dict[str, Any]]:
    return await asyncio.to_thread(records.list_matches, table.store)


@change("/match/steps", summary="Apply one scenario-format step")
async def post_step(body: StepRequest, table: TableDep, _: Referee) -> dict[str, Any]:
    """Shots, shoot-off values, corrections (with ``reason``), decisions, undo."""
    event = body.event()  # the edge: decoded once, the event goes inward
    pressed = table.clock.now()  # a shot that changes nothing is ordered against a landing
    return await change_on_writer(
        table, lambda: table.take_step(event, pressed_at=pressed), seq=body.seq,
        boot=body.boot)


@change("/match/undo", summary="Take back the last step (R19)")
async def post_undo(body: Change, table: TableDep, _: Referee) -> dict[str, Any]:
    return await change_on_writer(table, lambda: table.apply_step(Undo()),
        seq=body.seq, boot=body.boot)


@change("/match/amend", summary="Add what the sensors cannot see to the last shot")
async def post_amend(body: Amend, table: TableDep, _: Referee) -> dict[str, Any]:
    """Recorded as an undo of the last shot and the shot again with the added keys."""
    return await change_on_writer(
        table, lambda: table.amend_last_shot(body.extra()), seq=body.seq, boot=body.boot)


@change("/match/no-change", summary="The player due shot and nothing changed")
async def post_no_change(body: Change, table: TableDep, _: Referee) -> dict[str, Any]:
    pressed = table.clock.now()  # ordered against a landing by when it was pressed
    return await change_on_writer(table, lambda: table.no_change(pressed_at=pressed),
                                  seq=body.seq, boot=body.boot)


@change("/match/new", summary="Start a new match (the old one stays stored)")
async def post_new_match(body: NewMatch, table: TableDep, _: Referee) -> dict[str, Any]:
    return await change_on_writer(table, lambda: table.new_match(
        body.rules(), body.setup(), body.names.model_dump(),
        {"handicaps": body.handicaps.model_dump()},
    ), seq=body.seq, boot=body.boot)


@change("/match/offered", summary="Start the tournament game the hub offers this board")
async def post_start_offered(body: StartOffered, table: TableDep, _: Referee) -> dict[str, Any]:
    """Both names and the tournament's format as the hub sent them; the match keeps the
    pairing's id, and every event of it carries the id to the hub."""
    return await change_on_writer(table, lambda: table.start_offered(body.offer),
        seq=body.seq, boot=body.boot)


@change("/match/resume", summary="Take up a stored match again (one a new match replaced)")
async def post_resume(body: Resume, table: TableDep, _: Referee) -> dict[str, Any]:
    """The match in play stays stored as it is and can be taken up again in turn."""
    return await change_on_writer(table, lambda: table.take_up(body.match_id),
        seq=body.seq, boot=body.boot)
