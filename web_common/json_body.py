"""JSON request bodies decoded by the scorekeeper's own parser, so that the API refuses what
the match log import and ``rules-check`` refuse, with the same words.

FastAPI decodes a body before any handler runs; a body nested a thousand levels deep made
its ``json.loads`` raise ``RecursionError``, which became a 400 naming nothing. With
:class:`CheckedJSONRoute` the body goes through :func:`scorekeeper.checks.decode_json`
(bounded depth, no NaN, UTF-8 only), and a refusal becomes FastAPI's own 422 ``json_invalid``
answer with the reason in ``ctx.error`` and nothing of the input echoed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import Request, Response
from fastapi.routing import APIRoute

from scorekeeper.checks import decode_json
from scorekeeper.errors import MalformedEventError


class CheckedJSONRequest(Request):
    """A request whose ``json()`` is :func:`decode_json`."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            try:
                self._json = decode_json(await self.body(), "body")
            except MalformedEventError as err:
                raise json.JSONDecodeError(str(err), "", 0) from None
        return self._json


class CheckedJSONRoute(APIRoute):
    """Give every route of a router :class:`CheckedJSONRequest` (``route_class=``)."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            return await handler(CheckedJSONRequest(request.scope, request.receive))

        return checked
