"""Speech made offline with Debian's ``espeak-ng``: one small WAV file per sentence.

Rendering runs as a subprocess awaited on the event loop (never blocking it, so sensing goes
on while a sentence is made), with a timeout, one at a time (a Pi has few cores). A sentence
is rendered once per language and kept in a cache folder that never holds more than
``max_files`` files (the oldest used go first). Without ``espeak-ng`` nothing is rendered and
:meth:`Speech.unavailable` says why; the scoreboard does not depend on it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import shutil
from pathlib import Path

VOICES = {"en": "en", "de": "de"}
"""espeak-ng voice for each caller language."""
WORDS_PER_MINUTE = 165
KEY = re.compile(r"^[0-9a-f]{32}$")
"""What a cached file's name (before ``.wav``) looks like; anything else is not ours."""


class SpeechError(Exception):
    """A sentence could not be rendered (the message says why, in plain words)."""


def cache_key(text: str, language: str) -> str:
    """The cache file's name for ``text`` in ``language``."""
    return hashlib.sha256(f"{language}\n{text}".encode()).hexdigest()[:32]


class Speech:
    """Renders sentences to WAV files with espeak-ng and keeps them in ``cache_dir``."""

    def __init__(self, cache_dir: Path, *, binary: str = "espeak-ng", max_files: int = 200,
                 timeout: float = 10.0) -> None:
        self.cache_dir = Path(cache_dir)
        self.binary = binary
        self.max_files = max_files
        self.timeout = timeout
        self._one_at_a_time = asyncio.Lock()

    def executable(self) -> str | None:
        """The espeak-ng program's path, or None when it is not installed."""
        return shutil.which(self.binary)

    def unavailable(self) -> str | None:
        """Why nothing can be said, or None when speech works."""
        if self.executable() is None:
            return (f"the caller is silent: {self.binary} is not installed on this computer "
                    "(sudo apt install espeak-ng)")
        return None

    def path_of(self, key: str) -> Path | None:
        """The cached file named ``key`` (checked to be a cache name), if it is there."""
        if not KEY.match(key):
            return None
        path = self.cache_dir / f"{key}.wav"
        return path if path.is_file() else None

    async def render(self, text: str, language: str) -> str:
        """The cache key of ``text`` spoken in ``language``, rendering it when not cached."""
        voice = VOICES.get(language)
        if voice is None:
            raise SpeechError(f"no voice for language {language!r}")
        key = cache_key(text, language)
        async with self._one_at_a_time:
            path = self.cache_dir / f"{key}.wav"
            if path.is_file() and path.stat().st_size > 44:
                os.utime(path)  # recently used: kept longest
                return key
            program = self.executable()
            if program is None:
                raise SpeechError(self.unavailable() or "no speech program")
            self.cache_dir.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(".part")
            await self._run(program, voice, text, partial)
            os.replace(partial, path)
            self._prune()
        return key

    async def _run(self, program: str, voice: str, text: str, out: Path) -> None:
        try:
            proc = await asyncio.create_subprocess_exec(
                program, "-v", voice, "-s", str(WORDS_PER_MINUTE), "-w", str(out), "--", text,
                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
            )
        except OSError as exc:
            raise SpeechError(f"cannot start {program}: {exc.strerror}") from exc
        try:
            _, err = await asyncio.wait_for(proc.communicate(), self.timeout)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()
            out.unlink(missing_ok=True)
            raise SpeechError(f"{program} took longer than {self.timeout:g} s") from None
        if proc.returncode != 0 or not out.is_file() or out.stat().st_size <= 44:
            out.unlink(missing_ok=True)
            detail = err.decode(errors="replace").strip()[:200] if err else ""
            raise SpeechError(f"{program} failed (exit {proc.returncode}) {detail}".strip())

    def _prune(self) -> None:
        """Keep at most ``max_files`` sentences: the least recently used go."""
        files = sorted(self.cache_dir.glob("*.wav"), key=lambda p: p.stat().st_mtime)
        for old in files[: max(0, len(files) - self.max_files)]:
            old.unlink(missing_ok=True)
