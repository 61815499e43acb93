"""``skitter serve`` in a child process on a free loopback port, for benchmarks and tests.

The server is started exactly as a user starts it (``python -m skitter_cli.main serve``), with its
own data directory and a known PIN, so what is measured is what runs at a venue.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import psutil
from ports import free_port
from waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
PIN = "246810"


# -- plain helpers for tests that drive the child through its output and signals --------

def start(data: Path, port: int, *extra: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
    env["HOME"] = str(data)
    return subprocess.Popen(
        [sys.executable, "-m", "skitter_cli.main", "serve", "--data-dir", str(data),
         "--port", str(port),
         *extra],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )


def wait_ready(port: int, proc: subprocess.Popen[str]) -> dict:
    def answer() -> dict | None:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited: {proc.stdout.read() if proc.stdout else ''}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=1) as r:
                return json.loads(r.read())  # type: ignore[no-any-return]
        except OSError:
            return None

    return wait_until(answer, "skitter serve's first state", timeout=20, every=0.05)


def stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=20)
    assert proc.returncode == 0, out
    return out


def ctrl_c(proc: subprocess.Popen[str], what: str, said: str = "", timeout: float = 20) -> str:
    """A Ctrl-C to ``proc`` and what it said after (its output read as one); an
    AssertionError naming ``what``, with ``said`` before and all it said since, when it has
    not stopped within ``timeout`` seconds."""
    proc.send_signal(signal.SIGINT)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        raise AssertionError(f"{what} did not stop within {timeout:g} s of a Ctrl-C:\n"
                             f"{said}{out}") from None
    return out

def post(port: int, path: str, body: dict, cookie: str = "") -> tuple[int, dict, str]:
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", data=json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json", "Cookie": cookie},
    )
    with urllib.request.urlopen(req, timeout=5) as r:
        return r.status, json.loads(r.read()), r.headers.get("set-cookie", "")



def code_in(folder: Path) -> list[str]:
    """``skitter serve`` run from the code in ``folder`` (another checkout, ahead of this one
    on the path), for :class:`ServeProcess`'s ``command``: a benchmark's "before"."""
    start = (f"import sys; sys.path.insert(0, {str(folder.resolve())!r}); "
             "from skitter_cli.main import main; sys.exit(main())")
    return [sys.executable, "-c", start, "serve"]


class ServeProcess:
    """One ``skitter serve`` child; ``cookie`` is the referee's once :meth:`login` ran."""

    def __init__(self, data_dir: Path, *extra: str, command: list[str] | None = None,
                 pin: str | None = PIN, port: int | None = None) -> None:
        """``pin`` None: no ``--pin`` (the PIN stored in ``data_dir`` is used, as at a
        restart; no PIN hashing at start). ``port``: a given one (a restart on the address
        the pages already use) instead of a free one."""
        self.data_dir = data_dir
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.cookie = ""
        self.seq: int | None = None
        """The ``seq`` of the last state this client saw (a change is made against it)."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("SKITTER_")}
        env["HOME"] = str(data_dir)
        argv = command or [sys.executable, "-m", "skitter_cli.main", "serve"]
        pin_args = [] if pin is None else ["--pin", pin]
        self.started = time.perf_counter()
        """When the child was started (``time.perf_counter``)."""
        self.proc = subprocess.Popen(
            [*argv, "--data-dir", str(data_dir), "--port", str(self.port), *pin_args, *extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )
        self.process = psutil.Process(self.proc.pid)

    # -- life ------------------------------------------------------------------------------

    def wait_ready(self, timeout: float = 30.0, interval: float = 0.05) -> dict[str, Any]:
        """The first state the server publishes, asked for every ``interval`` seconds."""
        def answer() -> dict[str, Any] | None:
            if self.proc.poll() is not None:
                out = self.proc.stdout.read() if self.proc.stdout else ""
                raise RuntimeError(f"skitter serve exited: {out[-2000:]}")
            try:
                return self.get("/api/state")  # type: ignore[no-any-return]
            except OSError:
                return None

        try:
            return wait_until(answer, "skitter serve's first state", timeout=timeout,
                              every=interval)
        except AssertionError:
            raise RuntimeError(f"skitter serve did not answer within {timeout} s") from None

    def stop(self) -> str:
        """Ctrl-C, as a user stops it; the output it printed."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
        try:
            out, _ = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, _ = self.proc.communicate()
        return out

    def __enter__(self) -> ServeProcess:
        self.wait_ready()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP ------------------------------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path, data=data, method=method,
            headers={"Content-Type": "application/json", "Cookie": self.cookie},
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as response:
                if path == "/api/referee/login":
                    self.cookie = (response.headers.get("set-cookie") or "").split(";")[0]
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read() or b"null")

    def get(self, path: str) -> Any:
        status, body = self.request("GET", path)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {body}")
        return body

    def post(self, path: str, body: Any) -> Any:
        status, answer = self.request("POST", path, body)
        if status != 200:
            raise RuntimeError(f"POST {path} {body}: {status} {answer}")
        return answer

    def login(self) -> None:
        self.post("/api/referee/login", {"pin": PIN})

    def step(self, step: dict[str, Any]) -> dict[str, Any]:
        """Apply one step against the last ``seq`` seen (refreshed when it went stale)."""
        for _ in range(3):
            if self.seq is None:
                self.seq = int(self.get("/api/state")["seq"])
            status, answer = self.request("POST", "/api/match/steps",
                                          {"seq": self.seq, "step": step})
            if status == 200:
                self.seq = int(answer["seq"])
                return answer  # type: ignore[no-any-return]
            if status != 409:
                raise RuntimeError(f"step {step}: {status} {answer}")
            self.seq = int(answer["state"]["seq"])
        raise RuntimeError(f"step {step}: stale three times")

    # -- memory ----------------------------------------------------------------------------

    def rss_mb(self) -> float:
        return float(self.process.memory_info().rss) / 2**20

    def peak_rss_mb(self) -> float:
        """The high-water mark of resident memory (Linux ``VmHWM``), else the current RSS."""
        try:
            for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
        except OSError:
            pass
        return self.rss_mb()
