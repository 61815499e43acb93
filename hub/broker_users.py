"""The broker's users for a tournament: Mosquitto's password file and ACL, one board at a time.

``skitter hub boards add`` gives each board a user named like its board id with a random
password; the hub has its own user, ``hub``. The password file holds each user as
``name:$7$<iterations>$<salt>$<hash>``: PBKDF2 with SHA-512, the format Mosquitto 2 reads
(and ``mosquitto_passwd`` writes), so no broker tool is needed on the organiser's computer.

The ACL is written from the users: the hub reads what every board publishes and alone sends
commands; each board may publish only under its own topics and read only its own commands
(the same rights as the shipped ``hardware/mosquitto/acl``, but named board by board, so a
user the command did not add has no rights at all). Both files are replaced whole, never
half-written. Mosquitto reads them again on SIGHUP (``systemctl reload mosquitto``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.files import replace_file
from tournament_wire.wire import check_board_id

HUB_USER = "hub"
ITERATIONS = 101
"""Mosquitto 2's own count for ``$7$`` hashes (``mosquitto_passwd`` writes the same)."""
SALT_BYTES = 12
BOARD_WRITES = ("state", "events", "status", "command/result", "selftest")
"""What a board publishes under ``<prefix>/<board id>/`` (``tournament_wire.wire``)."""
BOARD_READS = ("command",)


class BrokerUsersError(Exception):
    """The files cannot be read or a board id is refused; the message says which and why."""


def hash_password(password: str, salt: bytes | None = None,
                  iterations: int = ITERATIONS) -> str:
    """Mosquitto's ``$7$`` line part for ``password`` (a new random salt unless given)."""
    salt = secrets.token_bytes(SALT_BYTES) if salt is None else salt
    digest = hashlib.pbkdf2_hmac("sha512", password.encode(), salt, iterations)
    encoded_salt, encoded = base64.b64encode(salt).decode(), base64.b64encode(digest).decode()
    return f"$7${iterations}${encoded_salt}${encoded}"


def password_matches(password: str, hashed: str) -> bool:
    """True when ``hashed`` (a ``$7$`` hash) is ``password``'s."""
    parts = hashed.split("$")
    if len(parts) != 5 or parts[1] != "7" or not parts[2].isdigit():
        return False
    salt = base64.b64decode(parts[3])
    return hmac.compare_digest(hash_password(password, salt, int(parts[2])), hashed)


def new_password() -> str:
    """A random password that survives a URL, a shell and a QR code unquoted."""
    return secrets.token_urlsafe(18)


@dataclass(frozen=True)
class BrokerFiles:
    """The password file and ACL the broker's configuration names, and the topics' prefix."""

    passwd: Path
    acl: Path
    prefix: str = "skitter"

    def users(self) -> dict[str, str]:
        """User name -> hash, in the file's order; empty when there is no file yet."""
        try:
            text = self.passwd.read_text()
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise BrokerUsersError(f"cannot read the broker's password file {self.passwd}: "
                                   f"{exc.strerror}") from exc
        users: dict[str, str] = {}
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            name, sep, hashed = line.partition(":")
            if not sep or not name:
                raise BrokerUsersError(f"{self.passwd}, line {number}: not 'user:hash'")
            users[name] = hashed
        return users

    def boards(self) -> list[str]:
        """The boards that have a user (every user but the hub's)."""
        return [u for u in self.users() if u != HUB_USER]

    def write(self, users: Mapping[str, str]) -> None:
        """Replace both files with ``users`` (name -> hash) and the ACL made from them."""
        lines = "".join(f"{name}:{hashed}\n" for name, hashed in users.items())
        for path, text in ((self.passwd, lines), (self.acl, acl_text(users, self.prefix))):
            path.parent.mkdir(parents=True, exist_ok=True)
            try:  # the broker's user must still read it: keep an existing file's owner
                st = path.stat()
                owner: tuple[int, int] | None = (st.st_uid, st.st_gid)
            except FileNotFoundError:
                owner = None
            try:
                replace_file(path, text, mode=0o600, owner=owner, sync=True)
            except OSError as exc:
                raise BrokerUsersError(f"cannot write {path}: {exc.strerror}") from exc


def acl_text(users: Iterable[str], prefix: str) -> str:
    """Mosquitto's ACL for the hub and every board among ``users``."""
    out = [
        "# Written by `skitter hub boards add/revoke`: edits here are replaced.",
        "# The tournament hub reads every board and alone sends commands.",
        f"user {HUB_USER}",
        *(f"topic read {prefix}/+/{kind}" for kind in BOARD_WRITES),
        *(f"topic write {prefix}/+/{kind}" for kind in BOARD_READS),
    ]
    for board in users:
        if board == HUB_USER:
            continue
        out += ["", f"user {board}",
                *(f"topic write {prefix}/{board}/{kind}" for kind in BOARD_WRITES),
                *(f"topic read {prefix}/{board}/{kind}" for kind in BOARD_READS)]
    return "\n".join(out) + "\n"


def board_ids(count: int | None, named: Iterable[str], taken: Iterable[str],
              pattern: str = "board-{n:02d}") -> list[str]:
    """The ids to add: those ``named``, or ``count`` new ones numbered after every id
    ``pattern`` already gave (``board-01``, ``board-02``...)."""
    ids = [check_board(b) for b in named]
    if count is not None:
        if count < 1:
            raise BrokerUsersError(f"--count must be at least 1, got {count}")
        have = set(taken) | set(ids)
        wanted = len(ids) + count
        n = 1
        while len(ids) < wanted:
            candidate = pattern.format(n=n)
            if candidate not in have:
                ids.append(check_board(candidate))
            n += 1
    return ids


def check_board(board: str) -> str:
    """``board`` when it may be a board's broker user; the reason otherwise."""
    if board == HUB_USER:
        raise BrokerUsersError(f"a board cannot be called '{HUB_USER}': that is the hub's user")
    try:
        return check_board_id(board)
    except ValueError as exc:
        raise BrokerUsersError(str(exc)) from exc
