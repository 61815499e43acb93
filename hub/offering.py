"""Offering each board its game: after a round is paired, a game is put on a board, or a
board (re)connects, the board is sent an ``offer`` command (``tournament_wire.offer``).

A board already playing that game, or holding that very offer, takes it again without a
change, so offering twice is harmless; the board's tablet starts the game with one tap.
An offer whose game got its result another way (entered by the referee for a broken board,
a claim from another board counted) or moved to another board is taken back
(``withdraw``), so no tablet goes on offering a game that is settled or played elsewhere.
"""

from __future__ import annotations

from typing import Any, Protocol

from hub.tournament import Tournament


class Offers(Protocol):
    connected: bool

    def send_command(self, board: str, kind: str, **kw: Any) -> str: ...


def withdraw(t: Tournament, sender: Offers, board: str, round_number: int, table: int) -> bool:
    """Take back from ``board`` the offer of the game at ``table`` of ``round_number`` (the
    board drops it only if it holds it); False while not connected."""
    if not sender.connected:
        return False
    pairing = next(p for p in t.store.pairings(round_number) if p.table == table)
    sender.send_command(board, "withdraw", withdraw=t.pairing_id(pairing))
    return True


def settle_offer(t: Tournament, sender: Offers, round_number: int | None,
                 table: int | None) -> None:
    """After a referee's decision about a game: its board's offer follows its result (taken
    back once it has one, offered again once it is removed)."""
    pairing = next((p for p in t.store.pairings(round_number or 0) if p.table == table), None)
    if pairing is None or pairing.board is None or pairing.is_bye:
        return
    if pairing in t.round_open(pairing.round):
        offer_games(t, sender, pairing.board)
    else:
        withdraw(t, sender, pairing.board, pairing.round, pairing.table)


def offer_games(t: Tournament, sender: Offers, board: str | None = None) -> int:
    """Offer every board (or ``board`` only) the game of the latest round paired to it that
    has no result yet; return how many offers were sent (none while not connected)."""
    if not sender.connected:
        return 0
    sent = 0
    for on, offer in t.open_offers(board):
        sender.send_command(on, "offer", offer=offer)
        sent += 1
    return sent
