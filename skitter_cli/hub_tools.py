"""``skitter hub``'s tools for an event: backups, ``restore``, ``boards add/revoke``.

``skitter hub`` itself serves the tournament (:mod:`skitter_cli.hub`); this module adds the
options for its backups and the subcommands an organiser runs beside it:

- ``skitter hub restore FILE``: check a backup and make it the hub's file again;
- ``skitter hub boards add --count 64`` (or ``add board-07 board-08``): broker users, the
  ACL, a credentials file for each board's ``install.sh`` and a QR code of its referee page;
- ``skitter hub boards revoke ID``: a board's user taken out of the broker.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import time
from pathlib import Path

from firmware_bridge.files import replace_file
from hub.backup import (
    BackupPlan,
    Backups,
    BackupTimer,
    latest_backup,
    round_progress,
)
from hub.board_credentials import BoardCredentials, write_board_files
from hub.broker_users import (
    HUB_USER,
    BrokerFiles,
    BrokerUsersError,
    board_ids,
    hash_password,
    new_password,
)
from hub.event_export import export_event
from hub.event_import import ImportRefused, import_event, read_event_file
from hub.restore import RestoreError, restore
from hub.store import HubStore, HubStoreError
from hub.tournament import Tournament
from skitter_cli.help_words import WORDS
from skitter_cli.language import configured_language
from tournament_wire.wire import WireError, settings_from_url

PASSWD = Path("/etc/mosquitto/skitter.passwd")
ACL = Path("/etc/mosquitto/skitter.acl")
"""Where ``hardware/mosquitto/skitter.conf`` tells the broker to find its users."""
PAGE_URL = "http://{board}.local:8000/referee"
"""A board's referee page, by the host name its SD card was given (its board id)."""


def default_db(environ: os._Environ[str] | dict[str, str] = os.environ) -> Path:
    """The hub's SQLite file when ``--db`` names none (``skitter hub`` and its tools alike)."""
    base = environ.get("SKITTER_DATA")
    root = Path(base).expanduser() if base else Path.home() / ".local" / "share" / "skitter"
    return root / "hub.db"


def add_backup_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--backup-dir", type=Path, metavar="DIR", help=WORDS.gettext(
        "copy the hub's file into DIR (a USB stick) now and then and after every round"))
    parser.add_argument("--backup-keep", type=int, default=10, metavar="N",
                        help=WORDS.gettext("backups kept in --backup-dir (the newest)"))
    parser.add_argument("--backup-every", type=float, default=5.0, metavar="MINUTES",
                        help=WORDS.gettext("minutes between two backups at most"))


def backup_plan(args: argparse.Namespace) -> BackupPlan | None:
    """The backups ``args`` ask for (None: none); ``ValueError`` names a wrong number."""
    if args.backup_dir is None:
        return None
    return BackupPlan(args.backup_dir, keep=args.backup_keep, every=args.backup_every * 60)


def start_backups(plan: BackupPlan | None, tournament: Tournament) -> BackupTimer | None:
    """The backup thread, started (None without ``--backup-dir``)."""
    if plan is None:
        return None
    timer = BackupTimer(Backups(tournament.store, plan), lambda: round_progress(tournament))
    timer.start()
    return timer


