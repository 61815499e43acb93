"""Every message in the code has its entry in every catalog, and no catalog keeps a dead one.

The messages are extracted with Babel from the Python, JavaScript and HTML sources
(``web_common.catalogs.extract``), as ``python -m web_common.catalogs`` does when it updates
the catalogs.
"""

from __future__ import annotations

import pytest
from babel.messages.pofile import read_po

from web_common.catalogs import extract
from web_common.i18n import LOCALE_DIR, SOURCE, available


def _entries(code: str) -> dict[str, object]:
    with (LOCALE_DIR / f"{code}.po").open("rb") as f:
        catalog = read_po(f, locale=code)
    return {m.id if isinstance(m.id, str) else m.id[0]: m.string for m in catalog if m.id}


@pytest.fixture(scope="module")
def messages() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for message, where in extract().items():
        key = message if isinstance(message, str) else message[0]
        out.setdefault(key, []).extend(f"{path}:{line}" for path, line in where)
    return out


@pytest.mark.parametrize("code", available())
def test_every_message_has_an_entry(code: str, messages: dict[str, list[str]]):
    entries = _entries(code)
    missing = [f"{m!r} (used in {', '.join(sorted(set(w))[:3])})"
               for m, w in sorted(messages.items()) if m not in entries]
    assert not missing, (
        f"web_common/locale/{code}.po has no entry for {len(missing)} message(s); run "
        "`python -m web_common.catalogs` and translate them:\n  " + "\n  ".join(missing))


@pytest.mark.parametrize("code", [c for c in available() if c != SOURCE])
def test_every_entry_is_translated(code: str, messages: dict[str, list[str]]):
    entries = _entries(code)
    empty = [f"{m!r} (used in {', '.join(sorted(set(messages[m]))[:3])})"
             for m, s in sorted(entries.items()) if m in messages
             and not (s if isinstance(s, str) else all(s))]
    assert not empty, (f"web_common/locale/{code}.po leaves {len(empty)} message(s) "
                       "untranslated:\n  " + "\n  ".join(empty))


@pytest.mark.parametrize("code", available())
def test_no_entry_is_unused(code: str, messages: dict[str, list[str]]):
    unused = sorted(m for m in _entries(code) if m not in messages)
    assert not unused, (f"web_common/locale/{code}.po keeps {len(unused)} message(s) no code uses "
                        "(run `python -m web_common.catalogs` to drop them):\n  "
                        + "\n  ".join(map(repr, unused)))


def test_placeholders_survive_the_translation(messages: dict[str, list[str]]):
    import re

    def holes(text: str) -> list[str]:
        """Its {name} placeholders, and the %-placeholders of argparse's messages (which
        argparse fills in, in their order for the bare ones)."""
        named = sorted(re.findall(r"\{(\w+)\}|(%\(\w+\)[sr])", text))
        return named + re.findall(r"%[sr]", re.sub(r"%\(\w+\)[sr]", "", text))

    wrong = []
    for code in available():
        for m, s in _entries(code).items():
            for form in ([s] if isinstance(s, str) else list(s)):
                if form and holes(form) != holes(m):
                    wrong.append(f"{code}: {m!r} -> {form!r}")
    assert not wrong, "translations must keep every {placeholder} and %s:\n  " + "\n  ".join(wrong)


def test_every_page_script_message_is_extracted(messages: dict[str, list[str]]):
    """Babel takes no message from a call nested in another's arguments: a page script that
    nests one would show it untranslated. Every ``t("...")`` and ``nt("...", ...)`` literal of
    the board's and the hub's page scripts is extracted."""
    import re

    from web_common.catalogs import ROOT

    call = re.compile(r'(?<![\w.$])n?t\(\s*"((?:[^"\\]|\\.)*)"\s*[,)]')
    lost = []
    for path in sorted([*(ROOT / "web").rglob("*.js"), *(ROOT / "hub").rglob("*.js")]):
        if "vendor" in path.parts:
            continue
        for text in call.findall(path.read_text(encoding="utf-8")):
            if text.encode().decode("unicode_escape") not in messages and text not in messages:
                lost.append(f"{path.relative_to(ROOT)}: {text!r}")
    assert not lost, "messages Babel does not extract (hoist them out of the enclosing " \
        "call):\n  " + "\n  ".join(lost)
