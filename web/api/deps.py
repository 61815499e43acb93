"""Dependencies the routers ask for: the table and the referee's session.

``Referee`` is the typed dependency every change takes, declared in its signature: a
request without a live session cookie gets 401 before its handler runs. It, ``Auth`` and the
login routes live in :mod:`web_common.auth`, shared with the tournament hub.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from web.table.table import Table
from web_common.auth import Auth, AuthDep, Referee, require_referee

__all__ = ["Auth", "AuthDep", "Referee", "TableDep", "get_table", "require_referee"]


async def get_table(request: Request) -> Table:
    return request.app.state.table  # type: ignore[no-any-return]


TableDep = Annotated[Table, Depends(get_table)]
