"""A real Mosquitto broker for the tests, on a free loopback port, stopped afterwards.

The broker is Debian's ``mosquitto``. Without it the MQTT tests skip on a laptop but FAIL
when ``CI`` is set (common rule: CI must not pass by skipping). Its configuration, password
file, ACL and persistence database live under the test's ``tmp_path``; ``user root`` keeps it
from dropping privileges and then failing to read the root-owned 0600 password file
(tests run as root in CI containers).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from ports import free_port
from waiting import wait_until

MOSQUITTO = "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = "/usr/bin/mosquitto_passwd"
READY_TIMEOUT = 10.0


def require_mosquitto() -> str:
    """The broker's path; skip without it, or fail when running in CI."""
    path = shutil.which("mosquitto") or (MOSQUITTO if os.path.exists(MOSQUITTO) else None)
    if path is None:
        message = "mosquitto is not installed (apt-get install -y mosquitto)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


@dataclass(frozen=True)
class TlsFiles:
    """A throw-away CA and a broker certificate for 127.0.0.1, made with ``openssl``."""

    ca: Path
    cert: Path
    key: Path


def make_tls_files(folder: Path) -> TlsFiles:
    """Create the CA and the broker's key and certificate (``openssl`` must be installed)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        message = "openssl is not installed (apt-get install -y openssl)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    folder.mkdir(parents=True, exist_ok=True)
    ca, ca_key = folder / "ca.crt", folder / "ca.key"
    key, csr, cert = folder / "broker.key", folder / "broker.csr", folder / "broker.crt"
    ext = folder / "san.ext"
    ext.write_text("subjectAltName=IP:127.0.0.1\n")
    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    for cmd in (
        [openssl, "req", "-x509", *ec, "-keyout", ca_key, "-out", ca, "-days", "2",
         "-subj", "/CN=skitter test CA"],
        [openssl, "req", *ec, "-keyout", key, "-out", csr, "-subj", "/CN=127.0.0.1"],
        [openssl, "x509", "-req", "-in", csr, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
         "-out", cert, "-days", "2", "-extfile", ext],
    ):
        subprocess.run([str(c) for c in cmd], check=True, capture_output=True)
    return TlsFiles(ca, cert, key)


class Broker:
    """One Mosquitto process; :meth:`restart` keeps its port, users, ACL and saved sessions.

    ``users`` maps user names to passwords (written with ``mosquitto_passwd``); without
    users anonymous clients are allowed. ``acl`` is the text of an ACL file; ``extra`` are
    more configuration lines (``max_queued_bytes 20000``).
    """

    def __init__(
        self,
        workdir: Path,
        *,
        users: Mapping[str, str] | None = None,
        acl: str | None = None,
        tls: TlsFiles | None = None,
        include_dir: Path | None = None,
        extra: Sequence[str] = (),
    ) -> None:
        self.binary = require_mosquitto()
        self.tls = tls
        self.include_dir = include_dir
        self.extra = tuple(extra)
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.users = dict(users or {})
        self.acl = acl
        self.log_path = self.workdir / "mosquitto.log"
        self.config_path = self._write_config()
        self._proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"

    def url_for(self, user: str, password: str | None = None) -> str:
        """The URL with ``user``'s credentials (or the ``password`` given) in it."""
        scheme = "mqtts" if self.tls else "mqtt"
        secret = self.users[user] if password is None else password
        return f"{scheme}://{user}:{secret}@127.0.0.1:{self.port}"

    def _write_config(self) -> Path:
        lines = [
            f"listener {self.port} 127.0.0.1",
            "user root",
            "persistence true",
            f"persistence_location {self.workdir}/",
            f"log_dest file {self.log_path}",
            "log_type error",
            "log_type warning",
            "log_type notice",
        ]
        if self.tls is not None:
            lines += [
                f"cafile {self.tls.ca}",
                f"certfile {self.tls.cert}",
                f"keyfile {self.tls.key}",
            ]
        if self.users:
            pw = self.workdir / "passwd"
            pw.touch(mode=0o600)
            for user, password in self.users.items():
                subprocess.run(
                    [MOSQUITTO_PASSWD, "-b", str(pw), user, password],
                    check=True,
                    capture_output=True,
                )
            os.chmod(pw, 0o600)
            lines += ["allow_anonymous false", f"password_file {pw}"]
        else:
            lines.append("allow_anonymous true")
        if self.acl is not None:
            acl = self.workdir / "acl"
            acl.write_text(self.acl)
            os.chmod(acl, 0o600)
            lines.append(f"acl_file {acl}")
        if self.include_dir is not None:
            lines.append(f"include_dir {self.include_dir}")
        lines += self.extra
        path = self.workdir / "mosquitto.conf"
        path.write_text("\n".join(lines) + "\n")
        return path

    def start(self) -> None:
        """Start the broker and wait until it accepts connections."""
        if self._proc is not None:
            raise RuntimeError("broker already running")
        self._proc = subprocess.Popen(
            [self.binary, "-c", str(self.config_path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        proc = self._proc

        def listening() -> bool:
            if proc.poll() is not None:
                err = proc.stderr.read().decode() if proc.stderr else ""
                self._proc = None
                log = self.log_path.read_text() if self.log_path.exists() else ""
                raise RuntimeError(f"mosquitto exited at start: {err}{log}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return True
            except OSError:
                return False

        try:
            wait_until(listening, f"mosquitto listening on port {self.port}",
                       timeout=READY_TIMEOUT, every=0.02)
        except AssertionError:
            self.stop()
            raise RuntimeError(f"mosquitto did not listen on port {self.port} in time") from None

    def stop(self) -> None:
        """Stop the broker (it saves its sessions); safe to call when stopped."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)
        if proc.stderr:
            proc.stderr.close()

    def restart(self) -> None:
        self.stop()
        self.start()

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        """The broker's process id while started (a bench reads its CPU time)."""
        return None if self._proc is None else self._proc.pid


def broker_fixture(
    tmp_path: Path, *, users: Mapping[str, str] | None = None, acl: str | None = None
) -> Iterator[Broker]:
    """Start a broker, yield it, and always stop it (use inside a pytest fixture)."""
    broker = Broker(tmp_path / "broker", users=users, acl=acl)
    broker.start()
    try:
        yield broker
    finally:
        broker.stop()


SHIPPED = Path(__file__).resolve().parents[2] / "hardware" / "mosquitto"
"""The broker configuration and ACL the project ships."""


def shipped_broker(tmp_path: Path, users: Mapping[str, str]) -> Broker:
    """A broker (not started) running the shipped ``skitter.conf`` and ACL as an
    administrator installs them, with ``/etc/mosquitto/`` moved to ``tmp_path`` and the
    listener replaced by the test's loopback one."""
    etc = tmp_path / "etc"
    (etc / "conf.d").mkdir(parents=True)
    conf = (SHIPPED / "skitter.conf").read_text().replace("/etc/mosquitto/", f"{etc}/")
    conf = "\n".join(line for line in conf.splitlines() if not line.startswith("listener "))
    (etc / "conf.d" / "skitter.conf").write_text(conf + "\n")
    (etc / "skitter.acl").write_text((SHIPPED / "acl").read_text())
    passwd = etc / "skitter.passwd"
    passwd.touch(mode=0o600)
    for user, password in users.items():
        subprocess.run([MOSQUITTO_PASSWD, "-b", str(passwd), user, password], check=True,
                       capture_output=True)
    broker = Broker(tmp_path / "broker", include_dir=etc / "conf.d")
    broker.users = dict(users)
    return broker
