"""The texts of a page's HTML: found for the catalogs, and translated for a reader.

A text is the text of an element (never inside ``script`` or ``style``) or one of its
:data:`ATTRIBUTES`, when it holds a letter. Babel calls :func:`extract_html` for every
``.html`` source (``web_common.catalogs``); :func:`translate_html` replaces each such text by its
translation when a page is served (``web_common.i18n.page_in``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from typing import Any

ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
_SKIPPED = ("script", "style")
_WORDY = re.compile(r"[A-Za-z]")


def _is_words(text: str) -> bool:
    return bool(_WORDY.search(text))


class _Texts(HTMLParser):
    """Walks a page and calls ``found(text)`` for each text node and attribute to translate;
    ``found`` returns what to put there instead (or None to keep it)."""

    def __init__(self, found: Callable[[str], str | None]) -> None:
        super().__init__(convert_charrefs=False)
        self.found = found
        self.out: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        raw = self.get_starttag_text() or ""
        for name, value in attrs:
            if name in ATTRIBUTES and value and _is_words(value):
                new = self.found(" ".join(value.split()))
                if new is not None:
                    raw = re.sub(rf'({re.escape(name)}\s*=\s*)(["\']).*?\2',
                                 lambda m, new=new: f'{m.group(1)}"{html.escape(new)}"', raw,
                                 count=1, flags=re.S)
        self.out.append(raw)
        if tag in _SKIPPED:
            self.skip += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag in _SKIPPED:
            self.skip -= 1

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skip = max(0, self.skip - 1)
        self.out.append(f"</{tag}>")

    def handle_data(self, data: str) -> None:
        text = " ".join(html.unescape(data).split())
        if self.skip or not _is_words(text):
            self.out.append(data)
            return
        new = self.found(text)
        if new is None:
            self.out.append(data)
            return
        lead = data[: len(data) - len(data.lstrip())]
        trail = data[len(data.rstrip()):]
        self.out.append(lead + html.escape(new, quote=False) + trail)

    def handle_entityref(self, name: str) -> None:
        self.out.append(f"&{name};")

    def handle_charref(self, name: str) -> None:
        self.out.append(f"&#{name};")

    def handle_comment(self, data: str) -> None:
        self.out.append(f"<!--{data}-->")

    def handle_decl(self, decl: str) -> None:
        self.out.append(f"<!{decl}>")

    def handle_pi(self, data: str) -> None:
        self.out.append(f"<?{data}>")

    def unknown_decl(self, data: str) -> None:
        self.out.append(f"<![{data}]>")


def _joined(text: str) -> str:
    """Entities in text nodes arrive apart (``convert_charrefs=False``): put them back."""
    return text


def extract_html(fileobj: Any, keywords: Any, comment_tags: Any,
                 options: Any) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """Babel extraction method for the pages (``web_common.catalogs:extract_html``)."""
    source = fileobj.read().decode("utf-8")
    found: list[str] = []
    parser = _Texts(lambda text: found.append(text) or None)
    parser.feed(_entities_as_text(source))
    parser.close()
    for text in found:
        yield 1, None, text, []


def _entities_as_text(source: str) -> str:
    """Pages are translated with entities spelled out, so one text is one node."""
    def keep(match: re.Match[str]) -> str:
        char = html.unescape(match.group(0))
        return match.group(0) if char in "<>&\"'" else char
    return re.sub(r"&#?\w+;", keep, source)


def translate_html(source: str, gettext: Callable[[str], str]) -> str:
    """A page with every text node and attribute that is a message replaced by its
    translation (the page's own markup otherwise untouched)."""
    def found(text: str) -> str | None:
        new = gettext(text)
        return None if new == text else new
    parser = _Texts(found)
    parser.feed(_entities_as_text(source))
    parser.close()
    return "".join(parser.out)


