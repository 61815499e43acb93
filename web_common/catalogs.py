"""Keeping the catalogs in step with the code: extraction with Babel, and the update.

Run ``python -m web_common.catalogs`` after changing words: it extracts every message from the
Python, JavaScript and HTML sources (:func:`extract`) and updates each
``web_common/locale/<code>.po``: new messages are added with an empty translation, messages no
longer used are dropped, so ``tests/api/test_catalogs.py`` then names what a translator still has to
fill in.

What is extracted: Python ``t.gettext("...")`` and ``t.ngettext("...", "...", n)`` (any object
named as you like, the method names count); JavaScript ``t("...")`` and ``nt("...", "...", n)``
(``web_common/static/words.js``, on the hub's pages too); a refusal's sentence (``because``,
``refused``, ``refuse``); HTML: the text of every element and its ``title``,
``placeholder``, ``aria-label`` and ``alt`` attributes
(``web_common.page_texts.extract_html``), which
``web_common.page_texts.translate_html`` replaces when a page is served.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from web_common.i18n import LOCALE_DIR, SOURCE, available

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("scorekeeper", "firmware_bridge", "tournament_wire", "web_common", "web", "hub",
           "skitter_cli")
KEYWORDS = {"gettext": None, "ngettext": (1, 2), "t": None, "nt": (1, 2),
            "because": None, "refused": (2,), "refuse": (3,), "N_": None,
            "N_plural": (1, 2)}
"""The refusals' sentences count too (``scorekeeper.errors.because``/``refused`` and the
rules' ``refuse``): a page says them in its language (``scorekeeper.words.refusal``). ``N_``
marks a message another module says (argparse's refusals, :mod:`skitter_cli.help_words`)."""
METHODS = [
    ("web/static/vendor/**", "ignore"),
    ("**/vendor/**", "ignore"),
    ("**.py", "python"),
    ("**.js", "javascript"),
    ("**.html", "web_common.page_texts:extract_html"),
]
Message = str | tuple[str, str]
HEADER = ("# skitter scorekeeper: the words people read, one catalog per language.\n"
          "# Translating: docs/translating.md. Update after code changes: "
          "python -m web_common.catalogs")


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
    """Bring ``web_common/locale/<code>.po`` in step with ``messages`` (kept translations stay);
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
