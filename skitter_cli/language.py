"""The language of the ``skitter`` command's messages.

The configuration's ``language`` when the configuration (file, environment or option) sets
it: the venue chose it. Otherwise the person's own locale (``LANGUAGE``, then ``LC_ALL``,
``LC_MESSAGES``, ``LANG``, as gettext reads them) when a catalog speaks it; else English.
Messages are the catalogs' (``web_common/locale``), as every page's words; so is the ``--help``
(:mod:`skitter_cli.help_words`), argparse's own refusals of an argument aside.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from web_common.i18n import SOURCE, Language, choose, language

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def _code(tag: str) -> str | None:
    """The catalog's code for one locale name (``de_DE.UTF-8`` is ``de``), or None."""
    tag = tag.split(".")[0].split("@")[0]
    if not tag or tag in ("C", "POSIX"):
        return None
    chosen = choose(None, tag, "")
    return chosen if chosen and (chosen != SOURCE or tag.lower().startswith(SOURCE)) else None


def from_locale(environ: Mapping[str, str]) -> str | None:
    """The language of the first locale variable set (``de_DE.UTF-8`` is ``de``), or None for
    none, ``C`` or ``POSIX``, or a language without a catalog. ``LANGUAGE`` (a list such as
    ``de:en``) comes first unless the locale is ``C``/``POSIX``, as for gettext."""
    locale = next((environ[v] for v in LOCALE_VARIABLES if environ.get(v)), "")
    if locale.split(".")[0] in ("C", "POSIX"):
        return None
    for tag in environ.get("LANGUAGE", "").split(":"):
        code = _code(tag)
        if code is not None:
            return code
    return _code(locale) if locale else None


def command_language(settings: Any = None,
                     environ: Mapping[str, str] = os.environ) -> Language:
    """The language for a command's messages (``settings``: the loaded configuration, or None
    when it could not be read)."""
    origins = getattr(settings, "origins", {}) or {}
    if settings is not None and origins.get("language", "default") != "default":
        return language(settings.language)
    return language(from_locale(environ) or SOURCE)


def configured_language(config: str | Path | None = None,
                        environ: Mapping[str, str] = os.environ) -> Language:
    """:func:`command_language` for a command that needs no configuration otherwise: the
    configuration file (``config``, else the usual one) is read for its ``language`` only;
    one that cannot be read leaves the locale to decide."""
    from web.config.settings import ConfigError, load_settings

    try:
        settings = load_settings(config, environ=environ)
    except (ConfigError, OSError):
        settings = None
    return command_language(settings, environ)
