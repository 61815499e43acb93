"""Each board's credentials file (for its ``install.sh``) and the QR code of its referee page.

``skitter hub boards add`` writes, for every board, ``<id>.env``: the board id, the broker's
address and the board's broker password as ``KEY=value`` lines, which
``install.sh --board-credentials FILE`` reads (it never runs the file as a script). The hub's
own user gets ``hub.env``, which the hub's unit reads (``EnvironmentFile=``). The files hold a
password: they are made readable by their owner only.

Beside each board's file goes ``<id>-referee.png``, a QR code of the board's referee page
(``http://<id>.local:8000/referee`` unless told otherwise), to stick on the table so the
referee's phone finds it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import segno

from firmware_bridge.files import replace_file
from hub.broker_users import HUB_USER

KEYS = ("SKITTER_BOARD_ID", "SKITTER_MQTT_URL", "SKITTER_MQTT_USERNAME", "SKITTER_MQTT_PASSWORD")
"""The keys of a credentials file, in its order (``install.sh`` reads exactly these)."""


@dataclass(frozen=True)
class BoardCredentials:
    """A broker user: a board (its id is its user name) or the hub."""

    board: str
    url: str
    """The broker as the board reaches it, ``mqtt://host[:port]`` (no password in it)."""
    password: str

    def text(self) -> str:
        """The credentials file's content."""
        if self.board == HUB_USER:
            head = ["# The tournament hub's broker user (made by `skitter hub boards add`).",
                    "# The hub's unit reads it: /etc/skitter/hub.env (owner root, mode 0600)."]
            values = {"SKITTER_MQTT_URL": self.url, "SKITTER_MQTT_USERNAME": self.board,
                      "SKITTER_MQTT_PASSWORD": self.password}
        else:
            head = [f"# Board {self.board}: its broker user (made by `skitter hub boards add`).",
                    "# On the board: sudo hardware/pi/install.sh --board-credentials "
                    f"{self.board}.env"]
            values = {"SKITTER_BOARD_ID": self.board, "SKITTER_MQTT_URL": self.url,
                      "SKITTER_MQTT_USERNAME": self.board, "SKITTER_MQTT_PASSWORD": self.password}
        return "\n".join([*head, *(f"{k}={values[k]}" for k in KEYS if k in values)]) + "\n"


def read_credentials(path: Path) -> dict[str, str]:
    """The ``KEY=value`` lines of a credentials file (comments and blank lines skipped)."""
    out = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, value = line.partition("=")
            out[key] = value
    return out


def write_board_files(folder: Path, credentials: BoardCredentials,
                      page_url: str) -> tuple[Path, ...]:
    """Write ``<id>.env`` (mode 0600) and, for a board, ``<id>-referee.png``; their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    env = folder / f"{credentials.board}.env"
    replace_file(env, credentials.text(), mode=0o600, sync=True)
    if credentials.board == HUB_USER:
        return (env,)
    qr = folder / f"{credentials.board}-referee.png"
    segno.make(page_url.format(board=credentials.board), error="m").save(
        str(qr), scale=8, border=2)
    return env, qr