def add_subcommands(parser: argparse.ArgumentParser) -> None:
    """``restore`` and ``boards`` under ``skitter hub`` (each sets ``_run``)."""
    sub = parser.add_subparsers(dest="hub_command", metavar=WORDS.gettext("TOOL"))
    about = WORDS.gettext("check a backup of the hub's file and bring it back (hub stopped)")
    p = sub.add_parser("restore", help=about, description=about)
    p.add_argument("file", type=Path, metavar="FILE", help=WORDS.gettext(
        "the backup, or the backups' folder: its newest backup"))
    _db_argument(p)
    p.set_defaults(_run=run_restore)

    about = WORDS.gettext("write this hub's event (players, pairings, games with their "
                          "steps) to one file for another hub")
    p = sub.add_parser("export", help=about, description=about)
    p.add_argument("file", type=Path, metavar="FILE", help=WORDS.gettext("the file to write"))
    p.add_argument("--name", help=WORDS.gettext("the event's name in the file"))
    _db_argument(p)
    p.set_defaults(_run=run_export)
    about = WORDS.gettext("check another hub's exported event and add its games (hub stopped)")
    p = sub.add_parser("import", help=about, description=about)
    p.add_argument("file", type=Path, metavar="FILE", help=WORDS.gettext("the exported event"))
    _db_argument(p)
    p.set_defaults(_run=run_import)

    about = WORDS.gettext("the boards' broker users, credentials and QR codes")
    boards = sub.add_parser("boards", help=about, description=about)
    actions = boards.add_subparsers(dest="boards_command", metavar=WORDS.gettext("ACTION"))
    boards.set_defaults(_run=lambda args: _usage(boards))
    about = WORDS.gettext("give boards a broker user each and write their credentials files")
    add = actions.add_parser("add", help=about, description=about)
    add.add_argument("ids", nargs="*", metavar="ID", help=WORDS.gettext("board ids to add"))
    add.add_argument("--count", type=int, metavar="N",
                     help=WORDS.gettext("add N boards numbered board-01, board-02..."))
    add.add_argument("--broker", default="mqtt://skitter-hub.local", metavar="URL",
                     help=WORDS.gettext("the broker as the boards reach it"))
    add.add_argument("--out", type=Path, default=Path("skitter-boards"), metavar="DIR",
                     help=WORDS.gettext("folder for each board's credentials file and QR code"))
    add.add_argument("--page-url", default=PAGE_URL, metavar="URL", help=WORDS.gettext(
        "a board's referee page; {board} is its id"))
    _broker_arguments(add)
    add.set_defaults(_run=run_boards_add)
    about = WORDS.gettext("take boards' users out of the broker")
    revoke = actions.add_parser("revoke", help=about, description=about)
    revoke.add_argument("ids", nargs="+", metavar="ID", help=WORDS.gettext("board ids"))
    _broker_arguments(revoke)
    revoke.set_defaults(_run=run_boards_revoke)


def _db_argument(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS: a --db given before the tool's name (skitter hub --db X restore F) stays
    parser.add_argument("--db", type=Path, default=argparse.SUPPRESS,
                        help=WORDS.gettext("the hub's SQLite file"))


def _broker_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--passwd-file", type=Path, default=PASSWD, metavar="FILE",
                        help=WORDS.gettext("the broker's password file"))
    parser.add_argument("--acl-file", type=Path, default=ACL, metavar="FILE",
                        help=WORDS.gettext("the broker's ACL file"))
    parser.add_argument("--topic-prefix", default=argparse.SUPPRESS,
                        help=WORDS.gettext("first topic level"))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_usage(sys.stderr)
    return 2


def _fail(message: str) -> int:
    print(f"skitter hub: {message}", file=sys.stderr)
    return 2


def run_restore(args: argparse.Namespace) -> int:

    t = configured_language()
    db = args.db or default_db()
    backup = args.file
    if backup.is_dir():
        newest = latest_backup(backup)
        if newest is None:
            return _fail(t.gettext("no backup in {folder}").format(folder=backup))
        backup = newest
    try:
        facts, kept = restore(backup, db, time.time)
    except RestoreError as exc:
        return _fail(str(exc))
    print(t.gettext("restored {file} as {db}: {players} players, {rounds} rounds, {games} "
                    "games, {events} events").format(
        file=backup, db=db, players=facts.players, rounds=facts.rounds, games=facts.games,
        events=facts.events))
    if kept is not None:
        print(t.gettext("the file it replaced is kept as {path}").format(path=kept))
    return 0


def _files(args: argparse.Namespace) -> BrokerFiles:
    return BrokerFiles(args.passwd_file, args.acl_file, args.topic_prefix)


