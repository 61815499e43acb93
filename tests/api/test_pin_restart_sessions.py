"""A PIN given at start (``$SKITTER_PIN``, ``--pin-file``) keeps the referee signed in over a
restart; a changed PIN ends the sessions. Both ``skitter serve`` and ``skitter hub`` start
through their real argument handling; the server itself is not run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from scorekeeper.clock import FakeClock
from skitter_cli import hub as hub_cli
from skitter_cli import serve as serve_cli
from skitter_cli.main import build_parser
from tournament_wire.wire import WireError
from web.api.deps import Auth
from web_common.pin import PinStore


def start_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pin: str) -> PinStore:
    """``skitter serve --pin-file`` as far as the server's start: the PIN store it serves."""
    seen: list[PinStore] = []

    def no_server(settings: Any, pins: PinStore, new_pin: str | None, t: Any) -> int:
        seen.append(pins)
        return 0

    monkeypatch.setattr(serve_cli, "serve", no_server)
    pin_file = tmp_path / "pin.txt"
    pin_file.write_text(pin + "\n")
    for key in ("SKITTER_PIN", "SKITTER_CONFIG", "SKITTER_DATA"):
        monkeypatch.delenv(key, raising=False)
    args = build_parser().parse_args(["serve", "--data-dir", str(tmp_path / "data"),
                                      "--pin-file", str(pin_file)])
    assert serve_cli.run(args) == 0
    return seen[0]


def start_hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pin: str) -> PinStore:
    """``SKITTER_PIN=... skitter hub`` as far as the hub's start: the PIN store it uses."""
    seen: list[PinStore] = []

    def no_hub(settings: Any, store: Any, pins: PinStore, **_: Any) -> Any:
        seen.append(pins)
        raise WireError("stopped by the test before serving")

    monkeypatch.setattr(hub_cli, "build", no_hub)
    monkeypatch.setenv("SKITTER_PIN", pin)
    args = build_parser().parse_args(["hub", "--db", str(tmp_path / "hub" / "hub.db"),
                                      "--mqtt", "mqtt://127.0.0.1:1"])
    hub_cli.run(args)
    return seen[0]


@pytest.mark.parametrize("start", [start_board, start_hub], ids=["board", "hub"])
def test_the_same_pin_at_a_restart_keeps_the_referee_signed_in(
    start: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    wall = FakeClock(1_700_000_000.0)
    first = Auth.create(start(tmp_path, monkeypatch, "482916"), wall)
    session = first.sessions.open(8000)

    again = Auth.create(start(tmp_path, monkeypatch, "482916"), wall)
    assert again.sessions.get(session.token, 8000) is not None

    changed = Auth.create(start(tmp_path, monkeypatch, "775511"), wall)
    assert changed.sessions.get(session.token, 8000) is None
    assert changed.pins.verify("775511") and not changed.pins.verify("482916")
