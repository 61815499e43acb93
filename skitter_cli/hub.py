"""``skitter hub``: the tournament hub, hearing every board through an MQTT broker.

It keeps the tournament in its own SQLite file (``--db``, default ``hub.db`` in the data
directory) and serves the tournament page. Its referee PIN is the hub's own, kept hashed in
``<db folder>/hub/referee-pin``: ``--pin`` sets it, otherwise one is generated on first start
and printed once. The broker password may come in the URL, or from ``$SKITTER_MQTT_PASSWORD``
so it does not show in the process list.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from firmware_bridge.clocks import MonotonicClock, WallClock
from scorekeeper.clock import Clock
from skitter_cli import hub_tools
from skitter_cli.args import command_line_secrets
from skitter_cli.help_words import WORDS
from skitter_cli.language import configured_language
from tournament_wire.broker import MqttSettings
from tournament_wire.wire import WireError, settings_from_url
from web_common.broadcaster import PER_MESSAGE_DEFLATE
from web_common.pin import PinError, PinStore, pin_given
from web_common.serving import server_config
from web_common.stop import StopSignals

if TYPE_CHECKING:
    from hub.app import Hub
    from hub.link import HubLink
    from hub.store import HubStore

# The hub itself (its pairings pull in networkx) is imported when it runs, not when the
# command line is built: `skitter serve` builds it too and would carry ~15 MB it never uses.

HELP = WORDS.gettext(
    "Run the tournament hub: every board live, standings, pairings (needs an MQTT broker).")
DEFAULT_PORT = 8100



def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mqtt", metavar="URL",
                        help=WORDS.gettext("broker: mqtt[s]://[user:password@]host[:port]"))
    parser.add_argument("--mqtt-user",
                        help=WORDS.gettext("broker user name (instead of in the URL)"))
    parser.add_argument("--tls-ca",
                        help=WORDS.gettext("CA certificate that signed the broker's certificate"))
    parser.add_argument("--tls-cert", help=WORDS.gettext("client certificate (with --tls-key)"))
    parser.add_argument("--tls-key", help=WORDS.gettext("private key of --tls-cert"))
    parser.add_argument("--tls-insecure", action="store_true",
                        help=WORDS.gettext("do not check the broker's host name (test brokers "
                                           "only)"))
    parser.add_argument("--topic-prefix", default="skitter",
                        help=WORDS.gettext("first topic level"))
    parser.add_argument("--db", type=Path, help=WORDS.gettext(
                        "the hub's SQLite file (default {path})").format(
                            path=hub_tools.default_db()))
    parser.add_argument("--host", default="127.0.0.1",
                        help=WORDS.gettext("address to listen on (0.0.0.0: the venue's network)"))
    parser.add_argument("--port", type=int, default=DEFAULT_PORT,
                        help=WORDS.gettext("TCP port of the page"))
    parser.add_argument("--pin-file", metavar="FILE",
                        help=WORDS.gettext("file whose first line is the hub referee's PIN (or "
                                           "$SKITTER_PIN)"))
    parser.add_argument("--pin", help=WORDS.gettext(
                        "set the hub referee's PIN (4-12 digits; visible to every "
                        "user of the machine: prefer --pin-file)"))
    hub_tools.add_backup_arguments(parser)
    hub_tools.add_subcommands(parser)


def build(settings: MqttSettings, store: HubStore, pins: PinStore, *,
          wall: Clock | None = None, monotonic: Clock | None = None) -> tuple[HubLink, Hub]:
    """The hub's link and app on ``store`` (not started). ``wall`` dates what the hub
    records and ends sessions (bounded: a clock set back ends them); ``monotonic`` times
    wrong-PIN waits and the link's resends and health."""
    from hub.app import Hub
    from hub.link import HubLink
    from hub.tournament import Tournament
    from hub.wake import Wake

    wall = WallClock() if wall is None else wall
    monotonic = MonotonicClock() if monotonic is None else monotonic
    tournament = Tournament(store, wall)
    wake = Wake()
    link = HubLink(settings, tournament, on_change=wake, monotonic=monotonic.now)
    return link, Hub(tournament, link, pins, monotonic, wake)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from hub.app import create_hub_app
    from hub.service import hub_watchdog
    from hub.store import HubStore, HubStoreError

    t = configured_language()
    if args.mqtt is None:
        print("skitter hub: " + t.gettext("the broker is needed: --mqtt URL"), file=sys.stderr)
        return 2
    db = args.db or hub_tools.default_db()
    for warning in command_line_secrets(args.pin, args.mqtt, t):
        print("skitter hub: " + t.gettext("warning: {warning}").format(warning=warning),
              file=sys.stderr)
    try:
        pin = pin_given(args.pin, args.pin_file, os.environ)
        settings = settings_from_url(
            args.mqtt,
            username=args.mqtt_user,
            password=os.environ.get("SKITTER_MQTT_PASSWORD") if args.mqtt_user else None,
            tls_ca=args.tls_ca,
            tls_cert=args.tls_cert,
            tls_key=args.tls_key,
            tls_insecure=args.tls_insecure,
            topic_prefix=args.topic_prefix,
        )
        if not 1 <= args.port <= 65535:
            raise WireError(t.gettext("--port must be between 1 and 65535, got {port}").format(
                port=args.port))
        backups = hub_tools.backup_plan(args)
        pins = PinStore(db.parent / "hub")
        if pin is not None:
            pins.keep(pin)
            print(t.gettext("hub referee PIN saved in {path}").format(path=pins.path))
        else:
            generated = pins.ensure()
            if generated:
                print(t.gettext("hub referee PIN (shown once, stored hashed in {path}): {pin}")
                      .format(path=pins.path, pin=generated))
        store = HubStore(db)
    except (WireError, PinError, HubStoreError, ValueError) as exc:
        print(f"skitter hub: {exc}", file=sys.stderr)
        return 2
    link: HubLink | None = None
    timer = None
    stop = StopSignals()
    try:
        link, hub = build(settings, store, pins)
        link.start()
        timer = hub_tools.start_backups(backups, hub.tournament)
        stop.catch()  # a Ctrl-C from the banner on stops the hub, however it was started
        where = t.gettext("only this computer") if args.host == "127.0.0.1" \
            else t.gettext("the network")
        print("skitter hub: " + t.gettext("tournament page on {url} ({where}); broker {broker}; "
                                          "data in {db}").format(
            url=f"http://{args.host}:{args.port}/", where=where, broker=settings.url, db=db))
        # Under systemd (Type=notify): READY once uvicorn serves (`server` is bound below).
        service = hub_watchdog(os.environ, link, serving=lambda: server.started)
        # Each frame is encoded once for every page: no per-page compression on top.
        server = uvicorn.Server(server_config(create_hub_app(hub, service=service), args.host,
                                              args.port,
                                              ws_per_message_deflate=PER_MESSAGE_DEFLATE))
        stop.serve(server)
    except KeyboardInterrupt:
        pass  # a Ctrl-C before stop.catch(): the link and the store close below
    except WireError as exc:
        print(f"skitter hub: {exc}", file=sys.stderr)
        return 2
    finally:
        if timer is not None:
            timer.stop()
        if link is not None:
            link.stop()
        store.close()
    return 0
