"""Dependencies the routers ask for: the table, the broadcaster, the referee's session.

``Referee`` is the typed dependency every change takes (STYLE.md, FastAPI section): a
request without a live session cookie gets 401 before its handler runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status

from scorekeeper.clock import Clock
from web.api.auth import COOKIE, LoginThrottle, Session, Sessions
from web.api.broadcaster import Broadcaster
from web.config.pin import PinStore
from web.config.settings import Settings, load_settings
from web.table.table import Table


@dataclass
class Auth:
    """What the login needs: the PIN, the sessions and the wrong-PIN throttle."""

    pins: PinStore
    sessions: Sessions
    throttle: LoginThrottle

    @classmethod
    def create(cls, pins: PinStore, clock: Clock) -> Auth:
        return cls(pins, Sessions(clock), LoginThrottle(clock))


def get_table(request: Request) -> Table:
    return request.app.state.table  # type: ignore[no-any-return]


def get_broadcaster(request: Request) -> Broadcaster:
    return request.app.state.broadcaster  # type: ignore[no-any-return]


def get_auth(request: Request) -> Auth:
    return request.app.state.auth  # type: ignore[no-any-return]


@lru_cache
def get_settings() -> Settings:
    """The process's settings (``skitter serve`` overrides this with what it loaded)."""
    return load_settings()


def require_referee(request: Request) -> Session:
    """The referee's session from the cookie, or 401."""
    auth: Auth = request.app.state.auth
    session = auth.sessions.get(request.cookies.get(COOKIE))
    if session is None:
        raise HTTPException(
            status_code=status.HTTP_401_UNAUTHORIZED,
            detail="referee session required: log in with the PIN on the tablet",
        )
    return session


TableDep = Annotated[Table, Depends(get_table)]
AuthDep = Annotated[Auth, Depends(get_auth)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
Referee = Annotated[Session, Depends(require_referee)]
