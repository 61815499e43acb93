"""CPU the board's tournament link spends per step, early and late in a long match.

    python bench/board_link.py [--steps 2000] [--seed 15] [--window 5]

A seeded match (``tests/matchgen.py``) is stored one step at a time in a board's match log;
after each step the link (``web.tournament.mqtt_board.BoardLink``) does what its thread does
when woken: it reads what is new, folds the state after each new step and publishes the event
and the retained state. Its thread CPU for that one wake-up is measured for each of the
``--window`` steps ending at step 10 and at the last step, and the median printed. Between
the two windows the link is woken once, to publish the steps stored meanwhile (not
measured), so a link that replays the whole match still finishes in seconds.
A link that replays the match from step one on every step costs more the longer the match
is; one that applies only the new steps costs the same at step 10 and at step 2,000.

No broker is started: the link is told it is connected and paho queues what it is handed, so
the figure is the link's own work (read, fold, encode, hand to paho), not the network's.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from machine import print_header
from matchgen import RULES, SETUP, random_steps

from scorekeeper.store import MatchStore
from tournament_wire.broker import MqttSettings
from web.tournament.mqtt_board import BoardLink

NAMES = {"black": "Annabel", "white": "Bartholomew"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--window", type=int, default=5)
    args = parser.parse_args()
    print_header("the board's tournament link: CPU per step")
    steps = list(random_steps(args.steps, seed=args.seed))
    early_steps = range(10 - args.window + 1, 11)
    late_steps = range(len(steps) - args.window + 1, len(steps) + 1)
    early: list[float] = []
    late: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, MatchStore(Path(tmp) / "board.db") as store:
        match_id = store.create_match(RULES.to_json(), SETUP.to_json(), NAMES, at=0.0)
        link = BoardLink("b1", MqttSettings(url="mqtt://127.0.0.1"), store,
                         current_match=lambda: match_id, on_command=lambda c: None,
                         clock=lambda: 0.0)
        link.connected = True  # paho queues every publish; no broker is needed to measure
        try:
            for i, step in enumerate(steps, 1):
                store.append(match_id, step, at=float(i), source="sensor")
                window = early if i in early_steps else late if i in late_steps else None
                if window is None:
                    if i + 1 in late_steps:
                        link.step()  # publish the backlog before the late window
                    continue
                start = time.thread_time()
                link.step()
                window.append(time.thread_time() - start)
            published = link._handed[match_id]
        finally:
            link._outbox.close()
            if link._reader is not None:
                link._reader.close()
    if published != len(steps):
        print(f"bench bug: the link handed {published} of {len(steps)} steps to paho")
        return 1
    at_10 = statistics.median(early) * 1000
    at_end = statistics.median(late) * 1000
    print(f"steps: {len(steps)}, each figure the median of {args.window} steps")
    print(f"CPU per step at step 10:    {at_10:8.3f} ms")
    print(f"CPU per step at step {len(steps):,}: {at_end:8.3f} ms  ({at_end / at_10:.1f}x step 10)")
    print(f"Result: {at_10:.3f} ms a step at step 10, {at_end:.3f} ms at step {len(steps):,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
