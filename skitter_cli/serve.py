"""``skitter serve``: the scorekeeper with its pages, on the simulated board unless told otherwise.

It binds 127.0.0.1 unless told otherwise (and says so), prints every page's address and a
newly generated PIN, resumes the newest match in the log, and stops cleanly on Ctrl-C:
every step was committed to the log when it was made, so nothing is lost.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from typing import TYPE_CHECKING

from firmware_bridge.clocks import MonotonicClock, WallClock
from firmware_bridge.profile import ProfileError
from firmware_bridge.source import SourceError
from firmware_bridge.sources import SPECS_HELP, SourceKind
from scorekeeper.store import StoreError
from scorekeeper.words import ENGLISH, Words, refusal
from skitter_cli.args import add_settings_arguments, command_line_secrets, settings_from_args
from skitter_cli.folder_lock import FolderInUse, FolderLock
from skitter_cli.help_words import WORDS
from skitter_cli.language import command_language, configured_language
from skitter_cli.serve_refusals import cannot_listen, folder_in_use
from web.config.settings import ConfigError, Settings
from web_common.pin import PIN_ENV, PinError, PinStore, check_pin_format, pin_given

if TYPE_CHECKING:
    import uvicorn

    from web.table.controls import HardwareControls
    from web.table.table import Table

HELP = WORDS.gettext(
    "Run the scorekeeper: live scoreboard, referee display, tablet and virtual board.")

PAGES = (("scoreboard", ""), ("referee", "referee"), ("tablet", "tablet"),
         ("virtual board", "board"), ("stream overlay", "overlay"))
ANY_ADDRESS = ("0.0.0.0", "::", "")



def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = WORDS.gettext(
        "Sensor sources: {sources} (default: sim, the simulated board).").format(
        sources=WORDS.gettext(SPECS_HELP))
    parser.add_argument("--pin-file", metavar="FILE",
                        help=WORDS.gettext("file whose first line is the referee PIN to use "
                                           "and keep (or ${variable})").format(
                                               variable=PIN_ENV))
    parser.add_argument("--pin", help=WORDS.gettext(
                        "referee PIN to use and keep (4-12 digits; visible to "
                        "every user of the machine: prefer --pin-file)"))
    add_settings_arguments(parser)


def run(args: argparse.Namespace) -> int:
    t = configured_language(getattr(args, "config", None))
    try:
        settings = settings_from_args(args)
        t = command_language(settings)
        pin = pin_given(args.pin, args.pin_file, os.environ)
    except (ConfigError, PinError) as exc:
        return _fail(t.gettext("configuration: {problem}").format(problem=exc), 2)
    for warning in command_line_secrets(args.pin, args.opt_mqtt_url, t):
        print("skitter: " + t.gettext("warning: {warning}").format(warning=warning),
              file=sys.stderr)
    # The data folder and the port first: a run that cannot serve prints no banner and
    # makes no PIN.
    lock = FolderLock(settings.data_dir)
    try:
        lock.acquire()
    except FolderInUse as exc:
        return _fail(folder_in_use(exc, t), 1)
    except OSError as exc:
        return _fail(t.gettext("data folder {folder}: {problem}").format(
            folder=settings.data_dir, problem=exc.strerror or exc), 2)
    try:
        refused = cannot_listen(settings.host, settings.port, t)
        if refused is not None:
            return _fail(refused, 1)
        try:
            pins = PinStore(settings.data_dir, settings.pin_hash)
            if pin is not None:
                pins.keep(check_pin_format(pin))
                new_pin = None
            else:
                new_pin = pins.ensure()
        except (PinError, OSError) as exc:
            return _fail(t.gettext("referee PIN: {problem}").format(problem=exc), 2)
        return serve(settings, pins, new_pin, t)
    finally:
        lock.release()


def serve(settings: Settings, pins: PinStore, new_pin: str | None,
          t: Words = ENGLISH) -> int:
    """Open the table, print where to find it (in the language ``t``), and run until
    Ctrl-C."""
    # The board first, the web app after: a board that cannot be opened (no I2C bus, a
    # profile or a match log the rules refuse) is told before FastAPI and uvicorn are loaded,
    # which takes a Pi seconds.
    from firmware_bridge.gpio import lgpio_work_dir
    from web.table.wiring import open_table, publishing
    from web_common.broadcaster import Broadcaster
    from web_common.stop import StopSignals

    lgpio_work_dir(settings.data_dir)  # lgpio's pipes beside the match log, not in the cwd
    clock = MonotonicClock()
    broadcaster = Broadcaster()
    to = [broadcaster.publish]
    table_link = None
    if settings.mqtt.enabled:
        from web.tournament.mqtt_table import TableLink

        board_id = settings.board_id or socket.gethostname()
        table_link = TableLink(board_id, settings.mqtt)
        to.append(table_link.published)
        print("skitter: " + t.gettext("tournament broker {host}:{port}, board id {board}")
              .format(host=settings.mqtt.host, port=settings.mqtt.port, board=repr(board_id)))
    try:
        table = open_table(
            settings.db_path, settings.source, clock=clock, wall=WallClock(),
            profile_path=settings.profile, record=settings.record,
            settle_ms=settings.settle_ms, debounce_ms=settings.debounce_ms,
            publish=publishing(*to),
        )
    except StoreError as exc:  # a stored match the rules refuse is told in players' words
        return _fail(refusal(exc.why, exc.names, t) if exc.why else str(exc), 1)
    except (SourceError, ProfileError) as exc:
        return _fail(str(exc), 1)
    addresses = page_addresses(settings.host, settings.port)
    controls: HardwareControls | None = None
    server: uvicorn.Server | None = None
    stop = StopSignals()
    asked_to_stop = False
    # The match log and the sensor link are always closed, whenever a Ctrl-C (or SIGTERM)
    # comes: from stop.catch() on it stops the board, before uvicorn has taken the signal
    # over too (web_common.stop); one before (while the web app loads, say) is Python's
    # KeyboardInterrupt.
    try:
        import uvicorn

        from web.api.app import create_app
        from web.api.deps import Auth
        from web_common.broadcaster import PER_MESSAGE_DEFLATE
        from web_common.serving import server_config
        from web_common.watchdog import Watchdog

        try:
            controls = _hardware_controls(table)
        except GpioUnavailable as exc:
            print("skitter: " + t.gettext("GPIO buttons and LEDs unavailable ({why}); the "
                                          "tablet does their work").format(why=exc))
        stop.catch()
        # Under systemd (Type=notify): READY once uvicorn serves.
        watchdog = Watchdog.from_environ(
            os.environ, serving=lambda: server is not None and server.started)
        app = create_app(table, Auth.create(pins, clock, wall=WallClock()), broadcaster,
                         table_link=table_link,
                         controls=controls, caller_language=settings.caller_language,
                         language=settings.language,
                         public_url=addresses[0], allowed_origins=settings.allowed_origins,
                         watchdog=watchdog)
        _announce(settings, table, addresses, new_pin, t)
        server = uvicorn.Server(server_config(
            app, settings.host, settings.port, proxy_headers=settings.proxy_headers,
            limits=settings.limits,
            ws_per_message_deflate=PER_MESSAGE_DEFLATE,  # web_common.broadcaster: latency first
        ))
        stop.serve(server)
    except KeyboardInterrupt:
        asked_to_stop = True  # a Ctrl-C before stop.catch()
    except SystemExit as exc:  # uvicorn exits when the port is taken
        return int(exc.code or 1)
    finally:
        if controls is not None:
            controls.close()
        table.close()
    print("skitter: " + t.gettext("stopped; every step is in the match log {path}").format(
        path=settings.db_path))
    return 0 if asked_to_stop or stop.requested or (server is not None and server.started) \
        else 1


class GpioUnavailable(Exception):
    """The Pi's GPIO cannot be used here (the cause is the message)."""


