"""The tournament players' ratings: the same openskill ratings as a board's ``/stats``.

Made by :func:`scorekeeper.ratings.rate` from the games the hub recorded, oldest first, so a
player's rating here is what a board that played the same games shows. Players registered
but without a finished game are listed as not rated yet.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool

from hub.responses import RatingRow
from hub.store import HubStore
from scorekeeper.ratings import Result, rate
from scorekeeper.stats import player_key

router = APIRouter(prefix="/api", tags=["tournament"])


def ratings_view(store: HubStore) -> list[dict[str, Any]]:
    """One row per registered player, best rating first; unrated players last."""
    results = [Result(g.result.black, g.result.white, g.result.winner) for g in store.games()]
    ratings, _ = rate(results)
    rows: list[dict[str, Any]] = []
    for name in store.players():
        r = ratings.get(player_key(name))
        rows.append({"player": name, "rating": None if r is None else round(r.ordinal, 2),
                     "games": 0 if r is None else r.matches})
    rows.sort(key=lambda row: (row["rating"] is None, -(row["rating"] or 0.0),
                               row["player"].casefold()))
    return rows


@router.get("/ratings", response_model=list[RatingRow],
            summary="Registered players' ratings (openskill), best first")
async def ratings(request: Request) -> list[dict[str, Any]]:
    store = request.app.state.hub.tournament.store
    return await run_in_threadpool(ratings_view, store)
