"""The referee's session: a PIN buys an HttpOnly, SameSite=Strict cookie.

The session itself (signed, kept over a restart, ended by a PIN change or a logout, named
and bound per port) is :mod:`web_common.sessions`.

Reading is open to everyone; every change needs the session, because only the referee
changes a match. The PIN itself is checked by ``web_common.pin.PinStore`` (only its hash is kept).

Wrong PINs are slowed down per client address, without sleeping: after the n-th wrong PIN
in a row that client must wait ``min(CAP, BASE * 2 ** (n - 1))`` seconds before its next
attempt is even looked at (1 s, 2 s, 4 s, ... at most 30 s); an attempt inside the wait
gets 429 with ``Retry-After``. A correct PIN clears the count, and so do ``FORGET`` seconds
without any attempt. A four-digit PIN thus takes days to guess, while the real referee who
mistypes waits at most half a minute, and someone guessing from another address never
delays the referee's tablet.

Guesses spread over many addresses (easy with IPv6 on a venue network) meet a second,
venue-wide limit: wrong PINs draw on a bucket of ``GLOBAL_BURST`` tries that refills one try
every ``GLOBAL_INTERVAL`` seconds. While it is empty every login waits (429) until it refills,
so such an attack gets about one guess every 5 s; the referee is held up only while wrong
PINs keep arriving that fast, and for at most ``GLOBAL_INTERVAL`` seconds after they stop. A
referee already logged in keeps the session throughout. Time comes from the injected clock.

Concurrent logins must not slip past the limits while a PIN is being hashed, so an attempt
is *reserved* before its PIN is looked at: it counts as a wrong PIN (for the address and the
venue) from the moment it is let through, and a correct PIN gives the venue's try back. Only
one PIN check runs at a time (``LoginThrottle.checking``), so a burst costs no more CPU than
the limits allow and a correct PIN arriving inside a burst waits like any other.
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Protocol

from fastapi import APIRouter, Depends, HTTPException, Request, Response, status
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.clock import Clock
from web_common.i18n import current
from web_common.sessions import COOKIE, SESSION_LIFETIME, Session, Sessions, cookie_name

__all__ = ["COOKIE", "SESSION_LIFETIME", "Auth", "LoginThrottle", "Session", "Sessions",
           "cookie_name", "delay_after", "log_in", "login_router", "require_referee"]

BASE_DELAY = 1.0
CAP_DELAY = 30.0
FORGET = 15 * 60.0
GLOBAL_BURST = 10
GLOBAL_INTERVAL = 5.0


@dataclass(frozen=True)
class _Failures:
    count: int
    last: float


class LoginThrottle:
    """Counts wrong PINs per client and says how long that client must wait."""

    def __init__(self, clock: Clock) -> None:
        self._clock = clock
        self._failures: dict[str, _Failures] = {}
        self._tokens = float(GLOBAL_BURST)
        self._refilled = clock.now()
        self.checking = asyncio.Lock()
        """Held while a PIN is hashed: one check at a time, whoever asks."""

    def wait_for(self, client: str) -> float:
        """Seconds ``client`` must still wait before a PIN is checked (0: go ahead)."""
        return max(self._client_wait(client), self._venue_wait())

    def _client_wait(self, client: str) -> float:
        f = self._failures.get(client)
        if f is None:
            return 0.0
        now = self._clock.now()
        if now - f.last >= FORGET:
            del self._failures[client]
            return 0.0
        return max(0.0, f.last + delay_after(f.count) - now)

    def _venue_wait(self) -> float:
        """Time until the venue-wide bucket holds a whole try again."""
        now = self._clock.now()
        self._tokens = min(
            float(GLOBAL_BURST), self._tokens + (now - self._refilled) / GLOBAL_INTERVAL
        )
        self._refilled = now
        return 0.0 if self._tokens >= 1.0 else (1.0 - self._tokens) * GLOBAL_INTERVAL

    def reserve(self, client: str) -> float:
        """Let one attempt through, or say how long to wait (0: go ahead, the PIN may be checked).

        A let-through attempt is recorded as a wrong PIN at once; :meth:`succeeded` takes it
        back. Nothing awaits between the look and the record, so concurrent requests cannot
        all pass the same look.
        """
        wait = self.wait_for(client)
        if wait > 0:
            return wait
        self.failed(client)
        return 0.0

    def failed(self, client: str) -> float:
        """Record a wrong PIN; return the delay now imposed on ``client``."""
        prev = self._failures.get(client)
        count = 1 if prev is None else prev.count + 1
        self._failures[client] = _Failures(count, self._clock.now())
        self._venue_wait()
        self._tokens = max(0.0, self._tokens - 1.0)
        return max(delay_after(count), self._venue_wait())

    def succeeded(self, client: str) -> None:
        """A correct PIN: forget the address's record and give back the reserved venue try."""
        self._failures.pop(client, None)
        self._venue_wait()
        self._tokens = min(float(GLOBAL_BURST), self._tokens + 1.0)


def delay_after(failures: int) -> float:
    """The wait imposed after ``failures`` wrong PINs in a row (capped)."""
    if failures <= 0:
        return 0.0
    return min(CAP_DELAY, BASE_DELAY * 2 ** min(failures - 1, 16))


