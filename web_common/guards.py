"""What every request meets before FastAPI parses it, on the board and on the hub alike.

A board is a 1 GB Pi on a venue network, so a request is judged by its size and its shape
before anything is built from it:

- :class:`BodyGuard` reads the body with a cap (``MAX_BODY``) and answers 413 as soon as the
  ``Content-Length`` or the bytes received pass it, so an oversized body never sits in
  memory. A JSON body that is not UTF-8, nests deeper than the step parser allows or holds a lone
  surrogate (``"\\ud800"``, which cannot be stored or sent) gets 422 naming the problem.
- :class:`OriginGuard` refuses a state-changing request (POST, PUT, PATCH, DELETE) that a
  browser sent from another page's origin: SameSite cookies ignore the port, so a page on
  another port of the same host could otherwise post with the referee's cookie. Browsers
  always send ``Origin`` on such requests; a request without it comes from a program (curl,
  a script, the tests), which must hold the session cookie anyway, so it passes unless its
  ``Sec-Fetch-Site`` header says a browser sent it from elsewhere.
- :class:`FrameGuard` tells browsers never to show a page in a frame
  (``X-Frame-Options: DENY``, CSP ``frame-ancestors 'none'``), on every answer but the
  stream overlays' pages (:data:`FRAMEABLE`).
- :func:`validation_error` answers a body FastAPI refuses with the field and the problem
  only: FastAPI's own answer repeats the input, which turned a 100 MB body into a 104 MB
  answer.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from scorekeeper.checks import MAX_DEPTH, JsonProblem, MalformedJsonError, decode_json
from web_common.i18n import current
from web_common.validation_words import validation_message

MAX_BODY = 8 * 1024
"""Bytes a request body may hold (the largest real one, a new match, is under 1 kB)."""
MAX_MESSAGE = 200
"""Characters of a validation message kept in an answer."""
CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


async def _send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    data = json.dumps(body).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(data)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": data})


def _problem(status: int, msg: str, kind: str) -> tuple[int, dict[str, Any]]:
    return status, {"detail": [{"loc": ["body"], "msg": msg, "type": kind}], "field": "body"}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return None


class BodyGuard:
    """Pure ASGI middleware: 413 over ``limit`` bytes, 422 for JSON that cannot be used."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = _problem(413, current().gettext(
            "the request body is larger than {limit} bytes").format(limit=self.limit),
            "too_large")
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await _send_json(send, *too_big)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            size += len(message.get("body", b""))
            if size > self.limit:
                await _send_json(send, *too_big)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        refused = _json_problem(body, _header(scope, b"content-type"))
        if refused is not None:
            await _send_json(send, *_problem(422, *refused))
            return
        whole: Message = {"type": "http.request", "body": body, "more_body": False}
        await self.app(scope, _replay([whole], receive), send)


def _replay(messages: list[Message], receive: Receive) -> Receive:
    """A ``receive`` giving ``messages`` first, then the server's (a disconnect, say)."""
    pending = list(messages)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay


def _json_problem(body: bytes, content_type: str | None) -> tuple[str, str] | None:
    """(message, type) when a JSON body cannot be used; None to let the routes judge it.

    Decoding, the UTF-8 check, the depth limit, the integer range and the refusal of lone
    surrogates are the step parser's own (:func:`scorekeeper.checks.decode_json`), so the
    API, the log import and the hub's intake refuse alike."""
    if not body or (content_type is not None and "json" not in content_type.lower()):
        return None
    try:
        decode_json(body, "body")
    except MalformedJsonError as exc:
        if exc.problem is JsonProblem.NOT_JSON:
            return None  # not JSON: the route names the JSON error itself
        if exc.problem is JsonProblem.TOO_DEEP:
            return f"the body nests deeper than {MAX_DEPTH} levels", str(exc.problem)
        return str(exc), str(exc.problem)
    return None


class OriginGuard:
    """Pure ASGI middleware: a browser's change from another origin gets 403."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = frozenset(o.rstrip("/").lower() for o in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in CHANGING and not self._permits(scope):
            await _send_json(send, 403, {"detail": current().gettext(
                "refused: the request came from a page of another site or port; only this "
                "scorekeeper's own pages (or origins named in allowed_origins) may change it")})
            return
        await self.app(scope, receive, send)

    def _permits(self, scope: Scope) -> bool:
        origin = _header(scope, b"origin")
        if origin is None:
            fetch_site = _header(scope, b"sec-fetch-site")
            return fetch_site in (None, "same-origin", "none")
        origin = origin.rstrip("/").lower()
        if origin in self.allowed:
            return True
        host = _header(scope, b"host")
        if host is None or "://" not in origin:
            return False
        return origin.split("://", 1)[1] == host.lower()


FRAME_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
)
"""No page may be framed, not even by another page of the same host: one click on a framed
tablet could otherwise score a step (clickjacking). The pages frame nothing themselves."""
FRAMEABLE = frozenset({"/overlay", "/overlay/standings"})
"""The stream overlays' pages (the board's and the hub's), fetched with GET: a streaming tool
may lay them over its picture in a frame. They are read-only, with nothing to click and no
link to follow, so a frame around them has nothing to trick anyone into; their scripts and
every other answer keep the headers."""


class FrameGuard:
    """Pure ASGI middleware: every answer says it must not be shown inside a frame."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or (
                scope.get("method") in ("GET", "HEAD") and scope.get("path") in FRAMEABLE):
            await self.app(scope, receive, send)
            return

        async def framed(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", ())}
                extra = [(k, v) for k, v in FRAME_HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, framed)


async def validation_error(request: Request, exc: Exception) -> JSONResponse:
    """FastAPI's 422 with the field and the problem only: never the input."""
    assert isinstance(exc, RequestValidationError)
    errors = [_described(e) for e in exc.errors()[:10]]
    names = [p for p in errors[0]["loc"][1:] if isinstance(p, str)] if errors else []
    return JSONResponse({"detail": errors, "field": ".".join(names) or "body"},
                        status_code=422)


def _described(error: Any) -> dict[str, Any]:
    """One error as ``loc``, ``msg`` and ``type``: pydantic's ``input`` and ``ctx`` dropped,
    the ``msg`` in the request's language (:mod:`web_common.validation_words`); a broken JSON
    body says where it broke, never what it held."""
    msg = validation_message(error, current())
    return {"loc": list(error.get("loc", ())), "msg": msg[:MAX_MESSAGE],
            "type": str(error.get("type", ""))}


def install_guards(app: FastAPI, allowed_origins: Iterable[str] = ()) -> None:
    """The guards above, for the board's app and the hub's (outermost: the frame headers,
    so even a refusal by the size cap carries them)."""
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_middleware(OriginGuard, allowed=tuple(allowed_origins))
    app.add_middleware(BodyGuard)
    app.add_middleware(FrameGuard)
