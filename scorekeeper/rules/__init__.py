"""The rules of skitter as pure functions: :func:`apply` turns a state and an event into a
:class:`Transition` (the new state and its effects). One module per part of the rulebook:

- :mod:`~scorekeeper.rules.checks`: refusals (R1, R2, R11, R16, R17, R20) and R8,
- :mod:`~scorekeeper.rules.scoring`: R3, R4, R7 (and R15 points),
- :mod:`~scorekeeper.rules.classic`: one classic shot in R10's order (R5, R6, R15),
- :mod:`~scorekeeper.rules.big`: R11, R12; :mod:`~scorekeeper.rules.flipping`: R16,
- :mod:`~scorekeeper.rules.trio`: R17; :mod:`~scorekeeper.rules.rounds`: R2, R13, R14,
- :mod:`~scorekeeper.rules.corrections`: R19; :mod:`~scorekeeper.rules.decisions`: late R4/R16.
"""

from scorekeeper.rules.apply import apply
from scorekeeper.rules.tally import Transition

__all__ = ["Transition", "apply"]
