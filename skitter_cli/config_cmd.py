"""``skitter config --show``: print the configuration in effect and where each value came from.

A builder at the venue can check what the service will use (``--config`` and the same
overrides as ``skitter serve``) before starting it; the MQTT password is masked.
"""

from __future__ import annotations

import argparse
import sys

from skitter_cli.args import add_settings_arguments, settings_from_args
from skitter_cli.help_words import WORDS
from skitter_cli.language import configured_language
from web.config.settings import ConfigError, settings_as_dict, settings_to_toml

HELP = WORDS.gettext("Check the configuration and print the settings in effect (password masked).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--show`` (the default action) prints TOML; ``--json`` prints JSON instead."""
    parser.add_argument(
        "--show", action="store_true",
            help=WORDS.gettext("print the effective configuration (default)")
    )
    parser.add_argument("--json", action="store_true", help=WORDS.gettext("print it as JSON"))
    add_settings_arguments(parser)


def run(args: argparse.Namespace) -> int:
    """Print the settings; exit status 2 with the error on stderr when they are invalid."""
    try:
        settings = settings_from_args(args)
    except ConfigError as exc:
        t = configured_language(getattr(args, "config", None))
        print("skitter: " + t.gettext("configuration error: {problem}").format(problem=exc),
              file=sys.stderr)
        return 2
    if args.json:
        import json

        body = {
            "config_file": str(settings.config_path) if settings.config_path else None,
            "settings": {
                key: {"value": value, "from": settings.origins.get(key, "default")}
                for key, value in settings_as_dict(settings).items()
            },
        }
        print(json.dumps(body, indent=2))
    else:
        sys.stdout.write(settings_to_toml(settings))
    return 0