class PinChecker(Protocol):
    def verify(self, pin: object) -> bool: ...


async def log_in(
    pin: str, request: Request, response: Response, *,
    pins: PinChecker, throttle: LoginThrottle, sessions: Sessions,
) -> dict[str, bool]:
    """Check ``pin`` behind the throttle and set the session cookie (board and hub alike).

    Raises 429 while the client (or the venue) must wait, 401 for a wrong PIN.
    """
    client = request.client.host if request.client else "unknown"
    wait = throttle.reserve(client)
    if wait > 0:
        seconds = math.ceil(wait)
        raise HTTPException(
            status_code=status.HTTP_429_TOO_MANY_REQUESTS,
            detail=current().gettext("too many wrong PINs: try again in {seconds} s").format(
                seconds=seconds),
            headers={"Retry-After": str(seconds)},
        )
    async with throttle.checking:
        right = await run_in_threadpool(pins.verify, pin)
    if not right:
        delay = math.ceil(throttle.wait_for(client))
        raise HTTPException(
            status_code=status.HTTP_401_UNAUTHORIZED,
            detail=current().gettext("wrong PIN: next try in {delay} s").format(delay=delay),
            headers={"Retry-After": str(delay)},
        )
    throttle.succeeded(client)
    session = sessions.open(request.url.port)
    response.set_cookie(
        cookie_name(request.url.port), session.token, max_age=int(SESSION_LIFETIME),
        httponly=True, samesite="strict", path="/",
    )
    return {"referee": True}


def session_of(request: Request, sessions: Sessions) -> Session | None:
    """The live session this request's cookie holds (the cookie of this server's port)."""
    port = request.url.port
    return sessions.get(request.cookies.get(cookie_name(port)), port)


class RefereeKind(StrEnum):
    """Whose session a login makes: the board's referee or the tournament hub's."""

    BOARD = "referee"
    HUB = "tournament referee"


@dataclass
class Auth:
    """What a login needs: the PIN, the sessions and the wrong-PIN throttle (board or hub)."""

    pins: PinChecker
    sessions: Sessions
    throttle: LoginThrottle
    who: RefereeKind = RefereeKind.BOARD
    """Who the session belongs to: the board's referee or the hub's (messages name them)."""

    @classmethod
    def create(cls, pins: PinChecker, clock: Clock, who: RefereeKind = RefereeKind.BOARD, *,
               wall: Clock | None = None) -> Auth:
        """``clock`` paces the throttle; sessions expire by ``wall`` (default ``clock``),
        since they outlive the process. Sessions are kept in the PIN's data directory and
        bound to the PIN in force when ``pins`` says which (``PinStore``)."""
        data_dir = getattr(pins, "data_dir", None)
        pin_hash = getattr(pins, "current_hash", None)
        return cls(pins, Sessions(wall or clock, data_dir, pin_hash), LoginThrottle(clock), who)


async def get_auth(request: Request) -> Auth:
    return request.app.state.auth  # type: ignore[no-any-return]


AuthDep = Annotated[Auth, Depends(get_auth)]


def require_referee(request: Request, auth: AuthDep) -> Session:
    """The referee's session from the cookie, or 401 (board and hub alike)."""
    session = session_of(request, auth.sessions)
    if session is None:
        raise HTTPException(
            status_code=status.HTTP_401_UNAUTHORIZED,
            detail=_session_required(auth.who),
        )
    return session


Referee = Annotated[Session, Depends(require_referee)]


def _session_required(who: RefereeKind) -> str:
    """The 401 of a change without a session, in the request's language (``web_common.i18n``)."""
    t = current()
    if who is RefereeKind.HUB:
        return t.gettext("tournament referee session required: log in with the PIN")
    return t.gettext("referee session required: log in with the PIN")


class LoginBody(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    pin: str = Field(min_length=1, max_length=64, description="The referee PIN.")


class RefereeAnswer(BaseModel):
    referee: bool = Field(description="True while this browser holds a referee session.")


def login_router() -> APIRouter:
    """``/api/referee/login``, ``/logout`` and ``/session`` on ``app.state.auth``."""
    from web_common.json_body import CheckedJSONRoute

    router = APIRouter(prefix="/api/referee", tags=["referee"], route_class=CheckedJSONRoute)

    @router.post("/login", summary="Exchange the PIN for a session cookie")
    async def login(body: LoginBody, request: Request, response: Response,
                    auth: AuthDep) -> RefereeAnswer:
        return RefereeAnswer(**await log_in(
            body.pin, request, response, pins=auth.pins, throttle=auth.throttle,
            sessions=auth.sessions))

    @router.post("/logout", summary="End the session")
    async def logout(request: Request, response: Response, auth: AuthDep) -> RefereeAnswer:
        name = cookie_name(request.url.port)
        auth.sessions.close(request.cookies.get(name))
        response.delete_cookie(name, path="/", httponly=True, samesite="strict")
        return RefereeAnswer(referee=False)

    @router.get("/session", summary="Is this browser logged in as the referee?")
    async def session(request: Request, auth: AuthDep) -> RefereeAnswer:
        return RefereeAnswer(referee=session_of(request, auth.sessions) is not None)

    return router
