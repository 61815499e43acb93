"""The caller of one board: which language, whether the room is muted, and the latest line.

Settings start from the configuration (``caller_language``) and are changed from the tablet;
they last until the program stops. Each change bumps ``version`` so that a tablet acting on
an old view gets 409 instead of silently undoing what another tablet just set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from web.caller.sentences import LANGUAGES, Line, sentence
from web.caller.speech import Speech, SpeechError
from web.table.table import Table


class CallerStale(Exception):
    """A settings change made against an older view of the caller (HTTP 409)."""


@dataclass
class Caller:
    """The caller's settings and its speech."""

    speech: Speech
    language: str = LANGUAGES[0]
    muted: bool = False
    version: int = 0
    last_error: str | None = None

    def status(self) -> dict[str, Any]:
        """What the tablet shows: on or silent, and why."""
        missing = self.speech.unavailable()
        silent = missing or ("the caller is muted from the tablet" if self.muted else None) \
            or self.last_error
        return {"version": self.version, "language": self.language, "languages": LANGUAGES,
                "muted": self.muted, "available": missing is None, "silent": silent}

    def change(self, version: int, *, language: str | None, muted: bool | None) -> None:
        """Set the language and/or mute; :class:`CallerStale` when ``version`` is old,
        ``ValueError`` for an unknown language (nothing changes then)."""
        if version != self.version:
            raise CallerStale(f"the caller's settings changed since version {version} "
                              f"(now {self.version}); look again and retry")
        if language is not None and language not in LANGUAGES:
            raise ValueError(f"language: expected one of {', '.join(LANGUAGES)}, "
                             f"got {language!r}")
        if language is not None:
            self.language = language
        if muted is not None:
            self.muted = muted
        self.version += 1

    def line_for(self, table: Table) -> tuple[int, Line] | None:
        """The newest step of the match being played and what to say about it."""
        if not table.log.entries:
            return None
        entry = table.log.tail(1)[0]
        return entry["seq"], sentence(entry, table.match.state.to_json(), table.names,
                                      self.language)

    async def latest(self, table: Table) -> dict[str, Any]:
        """The newest line with its audio address (None while silent, with the reason)."""
        found = self.line_for(table)
        out: dict[str, Any] = {"match_id": table.match_id, "seq": None, "text": None,
                               "language": self.language, "audio": None, "silent": None}
        if found is None:
            return out
        seq, line = found
        out.update(seq=seq, text=line.text, language=line.language)
        reason = self.speech.unavailable() or (
            "the caller is muted from the tablet" if self.muted else None)
        if reason is None:
            try:
                key = await self.speech.render(line.text, line.language)
                out["audio"] = f"/caller/audio/{key}.wav"
                self.last_error = None
            except SpeechError as exc:
                reason = self.last_error = f"the caller is silent: {exc}"
        out["silent"] = reason
        return out
