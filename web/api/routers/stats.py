"""``/stats`` and its API: players' statistics, ratings, head to head, known names.

Reading the history replays stored matches, so it runs in a worker thread, off the event
loop that senses the board.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse

from web.api.responses import HeadToHead, PlayerDetail, Refusal, StatsOverview
from web.api.routers.scoreboard import page_route
from web.stats.history import History, Overview
from web_common.i18n import current

router = APIRouter(tags=["stats"])


async def get_history(request: Request) -> History:
    return request.app.state.history  # type: ignore[no-any-return]


HistoryDep = Annotated[History, Depends(get_history)]


async def read(history: History) -> Overview:
    return await asyncio.to_thread(history.overview)


router.add_api_route("/stats", page_route("stats.html"), methods=["GET"],
                     include_in_schema=False)


@router.get("/api/stats", response_model=StatsOverview,
            summary="Every player's statistics and rating, best rating first")
async def stats(history: HistoryDep) -> dict[str, Any]:
    view = await read(history)
    keys = sorted(view.ratings, key=lambda k: view.ratings[k].name.casefold())
    return {
        "players": view.table(),
        "matches": sum(1 for r in view.records if r.counted),
        "ratings": {"names": [view.ratings[k].name for k in keys],
                    "after_match": [[h.get(k) for k in keys] for h in view.history]},
        "problems": view.problems,
    }


@router.get("/api/stats/player", summary="One player's statistics and rating",
            response_model=PlayerDetail,
            responses={404: {"model": Refusal, "description": "No match of that name."}})
async def stats_player(history: HistoryDep,
                       name: Annotated[str, Query(min_length=1, max_length=80)]
                       ) -> Any:
    view = await read(history)
    player = view.player(name)
    if player is None:
        detail = current().gettext("name: no finished match of a player called {name}")
        return JSONResponse({"detail": detail.format(name=repr(name)), "field": "name"},
                            status_code=404)
    rating = view.rating(name)
    return {**player.to_json(), "rating": None if rating is None else rating.to_json()}


@router.get("/api/stats/head-to-head", response_model=HeadToHead,
            summary="Two players' matches against each other")
async def stats_head_to_head(
    history: HistoryDep,
    a: Annotated[str, Query(min_length=1, max_length=80)],
    b: Annotated[str, Query(min_length=1, max_length=80)],
) -> dict[str, Any]:
    view = await read(history)
    return view.head_to_head(a, b).to_json()


@router.get("/api/players", response_model=list[str],
            summary="Every player's name known from stored matches")
async def players(history: HistoryDep) -> list[str]:
    view = await read(history)
    return view.names()
