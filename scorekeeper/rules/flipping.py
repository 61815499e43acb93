"""R16 Flipping (advanced option): blockades after a clearing, penalties for landing on
them, the unblock right, blockades knocked loose, and being blocked in.

A blockade is a flipped skitt from the pot covering a colour field; it is not counted as a
skitt on the field and the field scores nothing while covered.
"""

from __future__ import annotations

from collections.abc import Mapping

from scorekeeper.effects import EffectKind, Reason, where
from scorekeeper.errors import Field, Player
from scorekeeper.phrases import field_slot, slot
from scorekeeper.rules.checks import refuse
from scorekeeper.rules.tally import Tally
from scorekeeper.shot import Landing, Shot
from scorekeeper.state import PendingUnblock


def knock_blockades_loose(t: Tally, shot: Shot) -> list[str]:
    """Each blockade knocked loose unblocks its field for the whole shot; until it lands
    (:func:`land_blockade`) it counts as back in the pot. Returns where each landed, in
    order."""
    landings: list[str] = []
    for src, dst in shot.blockade:
        t.blocked.discard(src)
        t.pot += 1
        t.note(EffectKind.UNBLOCK, None, Reason.FLIPPING,
               f"the blockade on {where(src)} was knocked loose", src)
        landings.append(dst)
    return landings


def land_blockade(t: Tally, dst: str) -> None:
    """Where the loose blockade ends (no penalty either way): an empty unblocked colour
    field becomes blocked; on a colour field with skitts, one of them and the blockade go
    to the pot; anywhere else, the minus field included, only the blockade goes to the pot
    ("it is removed without further scoring")."""
    colour_field = dst in t.rules.color_fields
    if colour_field and t.board[dst] == 0 and dst not in t.blocked:
        t.pot -= 1
        t.blocked.add(dst)
        t.note(EffectKind.BLOCK, None, Reason.FLIPPING,
               f"the loose blockade now blocks {where(dst)}", dst)
    elif colour_field and t.board[dst] > 0:
        t.to_pot(dst, 1)
        t.note(EffectKind.RESTORE, None, Reason.FLIPPING,
               f"the loose blockade and one skitt of {where(dst)} go to the pot", dst)
    else:
        if dst != Landing.OFF:
            t.board_must_change = True
        t.note(EffectKind.RESTORE, None, Reason.FLIPPING, "the loose blockade goes to the pot")


def remove_landed_on_blocked(t: Tally, delta: Mapping[str, int],
                             chain: tuple[str, str] | None) -> list[str]:
    """Skitts that landed on a blocked field go to the pot with its blockade, and the field
    is unblocked; a blocked field in a chain counts as such a hit (R15). Call it after
    :func:`knock_blockades_loose` (a field whose blockade was knocked loose is not blocked for
    this shot). Returns one field name per penalty point owed (charged in R10 step 4)."""
    blocked_for_shot = frozenset(t.blocked)
    hits: list[str] = []
    for name, d in delta.items():
        if d > 0 and name in blocked_for_shot:
            t.to_pot(name, d)
            t.unblock(name, f"a skitt landed on the blocked {where(name)}: it goes to the pot "
                      "with the blockade")
            hits.extend([name] * d)
    for name in chain or ():
        if name in blocked_for_shot:
            if name in t.blocked:
                t.unblock(name, f"the chain touched the blocked {where(name)}: the blockade "
                          "goes to the pot")
            hits.append(name)
    return hits


def use_unblock_right(t: Tally, shot: Shot, earned: bool,
                      placed_now: set[str]) -> PendingUnblock | None:
    """R10 step 3: a shot that earned the right may lift one blockade from the shooter's
    opposite fields that are still blocked, except one this same shot's clearing has just
    placed (``placed_now``: "you may not play on a color just cleared"). Used in the shot,
    or left pending until the next shot (a later decision)."""
    s = t.shooter
    fields = tuple(f for f in t.rules.opposite(s) if f in t.blocked and f not in placed_now)
    if shot.unblock is not None:
        if not earned:
            raise refuse(t.state, "shot.unblock", "{who} has no unblock right: the shot made no "
                         "net increase on an unblocked field it shoots at, no chain point and "
                         "no chain clearing", rule="R16", who=Player(s))
        if shot.unblock in placed_now:
            raise refuse(t.state, "shot.unblock", "the blockade on {field} was placed by this "
                         "shot's own clearing; the right cannot lift it", rule="R16",
                         field=Field(shot.unblock))
        if shot.unblock not in fields:
            raise refuse(t.state, "shot.unblock", "{field} is not blocked after the shot",
                         rule="R16", field=Field(shot.unblock))
        t.unblock(shot.unblock, f"{slot(s)} lifts the blockade on {where(shot.unblock)} "
                  "(unblock right)")
        return None
    if earned and fields:
        t.note(EffectKind.NOTE, s, Reason.FLIPPING, f"{slot(s)} may lift one blockade "
               f"({', '.join(field_slot(f) for f in fields)}) until the next shot", *fields)
        return PendingUnblock(s, fields)
    return None