def run_boards_add(args: argparse.Namespace) -> int:
    t = configured_language()
    files = _files(args)
    try:
        broker = settings_from_url(args.broker, topic_prefix=args.topic_prefix)
        users = files.users()
        adding = board_ids(args.count, args.ids, users)
        if not adding:
            return _fail(t.gettext("name the boards to add, or give --count"))
        already = [b for b in adding if b in users]
        if already:
            return _fail(t.gettext("already a broker user (revoke it first): {ids}").format(
                ids=", ".join(already)))
        made: list[BoardCredentials] = []
        if HUB_USER not in users:
            hub_secret = new_password()
            users[HUB_USER] = hash_password(hub_secret)
            made.append(BoardCredentials(HUB_USER, broker.url, hub_secret))
        for board in adding:
            secret = new_password()
            users[board] = hash_password(secret)
            made.append(BoardCredentials(board, broker.url, secret))
        written = [write_board_files(args.out, c, args.page_url) for c in made]
        files.write(users)  # the users only once their credentials are saved
    except (BrokerUsersError, WireError, OSError) as exc:
        return _fail(str(exc))
    for c, paths in zip(made, written, strict=True):
        print("  ".join([c.board, *map(str, paths)]))
    print(t.gettext("{count} broker users added to {passwd} and {acl}; reload the broker: "
                    "sudo systemctl reload mosquitto").format(
        count=len(made), passwd=files.passwd, acl=files.acl))
    return 0


def run_boards_revoke(args: argparse.Namespace) -> int:
    t = configured_language()
    files = _files(args)
    try:
        users = files.users()
        unknown = [b for b in args.ids if b not in users or b == HUB_USER]
        if unknown:
            return _fail(t.gettext("no board with a broker user: {ids}").format(
                ids=", ".join(unknown)))
        files.write({u: h for u, h in users.items() if u not in args.ids})
    except BrokerUsersError as exc:
        return _fail(str(exc))
    print(t.gettext("revoked {ids}; reload the broker: sudo systemctl reload mosquitto")
          .format(ids=", ".join(args.ids)))
    return 0



def _tournament(args: argparse.Namespace) -> Tournament:
    from firmware_bridge.clocks import WallClock

    return Tournament(HubStore(args.db or default_db()), WallClock())


def run_export(args: argparse.Namespace) -> int:
    t = configured_language()
    try:
        tournament = _tournament(args)
    except HubStoreError as exc:
        return _fail(str(exc))
    try:
        data = export_event(tournament, args.name)
    finally:
        tournament.store.close()
    text = json.dumps(data, indent=1, sort_keys=True, allow_nan=False, ensure_ascii=False)
    try:
        replace_file(args.file, text + "\n", mode=0o644, sync=True)
    except OSError as exc:
        return _fail(f"cannot write {args.file}: {exc.strerror}")
    print(t.gettext("event {event} written to {file}: {players} players, {games} games")
          .format(event=data["event"], file=args.file, players=len(data["players"]),
                  games=len(data["games"])))
    return 0


def run_import(args: argparse.Namespace) -> int:
    t = configured_language()
    try:
        data = read_event_file(args.file.read_text(encoding="utf-8"))
    except OSError as exc:
        return _fail(f"cannot read {args.file}: {exc.strerror}")
    except (ImportRefused, UnicodeDecodeError) as exc:
        return _fail(t.gettext("{file} refused: {why}").format(file=args.file, why=exc))
    try:
        tournament = _tournament(args)
    except HubStoreError as exc:
        return _fail(str(exc))
    try:
        done = import_event(tournament, data, at=time.time())
    except ImportRefused as exc:
        return _fail(t.gettext("{file} refused: {why}").format(file=args.file, why=exc))
    except sqlite3.OperationalError as exc:  # the hub holds its file: nothing was stored
        return _fail(t.gettext("the hub's file is busy ({why}): stop the hub and import "
                               "again").format(why=exc))
    finally:
        tournament.store.close()
    print(t.gettext("event {event} ({name}) imported: {games} games of {players} players, "
                    "{by_referee} of them entered by a referee").format(
        event=done.event, name=done.name, games=done.games, players=done.players,
        by_referee=done.by_referee))
    return 0
