"""Keeping the catalogs in step with the code: extraction with Babel, and the update.

Run ``python -m web.catalogs`` after changing words: it extracts every message from the Python,
JavaScript and HTML sources (:func:`extract`) and updates each ``web/locale/<code>.po``: new
messages are added with an empty translation, messages no longer used are dropped, so
``tests/api/test_catalogs.py`` then names what a translator still has to fill in.

What is extracted: Python ``t.gettext("...")`` and ``t.ngettext("...", "...", n)`` (any object
named as you like, the method names count); JavaScript ``t("...")`` and ``nt("...", "...", n)``
(``web/static/words.js``; ``Common.t`` on the hub); a refusal's sentence (``because``,
``refused``, ``refuse``); HTML: the text of every element and its ``title``,
``placeholder``, ``aria-label`` and ``alt`` attributes (:func:`extract_html`), which
:func:`translate_html` replaces when a page is served.
"""

from __future__ import annotations

import html
import io
import re
import sys
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from web.i18n import LOCALE_DIR, SOURCE, available

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("scorekeeper", "firmware_bridge", "web")
KEYWORDS = {"gettext": None, "ngettext": (1, 2), "t": None, "nt": (1, 2),
            "because": None, "refused": (2,), "refuse": (3,), "N_": None,
            "N_plural": (1, 2)}
"""The refusals' sentences count too (``scorekeeper.errors.because``/``refused`` and the
rules' ``refuse``): a page says them in its language (``scorekeeper.words.refusal``). ``N_``
marks a message another module says (argparse's refusals, :mod:`web.cli.help_words`)."""
METHODS = [
    ("web/static/vendor/**", "ignore"),
    ("**/vendor/**", "ignore"),
    ("**.py", "python"),
    ("**.js", "javascript"),
    ("**.html", "web.catalogs:extract_html"),
]
ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
_SKIPPED = ("script", "style")
_WORDY = re.compile(r"[A-Za-z]")

Message = str | tuple[str, str]
HEADER = ("# skitter scorekeeper: the words people read, one catalog per language.\n"
          "# Translating: docs/translating.md. Update after code changes: python -m web.catalogs")


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
    """Babel extraction method for the pages (``web.catalogs:extract_html``)."""
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


def extract() -> dict[Message, list[tuple[str, int]]]:
    """Every message in the sources with where it is used: a singular msgid, or a
    ``(singular, plural)`` pair."""
    out: dict[Message, list[tuple[str, int]]] = {}
    for top in SOURCES:
        for filename, lineno, message, _comments, _context in extract_from_dir(
                ROOT / top, METHODS, keywords=KEYWORDS, strip_comment_tags=True):
            key: Message = message if isinstance(message, str) else (message[0], message[1])
            if isinstance(key, tuple) and not all(key):
                continue
            out.setdefault(key, []).append((f"{top}/{filename}", lineno))
    return out


def _msgid(message: Message) -> str:
    return message if isinstance(message, str) else message[0]


def update(code: str, messages: dict[Message, list[tuple[str, int]]]) -> tuple[int, int]:
    """Bring ``web/locale/<code>.po`` in step with ``messages`` (kept translations stay);
    returns (added, dropped)."""
    path = LOCALE_DIR / f"{code}.po"
    old = Catalog(locale=code)
    if path.exists():
        with path.open("rb") as f:
            old = read_po(f, locale=code)
    new = Catalog(
        locale=code, project="skitter scorekeeper", version="", fuzzy=False,
        copyright_holder="the skitter scorekeeper authors", msgid_bugs_address="",
        header_comment=HEADER, last_translator=old.last_translator,
        language_team=old.language_team if path.exists() else "",
        creation_date=old.creation_date if path.exists() else None,
        revision_date=old.revision_date if path.exists() else None,
    )
    added = 0
    for message, locations in sorted(messages.items(), key=lambda kv: _msgid(kv[0])):
        before = old.get(_msgid(message))
        string: Any = before.string if before is not None else ("" if isinstance(
            message, str) else ("", ""))
        if before is None:
            added += 1
        if isinstance(message, tuple) and isinstance(string, str):
            string = (string, string)
        new.add(message, string if code != SOURCE else ("" if isinstance(message, str)
                                                       else ("", "")),
                locations=sorted(set(locations)))
    dropped = sum(1 for m in old if m.id and _msgid(m.id) not in {_msgid(k) for k in messages})
    buffer = io.BytesIO()
    write_po(buffer, new, width=100, omit_header=False, sort_output=True)
    path.write_bytes(buffer.getvalue())
    return added, dropped


def main(argv: list[str] | None = None) -> int:
    messages = extract()
    for code in available() or (SOURCE,):
        added, dropped = update(code, messages)
        print(f"{code}.po: {len(messages)} messages, {added} new, {dropped} dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
