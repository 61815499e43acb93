"""Bytes the hub keeps per received step: its event rows, column by column, and the file.

    python bench/hub_rows.py [--steps 1000] [--seed 15]

A long seeded match (``tests/support/matchgen.py``) is written to a board's match log, each step's
state is folded as the board publishes it (``web.tournament.board_states``), and every step
goes into a hub file as the hub receives it. Printed: the state as a board sends it, the
part the hub keeps (``STATE_KEYS``), the event and the names, and the hub file's bytes per
step once the WAL is folded in.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path

from machine import print_header
from matchgen import RULES, SETUP, random_steps
from review_size import file_size

from hub.model import ReceivedEvent
from hub.store import HubStore
from hub.store.received import kept_state
from scorekeeper.store import MatchStore
from tournament_wire import wire
from web.tournament.board_states import replay_states

NAMES = {"black": "Annabel", "white": "Bartholomew"}


def size(value: object) -> int:
    return len(json.dumps(value, separators=(",", ":"), sort_keys=True))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    print_header("the hub's event rows: bytes per step")
    with tempfile.TemporaryDirectory() as tmp:
        with MatchStore(Path(tmp) / "board.db") as board:
            match_id = board.create_match(RULES.to_json(), SETUP.to_json(), NAMES, at=0.0)
            for i, step in enumerate(random_steps(args.steps, seed=args.seed), 1):
                board.append(match_id, step, at=float(i), source="sensor")
            stored = board.load(match_id)
        states = replay_states(stored)
        if any(s is None for s in states):
            print("bench bug: the board could not fold its own log")
            return 1
        sent = kept = body = names = 0
        hub_path = Path(tmp) / "hub.db"
        hub = HubStore(hub_path)
        try:
            for ev, state in zip(stored.events, states, strict=True):
                assert state is not None
                received = ReceivedEvent(wire.event_id("b1", match_id, ev.seq), "b1", match_id,
                                         ev.seq, ev.at, ev.source, ev.body, state, NAMES)
                hub.add_event(received, received_at=ev.at)
                sent += size(state)
                kept += size(kept_state(state))
                body += size(ev.body)
                names += size(NAMES)
        finally:
            hub.close()
        total = file_size(hub_path)
    n = len(stored.events)
    print(f"steps: {n}")
    print(f"per step, mean JSON bytes: state as sent {sent / n:.0f}, state kept {kept / n:.0f}, "
          f"event {body / n:.0f}, names {names / n:.0f}")
    print(f"hub file: {total:,} bytes = {total / n:.0f} bytes per step")
    print(f"Result: the hub keeps {total / n:.0f} bytes per step "
          f"({kept / n:.0f} of them the trimmed state, {sent / n:.0f} as sent)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
