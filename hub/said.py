"""Sentences the hub makes for people: each the English text, and its catalog entry.

The hub builds one view for all its pages (``hub.feed`` sends it to each), so
a sentence in it cannot be in one page's language. Each carries its English ``message`` (for
logs, printouts and tests) and ``words``: the catalog's key and its arguments, which the page
words with ``t`` / ``nt`` of ``words.js`` (``hub-words.js``: ``said``). :data:`MARK` marks the
keys for ``python -m web_common.catalogs``, which extracts ``gettext`` and ``ngettext`` calls.

A refusal (:class:`Refusal`: every ``TournamentError``) keeps its sentences the same way, so
``str(error)`` stays the English sentence while the API's ``detail`` is worded in the
request's language (:func:`detail`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.errors import Field, Fields, Player, Why
from scorekeeper.words import ENGLISH, Words


class _Marked:
    """Hands a sentence back unchanged: the page, not the hub, translates it."""

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> tuple[str, str]:
        return (singular, plural)


MARK = _Marked()


class Sentence(str):
    """The English sentence (the ``str`` itself, so it reads, joins and compares as the text
    always did) that knows its catalog entry and values, to be worded again in another
    language (:meth:`worded`). A value may be a sentence itself, or a list of them (joined
    with ``"; "``)."""

    id: str
    args: Mapping[str, Any]
    plural: str | None
    n: int | None

    def __new__(cls, message: str | tuple[str, str], /, n: int | None = None,
                **args: Any) -> Sentence:
        singular, plural = (message, None) if isinstance(message, str) else message
        if plural is None and n is not None:  # a sentence's value called n, not a count
            args, n = {**args, "n": n}, None
        text = _fill(_pick(ENGLISH, singular, plural, n), n, args, ENGLISH)
        self = super().__new__(cls, text)
        self.id, self.plural, self.n, self.args = singular, plural, n, dict(args)
        return self

    def worded(self, t: Words) -> str:
        """The sentence in the language ``t`` (its values worded there too)."""
        return _fill(_pick(t, self.id, self.plural, self.n), self.n, self.args, t)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Sentence:
        """The sentence :meth:`to_json` gave (as the hub's file keeps it)."""
        args = {k: cls.from_json(v) if isinstance(v, Mapping) and "id" in v else v
                for k, v in (data.get("args") or {}).items()}
        plural = data.get("plural")
        if plural is None:  # a value called n is one of its args
            return cls(str(data["id"]), **args)
        return cls((str(data["id"]), str(plural)), n=data.get("n"), **args)

    def to_json(self) -> dict[str, Any]:
        """What a page words with ``t`` / ``nt`` of ``words.js`` (``hub-words.js``: ``said``)."""
        args = {k: v.to_json() if isinstance(v, Sentence) else worded(v, ENGLISH)
                if isinstance(v, list | tuple) else v for k, v in self.args.items()}
        if self.plural is None:
            return {"id": self.id, "args": args}
        return {"id": self.id, "plural": self.plural, "n": self.n, "args": args}


def _pick(t: Words, singular: str, plural: str | None, n: int | None) -> str:
    if not singular:
        return ""
    if plural is None:
        return t.gettext(singular)
    return t.ngettext(singular, plural, n if n is not None else 0)


def _fill(template: str, n: int | None, args: Mapping[str, Any], t: Words) -> str:
    if not args and n is None:
        return template
    values = {k: worded(v, t) for k, v in args.items()}
    return template.format(**values, **({} if n is None else {"n": n}))


def why_said(why: Why, names: Mapping[str, str]) -> Sentence:
    """A refusal of the rules engine (its :class:`Why`) as a hub sentence in the players'
    names, so every page words it in its own language from the same catalog entries the
    boards use (``scorekeeper.words.reason_words``); the rulings in brackets."""
    reason = Sentence(why.template, **{k: _why_value(v, names) for k, v in why.values.items()})
    if not why.rules:
        return reason
    return Sentence(MARK.gettext("{reason} ({ruling})"), reason=reason,
                    ruling=", ".join(why.rules))


def _why_value(value: object, names: Mapping[str, str]) -> Any:
    if isinstance(value, Why):
        return why_said(value, names)
    if isinstance(value, Player):
        return names.get(value) or str(value)
    if isinstance(value, Field):
        return _field_said(value, names)
    if isinstance(value, Fields):
        return _listed([_field_said(f, names) for f in value])
    return value if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _field_said(field: str, names: Mapping[str, str]) -> Sentence:
    """``Bo's red`` for ``white.red`` (as ``scorekeeper.words.field_words`` says it)."""
    side, dot, colour = field.partition(".")
    if not dot:
        return (Sentence(MARK.gettext("the minus field")) if field == "minus"
                else Sentence(MARK.gettext("the {field} field"), field=field))
    return Sentence(MARK.gettext("{who}'s {colour}"), who=names.get(side) or side,
                    colour=Sentence(colour))


def _listed(items: Sequence[Sentence]) -> Sentence | str:
    """Fields said as a list (``Ann's red, Ann's blue``), each worded in the page's language."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return Sentence(MARK.gettext("{first}, {rest}"), first=items[0], rest=_listed(items[1:]))


def said_or(english: str, stored: Any) -> str:
    """A sentence as the hub's file keeps it (``Sentence.to_json``), else ``english`` as
    written (a row an older hub wrote, or one whose words the hub did not make)."""
    if isinstance(stored, Mapping) and isinstance(stored.get("id"), str):
        return Sentence.from_json(stored)
    return english


def worded(value: Any, t: Words) -> Any:
    """A value of a sentence in the language ``t``: a sentence worded, a list of them joined
    with ``"; "``, anything else (a name, a number) as it is."""
    if isinstance(value, Sentence):
        return value.worded(t)
    if isinstance(value, list | tuple):
        return "; ".join(str(worded(v, t)) for v in value)
    return value


class Refusal(Exception):  # noqa: N818 -- a refusal is what a person is told, not a crash
    """An error a person reads: one or more :class:`Sentence` (a text the catalog does not
    know, such as the rules engine's, stays as it is in every language). ``str(error)`` is
    the English, :meth:`worded` another language's."""

    def __init__(self, message: str | Sequence[str] | Refusal = "", /, **args: Any) -> None:
        if isinstance(message, Refusal):
            sentences: tuple[str, ...] = message.sentences
        elif isinstance(message, str):
            sentences = (message if isinstance(message, Sentence) and not args
                         else Sentence(message, **args),)
        else:
            sentences = tuple(m if isinstance(m, Sentence) else Sentence(m) for m in message)
        self.sentences = sentences
        super().__init__("; ".join(sentences))

    def worded(self, t: Words) -> str:
        return "; ".join(str(worded(s, t)) for s in self.sentences)


def detail(exc: Exception) -> str:
    """A refusal's words for an HTTP answer's ``detail``: in the language of the request
    being answered (``web_common.i18n.current``), English outside a request; any other error's
    text as it is."""
    from web_common.i18n import current

    return exc.worded(current()) if isinstance(exc, Refusal) else str(exc)


def keyed(key: str, words: Sentence | None) -> dict[str, Any]:
    """Words of the hub's view in English (``key``) and as their catalog entry
    (``key_said``), which a page words in its own language (``hub-words.js``: ``saidOr``)."""
    return {key: words, f"{key}_said": None if words is None else words.to_json()}


def said(kind: str, message: str, **args: Any) -> dict[str, Any]:
    """An alert, note or attention line: ``{"kind", "message", "words"}``."""
    sentence = Sentence(message, **args)
    return {"kind": kind, "message": str(sentence), "words": sentence.to_json()}


def said_n(kind: str, forms: tuple[str, str], n: int, **args: Any) -> dict[str, Any]:
    """:func:`said` for a sentence with a count ``n`` (``{n}`` in it; the page picks the
    plural form its language needs)."""
    sentence = Sentence(forms, n=n, **args)
    return {"kind": kind, "message": str(sentence), "words": sentence.to_json()}


def answered(message: str, **args: Any) -> str:
    """A refusal (a 409 or 422 ``detail``) in the language of the request being answered
    (``web_common.i18n.current``: the page's ``?lang=``, its Accept-Language, the default); English
    outside a request. ``message`` is marked with :data:`MARK` where it is written."""
    from web_common.i18n import current

    return Sentence(message, **args).worded(current())
