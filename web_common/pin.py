"""The referee PIN, kept only as a salted scrypt hash.

Whoever holds the PIN may change a match, so it never rests on disk in clear: the data
directory holds ``referee-pin`` (mode 0600) with one line ``scrypt$n=...,r=...,p=...$SALT$HASH``
(base64). A ``pin_hash`` in the configuration file wins over that file, so a venue can fix the
PIN in ``/etc/skitter/skitter.toml``. On first start ``skitter serve`` generates a 6-digit PIN,
stores its hash and prints the PIN once; ``skitter set-pin`` replaces it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from firmware_bridge.files import replace_file

PIN_FILE_NAME = "referee-pin"
"""The PIN hash file inside the data directory."""

PIN_ENV = "SKITTER_PIN"
"""The referee PIN from the environment (``--pin-file`` and ``--pin`` win over it)."""

PIN_MIN_DIGITS = 4
PIN_MAX_DIGITS = 12
GENERATED_PIN_DIGITS = 6


@dataclass(frozen=True)
class ScryptCost:
    """scrypt's parameters: ``n`` (work factor, a power of two), ``r`` (block size), ``p``."""

    n: int
    r: int
    p: int


PIN_COST = ScryptCost(n=2**12, r=8, p=4)
"""What a new PIN hash costs. scrypt's work area is 128 * r * n bytes: n=2**12, r=8 is 4 MiB,
where the common 2**14 would add 16 MiB to the server's resident memory at every check (glibc
keeps the block) on a Pi whose budget is 80 MB. p=4 keeps the CPU cost of a guess about the
same (~50 ms). Hashes carry their parameters, so PINs stored with other settings still verify.
The test suite lowers it (the ``cheap_pin_hashes`` fixture in tests/conftest.py): a check is
~50 ms here, often 0.5 s on a busy machine, and most web tests set a PIN and log in."""

_DKLEN = 32
_HASH_RE = re.compile(
    r"^scrypt\$n=(?P<n>\d+),r=(?P<r>\d+),p=(?P<p>\d+)\$(?P<salt>[A-Za-z0-9+/=]+)\$(?P<hash>[A-Za-z0-9+/=]+)$"
)


class PinError(ValueError):
    """A PIN or PIN file that cannot be used; the message says what to do."""


def check_pin_format(pin: str) -> str:
    """The PIN without surrounding spaces; raise :class:`PinError` unless it is 4–12 digits.

    The message never repeats the PIN: it may be typed where others can read the screen.
    """
    if not isinstance(pin, str):
        raise PinError("the referee PIN must be text made of digits")
    pin = pin.strip()
    if not pin:
        raise PinError(
            f"the referee PIN is empty: it must have {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits"
        )
    if not pin.isascii() or not pin.isdigit():
        raise PinError("the referee PIN may contain only the digits 0-9")
    if not PIN_MIN_DIGITS <= len(pin) <= PIN_MAX_DIGITS:
        raise PinError(
            f"the referee PIN must have {PIN_MIN_DIGITS} to {PIN_MAX_DIGITS} digits, "
            f"got {len(pin)}"
        )
    return pin


def pin_given(
    on_command_line: str | None, pin_file: str | Path | None, environ: Mapping[str, str]
) -> str | None:
    """The PIN to set from ``--pin``, else ``--pin-file``'s first line, else ``$SKITTER_PIN``.

    None when none is given. Raises :class:`PinError` for an unreadable or empty file.
    """
    if on_command_line is not None:
        return on_command_line
    if pin_file is not None:
        path = Path(pin_file).expanduser()
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as exc:
            raise PinError(f"cannot read the PIN file {path}: {exc.__class__.__name__}") from None
        if not lines or not lines[0].strip():
            raise PinError(f"the PIN file {path} is empty")
        return lines[0]
    return environ.get(PIN_ENV) or None


def generate_pin(digits: int = GENERATED_PIN_DIGITS) -> str:
    """A random PIN from the system's secure random source."""
    return "".join(secrets.choice("0123456789") for _ in range(digits))


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """The storable hash of a valid PIN at :data:`PIN_COST` (raises :class:`PinError` for an
    invalid one)."""
    pin = check_pin_format(pin)
    salt = salt if salt is not None else secrets.token_bytes(16)
    cost = PIN_COST  # read at every call, so the test suite's lower cost takes effect
    digest = _scrypt(pin, salt, cost.n, cost.r, cost.p)
    return f"scrypt$n={cost.n},r={cost.r},p={cost.p}${_b64(salt)}${_b64(digest)}"


def is_pin_hash(text: str) -> bool:
    """True when ``text`` looks like a hash made by :func:`hash_pin`."""
    return _parse(text) is not None


