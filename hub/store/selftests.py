"""Each board's last self-test, as its retained ``selftest`` message said (already checked by
``hub.intake.selftest``). Kept in the file's ``meta`` table, one row per board,
so the schema stays as it is."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from hub.store.connection import StoreBase, dump_json

_KEY = "selftest:"


class SelfTestTables(StoreBase):
    """Boards' last self-tests."""

    def set_selftest(self, board: str, result: Mapping[str, Any], *, at: float) -> None:
        with self._tx() as db:
            self._touch(board)
            db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (_KEY + board, dump_json({**result, "received_at": at})),
            )

    def selftests(self) -> dict[str, dict[str, Any]]:
        """Board → its last self-test (``date``, ``passed``, ``summary``, ``failed``...)."""
        rows = self._all("SELECT key, value FROM meta WHERE key LIKE ?", (_KEY + "%",))
        out: dict[str, dict[str, Any]] = {}
        for key, value in rows:
            try:
                out[key[len(_KEY):]] = json.loads(value)
            except ValueError:
                continue
        return out
