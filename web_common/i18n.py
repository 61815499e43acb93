"""The languages people read: gettext catalogs, and which one a page, a socket or a command uses.

Words are written in English in the code (the msgids); ``web_common/locale/<code>.po`` holds one
catalog per language, read with Babel when first asked for, so a translator adds a language
by adding one file (docs/translating.md) and a fresh clone or an installed wheel needs no build
step. :class:`Language` is the translation object the pure word functions of
:mod:`scorekeeper.words` take: gettext, plurals and numbers by Babel, never by hand.

The choice (:func:`choose`): a page's ``?lang=``, then the browser's ``Accept-Language``, then
the configuration's ``language``; the TV and the tablet may differ, since each asks for itself.
"""

from __future__ import annotations

import contextvars
import functools
import io
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from babel import Locale
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from web_common.page_texts import translate_html

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
"""One catalog per language: ``<code>.po`` (package data, read at run time)."""

SOURCE = "en"
"""The language the msgids are written in (its catalog leaves every msgstr empty)."""

_CODE = re.compile(r"^[a-z]{2,3}(?:_[A-Z]{2})?$")


@functools.cache
def available() -> tuple[str, ...]:
    """The language codes with a catalog, the source language first (the folder is read
    once, as each catalog is: every request asks, and a new language needs a restart)."""
    codes = sorted(p.stem for p in LOCALE_DIR.glob("*.po") if _CODE.match(p.stem))
    return tuple(sorted(codes, key=lambda c: c != SOURCE))


@dataclass(frozen=True)
class Language:
    """One language's words: what :mod:`scorekeeper.words` and the pages are given."""

    code: str
    catalog: Catalog
    translations: Translations
    locale: Locale

    def gettext(self, message: str) -> str:
        return self.translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.translations.ngettext(singular, plural, n)

    def number(self, n: float) -> str:
        """``1234`` as this language writes it (``1,234`` / ``1.234``)."""
        return format_decimal(n, locale=self.locale)

    @property
    def name(self) -> str:
        """The language's own name, e.g. ``Deutsch``."""
        return str(self.locale.get_display_name(self.locale) or self.code).capitalize()

    def page_words(self) -> dict[str, Any]:
        """The catalog for page scripts: ``{"lang", "plural", "words"}``; ``words`` maps each
        msgid to its text (a plural entry to the list of forms), ``plural`` maps each CLDR
        plural category (what the browser's ``Intl.PluralRules`` says) to the form's index."""
        out: dict[str, Any] = {}
        for message in self.catalog:
            if not message.id:
                continue
            if isinstance(message.id, tuple):
                forms = [s for s in message.string] if any(message.string) else []
                out[message.id[0]] = forms or list(message.id)
            else:
                out[message.id] = message.string or message.id
        plural: dict[str, int] = {}
        for n in range(0, 200):
            category = self.locale.plural_form(n)
            if category not in plural:
                plural[category] = _plural_index(self.translations, n)
        return {"lang": self.code, "plural": plural, "words": out}

    def page_words_json(self) -> str:
        """:meth:`page_words` as JSON safe inside a ``<script>`` element."""
        return json.dumps(self.page_words(), ensure_ascii=False).replace("<", "\\u003c")


def _plural_index(translations: Translations, n: int) -> int:
    """Which plural form gettext picks for ``n`` (read through a probe entry)."""
    plural = getattr(translations, "plural", None)
    return int(plural(n)) if callable(plural) else (0 if n == 1 else 1)


@functools.cache
def language(code: str) -> Language:
    """The catalog for ``code`` (read once); ``LookupError`` when there is none."""
    if code not in available():
        raise LookupError(f"no catalog for language {code!r}; known: {', '.join(available())}")
    path = LOCALE_DIR / f"{code}.po"
    with path.open("rb") as f:
        catalog = read_po(f, locale=code, domain="messages")
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Language(code, catalog, Translations(buffer), Locale.parse(code))


def _tags(accept_language: str | None) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first."""
    weighted: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip().lower()
        if not tag or tag == "*":
            continue
        q = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                q = float(match.group(1))
            except ValueError:
                q = 0.0
        if q > 0:
            weighted.append((-q, i, tag))
    return [tag for _, _, tag in sorted(weighted)]


def choose(asked: str | None, accept_language: str | None, default: str) -> str:
    """The language to use: ``asked`` (``?lang=``) when there is a catalog for it, else the
    first of the browser's languages with one (``de-AT`` finds ``de``), else ``default``."""
    known = available()
    if asked and asked in known:
        return asked
    for tag in _tags(accept_language):
        code = tag.replace("-", "_")
        for candidate in (code[:2] + code[2:].upper(), code.split("_")[0]):
            if candidate in known:
                return candidate
    return default if default in known else SOURCE


def for_request(request: Any) -> Language:
    """The language of a page or API request (its ``lang`` query, its Accept-Language, the
    app's default ``app.state.language``)."""
    default = getattr(request.app.state, "language", SOURCE)
    return language(of_scope(request.scope, default))


_HTML_LANG = re.compile(r'<html lang="[^"]*">')
_FIRST_SCRIPT = re.compile(r"<script\b")


def page_in(source: str, lang: Language) -> str:
    """A page's HTML in ``lang``: its texts translated, ``<html lang>`` set, and the page's
    catalog (:meth:`Language.page_words`) before its first script, for ``t`` of ``words.js``."""
    page = translate_html(source, lang.gettext) if lang.code != SOURCE else source
    page = _HTML_LANG.sub(f'<html lang="{lang.code}">', page, count=1)
    words = (f'<script id="skitter-words" type="application/json">{lang.page_words_json()}'
             "</script>\n")
    match = _FIRST_SCRIPT.search(page)
    if match is None:
        return page.replace("</body>", words + "</body>", 1)
    return page[: match.start()] + words + page[match.start():]


CURRENT: contextvars.ContextVar[str] = contextvars.ContextVar("skitter_language", default=SOURCE)
"""The language of the request being answered (set by :class:`LanguageMiddleware`)."""


def current() -> Language:
    """The language of the request being answered."""
    return language(CURRENT.get())


def of_scope(scope: Mapping[str, Any], default: str) -> str:
    """The language an HTTP request or a WebSocket asks for (``lang`` in its query, else its
    Accept-Language header), else ``default``."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    asked = (query.get("lang") or [None])[0]
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    return choose(asked, accept, default)


class LanguageMiddleware:
    """Sets :data:`CURRENT` for each request and socket, so every answer that carries words
    (a state, a refusal) is in the language its page asked for."""

    def __init__(self, app: Any, default: Callable[[], str]) -> None:
        self.app = app
        self.default = default

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        token = CURRENT.set(of_scope(scope, self.default()))
        try:
            await self.app(scope, receive, send)
        finally:
            CURRENT.reset(token)