def verify_pin(pin: object, hashed: str) -> bool:
    """True when ``pin`` matches ``hashed``; compares in constant time, never raises."""
    parsed = _parse(hashed)
    if parsed is None or not isinstance(pin, str):
        return False
    n, r, p, salt, expected = parsed
    candidate = pin.strip()
    if not candidate or len(candidate) > 64:
        return False
    return hmac.compare_digest(_scrypt(candidate, salt, n, r, p), expected)


class PinStore:
    """The referee PIN of one data directory, or the one fixed by the configuration.

    ``pin_hash`` (from ``Settings.pin_hash``) wins over the file: :meth:`ensure` then creates
    nothing, and :meth:`verify` checks against it until :meth:`set` replaces it. Otherwise the
    file is read at every check, so ``skitter set-pin`` takes effect without a restart; if the
    file vanishes or is damaged while the program runs, the last good hash stays in force.
    """

    def __init__(self, data_dir: str | Path, pin_hash: str | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / PIN_FILE_NAME
        if pin_hash is not None and not is_pin_hash(pin_hash):
            raise PinError("pin_hash is not a PIN hash made by 'skitter set-pin'")
        self._configured = pin_hash
        self._override: str | None = pin_hash
        self._last_from_file: str | None = None

    @property
    def from_config(self) -> bool:
        """True when the configuration's ``pin_hash`` is the PIN in force."""
        return self._configured is not None and self._override == self._configured

    def current_hash(self) -> str | None:
        """The hash in force (configuration first, then the file), or None when none is set.

        Raises :class:`PinError` for an unreadable or damaged file when no good hash was seen.
        """
        if self._override is not None:
            return self._override
        try:
            text = self.path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            return self._last_from_file
        except (OSError, UnicodeDecodeError) as exc:
            if self._last_from_file is not None:
                return self._last_from_file
            raise PinError(f"cannot read the referee PIN file {self.path}: {exc}") from exc
        if not is_pin_hash(text):
            if self._last_from_file is not None:
                return self._last_from_file
            raise PinError(
                f"{self.path} does not hold a referee PIN hash; "
                "run 'skitter set-pin' to replace it"
            )
        self._last_from_file = text
        return text

    def ensure(self) -> str | None:
        """Make sure a PIN exists; return a newly generated PIN (to print once), else None."""
        if self.current_hash() is not None:
            return None
        pin = generate_pin()
        self.set(pin)
        return pin

    def verify(self, pin: object) -> bool:
        """True when ``pin`` is the referee PIN; False for anything else, never raises."""
        try:
            hashed = self.current_hash()
        except PinError:
            return False
        return hashed is not None and verify_pin(pin, hashed)

    def set(self, pin: str) -> str:
        """Replace the PIN (4–12 digits) in the file; return the stored hash."""
        hashed = hash_pin(pin)
        self.set_hash(hashed)
        return hashed

    def keep(self, pin: str) -> bool:
        """Make ``pin`` the PIN in force, keeping the stored hash (and so every session
        bound to it) when it already is; True when the PIN changed. What a start with
        ``--pin``/``--pin-file``/``$SKITTER_PIN`` does: hashing it anew (a new salt) would
        end every session at every restart."""
        if self.verify(pin):
            return False
        self.set(pin)
        return True

    def set_hash(self, hashed: str) -> None:
        """Store an already computed hash (``skitter set-pin`` also writes it elsewhere)."""
        if not is_pin_hash(hashed):
            raise PinError("not a PIN hash made by 'skitter set-pin'")
        write_pin_file(self.path, hashed)
        self._last_from_file = hashed
        if self._override is not None:
            self._override = hashed


def write_pin_file(path: Path, hashed: str) -> None:
    """Write the hash atomically with mode 0600 (the directory is created when missing).

    Run as root into a directory someone else owns (``sudo skitter set-pin`` on the Pi), the
    file is handed to the directory's owner so the service can still read it.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    owner = None
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        folder = path.parent.stat()
        owner = (folder.st_uid, folder.st_gid)
    replace_file(path, hashed + "\n", mode=0o600, encoding="ascii", owner=owner)


def _parse(text: object) -> tuple[int, int, int, bytes, bytes] | None:
    if not isinstance(text, str):
        return None
    match = _HASH_RE.match(text.strip())
    if not match:
        return None
    n, r, p = int(match["n"]), int(match["r"]), int(match["p"])
    # Refuse parameters that would make each check absurdly slow or memory hungry.
    if not (2 <= n <= 2**20 and n & (n - 1) == 0 and 1 <= r <= 32 and 1 <= p <= 16):
        return None
    try:
        salt = base64.b64decode(match["salt"], validate=True)
        digest = base64.b64decode(match["hash"], validate=True)
    except ValueError:
        return None
    if len(salt) < 8 or len(digest) < 16:
        return None
    return n, r, p, salt, digest


def _scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        pin.encode("utf-8"), salt=salt, n=n, r=r, p=p, maxmem=256 * 1024 * 1024, dklen=_DKLEN
    )


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")
