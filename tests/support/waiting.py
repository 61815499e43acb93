"""Waiting ON something, never FOR a time: a condition asked again and again until it holds
or a deadline passes, and the failure names what was waited for.

Tests use these instead of fixed sleeps (a sleep long enough on an idle machine is too short
on a loaded one, and too long everywhere else). The short pause between two asks
(``every``) is the only fixed wait, and it only ever separates two asks of a condition.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

TIMEOUT = 10.0
"""Seconds a condition is waited on unless the caller says otherwise."""
EVERY = 0.01
"""Seconds between two asks of a condition."""

_between_asks = threading.Event()
"""Never set: waiting on it is the pause between two asks."""


def wait_until(condition: Callable[[], T], what: str, *, timeout: float = TIMEOUT,
               every: float = EVERY) -> T:
    """``condition()``'s first true value, asked every ``every`` s; ``AssertionError`` naming
    ``what`` after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        _between_asks.wait(every)


async def wait_until_async(condition: Callable[[], T | Awaitable[T]], what: str, *,
                           timeout: float = TIMEOUT, every: float = EVERY) -> T:
    """:func:`wait_until` inside an event loop: the loop runs on between two asks;
    ``condition`` may be a coroutine function."""
    deadline = time.monotonic() + timeout
    loop = asyncio.get_running_loop()
    while True:
        value = condition()
        if asyncio.iscoroutine(value) or isinstance(value, asyncio.Future):
            value = await value
        if value:
            return value  # type: ignore[return-value]
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        pause = loop.create_future()
        loop.call_later(every, pause.set_result, None)
        await pause


def wait_for_thread(thread: threading.Thread, what: str, *, timeout: float = TIMEOUT) -> None:
    """``thread`` has ended; ``AssertionError`` naming ``what`` after ``timeout`` seconds."""
    thread.join(timeout)
    if thread.is_alive():
        raise AssertionError(f"timed out after {timeout} s waiting for {what}")


async def turn_of_the_loop(turns: int = 1) -> None:
    """Let every task that is ready run, ``turns`` times over (no clock involved)."""
    loop = asyncio.get_running_loop()
    for _ in range(turns):
        turn = loop.create_future()
        loop.call_soon(turn.set_result, None)
        await turn
