"""Referee sessions that survive a restart and end with a PIN change or a logout.

A session is a token signed (``itsdangerous``) with a secret kept in the data directory
(``session-secret``, mode 0600, made on first use), so a restart of ``skitter serve`` keeps
the tablets logged in mid-match. The token holds its id, its expiry (wall time), the port it
was issued on and a mark of the PIN hash in force when it was issued. It is refused when:

- the signature does not hold (forged, or made with another data directory's secret);
- it has expired (``SESSION_LIFETIME``, by the wall clock, which a reboot does not reset),
  or the wall clock was set back by more than ``CLOCK_SLACK`` since it was issued;
- it came to another port: the browser sends a host's cookies to every port of it, so the
  cookie is also *named* per port (``skitter_session_8080``) and a server on another port of
  the same host neither overwrites it nor receives a usable one;
- the PIN changed since (``skitter set-pin`` while serving: the PIN file is read at each check,
  so every old session ends at once);
- it was logged out: ended ids are kept in ``sessions-ended`` beside the secret until they
  would have expired anyway, so a logout holds over a restart too.

Without a data directory (unit tests) the secret lives in memory only.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from itsdangerous import BadSignature, URLSafeSerializer

from firmware_bridge.files import replace_file
from scorekeeper.clock import Clock

COOKIE = "skitter_session"
"""The cookie's name before its port (``skitter_session_8080``)."""
SESSION_LIFETIME = 24 * 3600.0
CLOCK_SLACK = 3600.0
"""How far a session's expiry may lie beyond a whole lifetime from now: more, and the wall
clock was set back since it was issued (a session would otherwise last as long as the jump),
so it is refused."""
SECRET_FILE = "session-secret"
ENDED_FILE = "sessions-ended"
SALT = "skitter-referee-session"


def cookie_name(port: int | None) -> str:
    """The session cookie of the server on ``port`` (browsers send a host's cookies to all
    its ports, so each server reads only its own)."""
    return f"{COOKIE}_{port}" if port else COOKIE


@dataclass(frozen=True)
class Session:
    """A referee's login."""

    token: str
    started: float
    expires: float


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` atomically with mode 0600 (the directory is made when missing)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(path, text, mode=0o600, encoding="ascii")


def load_secret(data_dir: Path | None) -> bytes:
    """The data directory's session secret, made on first use; in memory when there is no
    directory or it cannot be written (sessions then end with the process)."""
    if data_dir is None:
        return secrets.token_bytes(32)
    path = data_dir / SECRET_FILE
    with contextlib.suppress(OSError, ValueError):
        text = path.read_text(encoding="ascii").strip()
        if len(text) >= 64:
            return bytes.fromhex(text)
    secret = secrets.token_bytes(32)
    with contextlib.suppress(OSError):
        _write_private(path, secret.hex() + "\n")
    return secret


class Sessions:
    """Signed referee sessions (see the module docstring). ``pin_hash`` gives the PIN hash
    in force (None: sessions are not bound to a PIN); ``clock`` is wall time."""

    def __init__(self, clock: Clock, data_dir: str | Path | None = None,
                 pin_hash: Callable[[], str | None] | None = None) -> None:
        self._clock = clock
        self._dir = Path(data_dir) if data_dir is not None else None
        self._pin_hash = pin_hash or (lambda: None)
        secret = load_secret(self._dir)
        self._secret = secret
        self._signer = URLSafeSerializer(secret, salt=SALT)
        self._ended: dict[str, float] = self._load_ended()

    # -- the PIN's mark -----------------------------------------------------------------------

    def _pin_mark(self) -> str | None:
        """A keyed digest of the PIN hash in force ('-' when none is bound), or None when
        the PIN cannot be read (then no session holds)."""
        try:
            hashed = self._pin_hash()
        except Exception:  # noqa: BLE001 - an unreadable PIN file ends sessions, never crashes
            return None
        if hashed is None:
            return "-"
        return hmac.new(self._secret, hashed.encode(), hashlib.sha256).hexdigest()[:24]

    # -- open, check, close -------------------------------------------------------------------

    def open(self, port: int | None = None) -> Session:
        now = self._clock.now()
        expires = now + SESSION_LIFETIME
        token = self._signer.dumps({"i": secrets.token_urlsafe(16), "e": expires, "p": port,
                                    "k": self._pin_mark()})
        return Session(token, now, expires)

    def _claims(self, token: str | None) -> dict[str, object] | None:
        if not token or len(token) > 512:
            return None
        try:
            claims = self._signer.loads(token)
        except BadSignature:
            return None
        return claims if isinstance(claims, dict) else None

    def get(self, token: str | None, port: int | None = None) -> Session | None:
        """The live session for ``token`` on ``port``, or None (forged, expired, another
        port's, from before a PIN change, or logged out)."""
        claims = self._claims(token)
        if claims is None:
            return None
        expires = claims.get("e")
        now = self._clock.now()
        if not isinstance(expires, (int, float)) or now >= expires \
                or expires - now > SESSION_LIFETIME + CLOCK_SLACK:
            return None
        mark = self._pin_mark()
        if claims.get("p") != port or mark is None or claims.get("k") != mark:
            return None
        if claims.get("i") in self._ended:
            return None
        assert token is not None
        return Session(token, expires - SESSION_LIFETIME, float(expires))

    def close(self, token: str | None) -> None:
        """End the session for good (kept as ended until it would have expired)."""
        claims = self._claims(token)
        if claims is None or not isinstance(claims.get("i"), str):
            return
        expires = claims.get("e")
        self._ended[str(claims["i"])] = float(expires) if isinstance(expires, (int, float)) \
            else self._clock.now() + SESSION_LIFETIME
        now = self._clock.now()
        self._ended = {k: v for k, v in self._ended.items() if v > now}
        if self._dir is not None:
            with contextlib.suppress(OSError):
                _write_private(self._dir / ENDED_FILE, json.dumps(self._ended))

    def _load_ended(self) -> dict[str, float]:
        if self._dir is None:
            return {}
        try:
            data = json.loads((self._dir / ENDED_FILE).read_text(encoding="ascii"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        now = self._clock.now()
        return {str(k): float(v) for k, v in data.items()
                if isinstance(v, (int, float)) and v > now}
