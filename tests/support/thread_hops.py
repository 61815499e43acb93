"""What FastAPI hands to its thread pool before a request's handler runs: its plain (not
``async``) dependencies. Each one is a hop to a worker thread and back for every request that
uses it, on the Pi as much as here."""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator
from typing import Any

from fastapi import FastAPI
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute, APIWebSocketRoute
from starlette.routing import Mount


def _calls(dependant: Dependant) -> Iterator[Any]:
    for sub in dependant.dependencies:
        yield from _calls(sub)
        yield sub.call


def _routes(routes: Iterable[Any]) -> Iterator[APIRoute | APIWebSocketRoute]:
    """Every endpoint under ``routes``: FastAPI keeps an included router as one entry that
    holds the router (``original_router``), a mount holds its own ``routes``."""
    for route in routes:
        if isinstance(route, APIRoute | APIWebSocketRoute):
            yield route
        inner = getattr(route, "original_router", None) or route
        if inner is not route or isinstance(route, Mount):
            yield from _routes(getattr(inner, "routes", ()))


def threaded_dependencies(app: FastAPI) -> set[str]:
    """``"<function> (<method> <path>)"`` for each plain dependency a request to ``app``
    runs on a worker thread."""
    found: set[str] = set()
    for route in _routes(app.routes):
        where = f"{'/'.join(sorted(getattr(route, 'methods', None) or {'WS'}))} {route.path}"
        for call in _calls(route.dependant):
            if not (inspect.iscoroutinefunction(call) or inspect.isasyncgenfunction(call)):
                found.add(f"{getattr(call, '__qualname__', call)} ({where})")
    return found
