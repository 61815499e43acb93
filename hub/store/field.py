"""The field's log: every change to who plays and whom they meet, numbered.

Its highest number is the tournament's version (``seq``): a referee's change to the field
carries the version its person saw, and a change made on an older picture is refused with
the words of what changed since (``hub.field_changes``). A late entry, a
drop, a swap, a round paired or the knockout started each add one row, with the referee's
reason, and rows are never rewritten; a player has dropped when a ``drop`` row names them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hub.said import MARK, Sentence, said_or
from hub.store.connection import (
    HubStoreError,
    StoreBase,
    dump_json,
    load_json,
    no_table,
)


@dataclass(frozen=True)
class FieldChange:
    """One change to the field, in words."""

    seq: int
    at: float
    kind: str
    """registered, withdrawn, paired, late_entry, dropped, swapped or knockout."""
    player: str | None
    round: int | None
    words: str
    """What changed, in a sentence a referee reads (English)."""
    reason: str
    said_as: dict[str, Any] | None = None
    """``words``' catalog entry and values (``Sentence.to_json``); None in a row an older
    hub wrote, which every language shows as written."""

    def said(self) -> str:
        """``words`` as a :class:`Sentence`, to be worded in any language."""
        return said_or(self.words, self.said_as)

    def to_json(self) -> dict[str, object]:
        return {"seq": self.seq, "at": self.at, "kind": self.kind, "player": self.player,
                "round": self.round, "words": self.words, "said": self.said_as,
                "reason": self.reason}


def _said(value: Any) -> dict[str, Any] | None:
    """A stored catalog entry, or None for one that is not (an older hub's row)."""
    return value if isinstance(value, dict) and isinstance(value.get("id"), str) else None


class FieldTables(StoreBase):
    """The field's log, drops, and the pairing rows a swap or a late entry rewrites."""

    def log_field_change(self, kind: str, words: str, *, at: float, reason: str = "",
                         player: str | None = None, round_number: int | None = None) -> int:
        """Keep one change (``words``: a :class:`Sentence` keeps its catalog entry too);
        returns the tournament's new version."""
        said = dump_json(words.to_json()) if isinstance(words, Sentence) else None
        with self._tx() as db:
            self._touch(tournament=True)
            cur = db.execute(
                "INSERT INTO field_changes (at, kind, player, round, words, reason, said)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (at, kind, player, round_number, str(words), reason, said))
            return int(cur.lastrowid or 0)

    def field_changes(self, since: int = 0) -> list[FieldChange]:
        rows = self._all("SELECT seq, at, kind, player, round, words, reason, said FROM"
                         " field_changes WHERE seq > ? ORDER BY seq", (since,))
        return [FieldChange(*r[:7], _said(load_json(r[7]))) for r in rows]

    def field_version(self) -> int:
        return int(self._all("SELECT COALESCE(MAX(seq), 0) FROM field_changes")[0][0])

    def dropped_players(self) -> list[str]:
        """Players who dropped out, in the order they left."""
        rows = self._all("SELECT player FROM field_changes WHERE kind = 'dropped'"
                         " ORDER BY seq")
        return [r[0] for r in rows]

    def set_pairing_players(self, round_number: int, table: int, black: str,
                            white: str | None) -> None:
        """Put other players on a table (a swap): the table's board stays."""
        with self._tx() as db:
            cur = db.execute("UPDATE pairings SET black = ?, white = ? WHERE round = ?"
                             " AND tbl = ?", (black, white, round_number, table))
            if cur.rowcount == 0:
                raise HubStoreError(no_table(table, round_number))
            self._touch(tournament=True, all_boards=True)

    def add_bye(self, round_number: int, player: str) -> int:
        """A bye for ``player`` in a round already paired (a late entry's credit for the
        round they missed): a new last table; returns its number."""
        with self._tx() as db:
            last = db.execute("SELECT MAX(tbl) FROM pairings WHERE round = ?",
                              (round_number,)).fetchone()[0]
            if last is None:
                raise HubStoreError(MARK.gettext("no tournament round {round}"),
                                    round=round_number)
            self._touch(tournament=True, all_boards=True)
            db.execute("INSERT INTO pairings (round, tbl, black, white, board)"
                       " VALUES (?, ?, ?, NULL, NULL)", (round_number, last + 1, player))
            return int(last) + 1
