"""The caller's API: its status and settings (tablet), the newest line and its audio (TV)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from web.api.deps import Referee, TableDep
from web.api.responses import CallerLine, CallerStatus, Refusal, StaleCaller
from web.caller.caller import Caller, CallerStale
from web_common.i18n import current

router = APIRouter(tags=["caller"])


async def get_caller(request: Request) -> Caller:
    return request.app.state.caller  # type: ignore[no-any-return]


CallerDep = Annotated[Caller, Depends(get_caller)]


class CallerChange(BaseModel):
    """New caller settings; ``version`` is the caller status the tablet showed."""

    model_config = ConfigDict(extra="forbid")
    version: int = Field(ge=0)
    language: str | None = None
    muted: bool | None = None


@router.get("/api/caller", response_model=CallerStatus,
            summary="The caller's settings, and why it is silent if it is")
async def caller_status(caller: CallerDep) -> dict[str, Any]:
    return caller.status()


@router.post("/api/caller", summary="Change the caller's language or mute it (tablet)",
             response_model=CallerStatus, responses={
                 409: {"model": StaleCaller, "description": "Changed since `version`."},
                 422: {"model": Refusal, "description": "An unknown language."}})
async def caller_change(body: CallerChange, caller: CallerDep,
                        _: Referee) -> Any:
    try:
        caller.change(body.version, language=body.language, muted=body.muted, t=current())
    except CallerStale as exc:
        return JSONResponse({"detail": str(exc), "caller": caller.status()}, status_code=409)
    except ValueError as exc:
        return JSONResponse({"detail": str(exc), "field": "language"}, status_code=422)
    return caller.status()


@router.get("/api/caller/latest", response_model=CallerLine,
            summary="The sentence for the newest step, with its audio")
async def caller_latest(caller: CallerDep, table: TableDep) -> dict[str, Any]:
    return await caller.latest(table)


@router.get("/caller/audio/{name}", include_in_schema=False)
async def caller_audio(name: str, caller: CallerDep) -> FileResponse:
    path = caller.speech.path_of(name.removesuffix(".wav")) if name.endswith(".wav") else None
    if path is None:
        raise HTTPException(status_code=404, detail=current().gettext("no such sentence"))
    return FileResponse(path, media_type="audio/wav",
                        headers={"Cache-Control": "public, max-age=86400"})
