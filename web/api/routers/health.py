"""``/healthz`` for monitoring: 200 when the sensor link and the store are well, else 503."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from web.api.deps import TableDep
from web.api.responses import Health
from web.api.writer import StillWriting, on_writer
from web.table.durability import volatile_reason

router = APIRouter(tags=["health"])

HEALTH_WAIT_S = 1.0
"""Seconds ``/healthz`` waits for the store before it reports the disk as stalled."""

POWER_CUT_ADVICE = ("a power cut loses the whole match log: keep the data directory on a "
                    "lasting disk (hardware/README.md, \"A power cut loses nothing\")")



@router.get("/healthz", summary="Sensor link, store and uptime",
            responses={200: {"model": Health}, 503: {"model": Health}})
async def healthz(table: TableDep) -> JSONResponse:
    """Names each problem in ``problems``; ``uptime`` is in seconds. ``warnings`` name what
    works now but would lose data later (a match log in RAM): they leave the answer 200."""
    problems: list[str] = []
    warnings: list[str] = []
    volatile = volatile_reason(table.store.path.parent)
    if volatile is not None:
        warnings.append(f"match log: {volatile}; {POWER_CUT_ADVICE}")
    link: dict[str, object] = {"up": False, "message": "no sensor source"}
    if table.sensing is not None:
        status = table.sensing.link()
        link = {"up": status.up, "message": status.message, "degraded": status.degraded,
                "errors": status.errors}
        if not status.up:
            problems.append(f"sensor link down: {status.message or table.source_name}")
    else:
        problems.append("no sensor source")
    store_ok = True
    try:
        # On the writer, in turn with the changes: a disk that stalls them stalls this too,
        # and health says so after HEALTH_WAIT_S instead of waiting with them.
        problem = await on_writer(table, table.check_store, HEALTH_WAIT_S)
        if problem is not None:
            store_ok = False
            problems.append(problem)
    except StillWriting:
        store_ok = False
        problems.append(f"match log: the disk did not answer within {HEALTH_WAIT_S:g} s "
                        "(changes wait until it does)")
    except Exception as exc:  # noqa: BLE001 - whatever broke, health says so
        store_ok = False
        problems.append(f"match store unusable: {exc}")
    body = {
        "ok": not problems,
        "problems": problems,
        "warnings": warnings,
        "link": link,
        "store": {"ok": store_ok, "path": str(table.store.path), "volatile": volatile is not None},
        "source": table.source_name,
        "uptime": round(table.uptime(), 3),
        "seq": table.published.get("seq", 0),
    }
    return JSONResponse(body, status_code=200 if not problems else 503)
