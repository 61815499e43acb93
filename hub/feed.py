"""The tournament page's live feed: a full state once, then only what changed, versioned.

A 128-board tournament is ~100 kB as one JSON document, and most refreshes change one card.
So the page gets a ``full`` frame when it connects (or falls behind), then ``delta`` frames:
each names its ``version`` and the version it applies to (``after``) and carries only the
board cards and tournament parts that differ from what pages already have. A page whose
version is not the delta's ``after`` has missed a frame and asks for a full one again.

Each card and part is kept as its encoded JSON text: a frame, full or delta, is those texts
joined, built once and sent as the same text to every page.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


def encode(value: Any) -> str:
    """Compact JSON, as the broadcaster writes it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Frame:
    """One change of the feed: the delta to send, and the full state it leads to."""

    version: int
    delta: str
    full: str


class Feed:
    """The page's state as sent so far; :meth:`update` turns rebuilt parts into a frame."""

    def __init__(self) -> None:
        self.version = 0
        self._cards: dict[str, str] = {}
        self._parts: dict[str, str] = {}
        self._full = self._build_full()
        self._lock = threading.Lock()

    def update(self, cards: Mapping[str, Mapping[str, Any]],
               parts: Mapping[str, Any]) -> Frame | None:
        """Take freshly built ``cards`` (by board) and ``parts`` (by key); return the next
        version's frame with those that differ from what was sent, or None if none does."""
        new_cards = {b: encode(c) for b, c in cards.items()}
        new_parts = {k: encode(v) for k, v in parts.items()}
        with self._lock:
            changed_cards = {b: t for b, t in new_cards.items() if self._cards.get(b) != t}
            changed_parts = {k: t for k, t in new_parts.items() if self._parts.get(k) != t}
            if not changed_cards and not changed_parts:
                return None
            after = self.version
            self.version += 1
            self._cards.update(changed_cards)
            self._parts.update(changed_parts)
            self._full = self._build_full()
            head = f'{{"type":"delta","version":{self.version},"after":{after}'
            body = [head, ',"boards":[', ",".join(changed_cards[b] for b in sorted(changed_cards)),
                    "]"]
            body += [f",{encode(k)}:{t}" for k, t in changed_parts.items()]
            return Frame(self.version, "".join(body) + "}", self._full)

    def full(self) -> str:
        """The whole state at the current version (what a page starts from)."""
        with self._lock:
            return self._full

    def _build_full(self) -> str:
        body = [f'{{"type":"full","version":{self.version},"boards":[',
                ",".join(self._cards[b] for b in sorted(self._cards)), "]"]
        body += [f",{encode(k)}:{t}" for k, t in self._parts.items()]
        return "".join(body) + "}"
