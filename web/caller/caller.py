"""The caller of one board: which language, whether the room is muted, and the latest line.

Settings start from the configuration (``caller_language``) and are changed from the tablet;
they last until the program stops. Each change bumps ``version`` so that a tablet acting on
an old view gets 409 instead of silently undoing what another tablet just set.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.words import ENGLISH, Words
from web.caller.sentences import LANGUAGES, Line, next_game, sentence
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

    def change(self, version: int, *, language: str | None, muted: bool | None,
               t: Words = ENGLISH) -> None:
        """Set the language and/or mute; :class:`CallerStale` when ``version`` is old,
        ``ValueError`` for an unknown language (nothing changes then); their messages in the
        language ``t`` (the tablet's)."""
        if version != self.version:
            raise CallerStale(t.gettext(
                "the caller's settings changed since version {version} (now {now}); look "
                "again and retry").format(version=version, now=self.version))
        if language is not None and language not in LANGUAGES:
            raise ValueError(t.gettext("language: expected one of {known}, got {got}").format(
                known=", ".join(LANGUAGES), got=repr(language)))
        if language is not None:
            self.language = language
        if muted is not None:
            self.muted = muted
        self.version += 1

    def line_for(self, table: Table) -> tuple[int, Line] | None:
        """The newest step of the match being played and what to say about it."""
        now = table.committed  # as stored, never a step still waiting on the disk
        if not now.log.entries:
            return None
        entry = now.log.entries[-1]
        return entry.seq, sentence(entry.event, entry.effects, now.log.match.state, now.names,
                                   self.language)

    async def latest(self, table: Table) -> dict[str, Any]:
        """The newest line with its audio address (None while silent, with the reason)."""
        found = self.line_for(table)
        out: dict[str, Any] = {"match_id": table.match_id, "seq": None, "text": None,
                               "language": self.language, "audio": None, "silent": None,
                               "next": None}
        offered = table.offered
        if offered is not None:  # the board waits for its next tournament game
            line = next_game(offered.to_json(), self.language)
            audio, out["silent"] = await self._audio(line)
            out["next"] = {"id": offered.id, "text": line.text, "audio": audio}
        if found is None:
            return out
        seq, line = found
        out.update(seq=seq, text=line.text, language=line.language)
        out["audio"], out["silent"] = await self._audio(line)
        return out

    async def _audio(self, line: Line) -> tuple[str | None, str | None]:
        """The address of ``line`` spoken, or None and why the caller is silent."""
        reason = self.speech.unavailable() or (
            "the caller is muted from the tablet" if self.muted else None)
        if reason is not None:
            return None, reason
        try:
            key = await self.speech.render(line.text, line.language)
        except SpeechError as exc:
            self.last_error = f"the caller is silent: {exc}"
            return None, self.last_error
        self.last_error = None
        return f"/caller/audio/{key}.wav", None