def _hardware_controls(table: Table) -> HardwareControls | None:
    """The profile's GPIO buttons and LEDs, on a real board (not with the simulator).

    They are optional: when the Pi's GPIO cannot be used (:class:`GpioUnavailable`), the
    scorekeeper says so and runs on without them (the tablet does everything they do).
    """
    from web.table.controls import HardwareControls

    sensing = table.sensing
    if sensing is None or sensing.simulator is not None or table.source_name == SourceKind.REPLAY:
        return None
    gpio = sensing.profile.gpio
    if gpio is None or not (gpio.buttons or gpio.leds):
        return None
    try:
        return HardwareControls(table, gpio)
    except Exception as exc:  # noqa: BLE001 - gpiozero raises several kinds off a Pi
        raise GpioUnavailable(str(exc)) from exc


def _announce(settings: Settings, table: Table, addresses: list[str], new_pin: str | None,
              t: Words = ENGLISH) -> None:
    steps = len(table.log)
    print("skitter: " + t.ngettext("match {id} ({n} step in the log) from {path}",
                                 "match {id} ({n} steps in the log) from {path}", steps).format(
        id=table.match_id, n=steps, path=settings.db_path))
    if table.source_name in (SourceKind.SIM, SourceKind.PHYSICS):
        print("skitter: " + t.gettext("sensors: {source} (simulated board: use the virtual "
                                    "board page)").format(source=table.source_name))
    else:
        print("skitter: " + t.gettext("sensors: {source}").format(source=table.source_name))
    if settings.host in ANY_ADDRESS:
        print("skitter: " + t.gettext("listening on every network interface, port {port}").format(
            port=settings.port))
    elif settings.host in ("127.0.0.1", "localhost", "::1"):
        print("skitter: " + t.gettext("listening on {host}:{port} only (this computer); use "
                                    "--host 0.0.0.0 to serve the venue's network").format(
            host=settings.host, port=settings.port))
    else:
        print("skitter: " + t.gettext("listening on {host}:{port}").format(
            host=settings.host, port=settings.port))
    labels = page_labels(t)
    width = max(len(label) for label in labels.values()) + 1
    for label, path in PAGES:
        print(f"  {labels[label]:<{width}}" + "   ".join(a + path for a in addresses))
    print(f"  {labels['API docs']:<{width}}{addresses[0]}docs")
    if new_pin is not None:
        print("skitter: " + t.gettext("referee PIN (new, shown once; 'skitter set-pin' changes "
                                    "it): {pin}").format(pin=new_pin))
    else:
        print("skitter: " + t.gettext("referee PIN: as set before ('skitter set-pin' changes "
                                    "it)"))
    print("skitter: " + t.gettext("Ctrl-C stops"))
    sys.stdout.flush()


