"""The child of the SIGKILL test: a table on a match log that applies steps and acks them.

Run as ``python tests/support/kill_child.py DB``. It opens the table as ``skitter serve`` does
(``web.table.wiring.open_table``: the newest match in DB is replayed), prints one JSON line with
the number of steps in the log and the match state, then reads steps from stdin, one JSON
object a line, applies each through ``Table.apply_step`` (store first, then the live match)
and prints ``ack SEQ`` once it returned: an acknowledged step is committed. The parent
kills it with SIGKILL at a random moment.
"""

from __future__ import annotations

import json
import sys

from firmware_bridge.clocks import MonotonicClock, WallClock
from web.table.wiring import open_table


def main(db: str) -> int:
    table = open_table(db, "sim", clock=MonotonicClock(), wall=WallClock())
    out = sys.stdout
    out.write(json.dumps({"steps": len(table.log), "state": table.match.state.to_json()}) + "\n")
    out.flush()
    for line in sys.stdin:
        table.apply_step(json.loads(line))
        out.write(f"ack {table.log.entries[-1].seq}\n")
        out.flush()
    table.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1]))
