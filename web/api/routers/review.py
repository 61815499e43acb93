"""Shot review: a step of the log with the sensor timeline that made it, to replay, download
or mirror on the scoreboard (``web.table.review``)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import Response

from web.api.deps import Referee, TableDep
from web.api.responses import CHANGE_ANSWERS, Review, ReviewFile, Snapshot
from web.api.schemas import ReviewShow
from web.api.writer import change as change_on_writer
from web.table import records
from web.table.table import Table
from web_common.i18n import current
from web_common.schemas import PathNumber

router = APIRouter(prefix="/api", tags=["review"])


async def _review(table: Table, seq: int) -> dict[str, Any]:
    t = current()  # the request's language (web_common.i18n), for the review's sentences
    try:
        # off the writer: the committed log and a read-only connection (web.table.records)
        return await asyncio.to_thread(
            lambda: records.review(table.committed, table.store, table.profile(), seq, t))
    except LookupError as exc:
        raise HTTPException(status_code=404, detail=str(exc)) from None


@router.get("/match/log/{seq}/review", response_model=Review,
            summary="One step and its sensor timeline, frame by frame")
async def get_review(seq: PathNumber, table: TableDep) -> dict[str, Any]:
    return await _review(table, seq)


@router.get("/match/log/{seq}/review-file", summary="Download a step and its timeline (JSON)",
            response_class=Response,
            responses={200: {"model": ReviewFile, "description": "A file to download."}})
async def get_review_file(seq: PathNumber, table: TableDep) -> Response:
    """Plays back with ``skitter serve --source replay:FILE`` or ``skitter sensors``."""
    doc = (await _review(table, seq))["file"]
    name = f"skitter-match{doc['match_id']}-step{seq}.review.json"
    return Response(
        json.dumps(doc, indent=1), media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.post("/referee/review-show", response_model=Snapshot, responses=CHANGE_ANSWERS,
             summary="Mirror a review on the scoreboard, or end it")
async def post_review_show(body: ReviewShow, table: TableDep, _: Referee) -> dict[str, Any]:
    """A change like any other: made on the state the referee saw (``seen``), refused (409,
    saying what changed) when the match changed since."""
    shown = None if body.seq is None else body.model_dump(exclude={"seen", "boot"})
    return await change_on_writer(table, lambda: table.show_review(shown), seq=body.seen,
                                  boot=body.boot)