def page_labels(t: Words = ENGLISH) -> dict[str, str]:
    """The pages' names in the language ``t``, by their English name (:data:`PAGES`)."""
    return {"scoreboard": t.gettext("scoreboard"), "referee": t.gettext("referee"),
            "tablet": t.gettext("tablet"), "virtual board": t.gettext("virtual board"),
            "stream overlay": t.gettext("stream overlay"), "API docs": t.gettext("API docs")}


def page_addresses(host: str, port: int) -> list[str]:
    """Base URLs to print: for 0.0.0.0 the LAN address first, then ``<hostname>.local``."""
    if host not in ANY_ADDRESS:
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    out = [f"http://{ip}:{port}/" for ip in lan_addresses()]
    out.append(f"http://{socket.gethostname()}.local:{port}/")
    out.append(f"http://127.0.0.1:{port}/")
    return list(dict.fromkeys(out))


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback (no packet is sent)."""
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(str(info[4][0]))
    except OSError:
        pass
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))  # UDP connect picks a route, sends nothing
        found.insert(0, probe.getsockname()[0])
    except OSError:
        pass
    finally:
        probe.close()
    return [ip for ip in dict.fromkeys(found) if not ip.startswith("127.")]


def _fail(message: str, code: int) -> int:
    print(f"skitter serve: {message}", file=sys.stderr)
    return code
