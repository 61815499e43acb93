"""The board's own buttons and LEDs on the Pi's GPIO, acting on the live match.

A board builder may wire push buttons per player (``end_turn``: "my shot changed nothing";
``undo``; ``red_back``: "push the next Hit on Red point back") and for the referee
(``undo``), and an LED per player that is lit while that player is due to shoot. Buttons are
trusted hardware, wired to the table: a press needs no referee session, and goes through the same
checks as the tablet, recorded with source ``button``. A press the rules refuse changes
nothing and is reported in :attr:`HardwareControls.last_message`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from firmware_bridge.gpio import Buttons, Leds
from firmware_bridge.profile import GpioConfig
from firmware_bridge.profile_model import Button
from scorekeeper.errors import Player, because
from scorekeeper.events import Decision, Undo
from scorekeeper.fields import PLAYERS
from scorekeeper.shot import RedChoice
from web.table.table import Refused, Table

log = logging.getLogger(__name__)


class HardwareControls:
    """Buttons and LEDs named in the board profile's ``[gpio]`` section."""

    def __init__(self, table: Table, gpio: GpioConfig, *, pin_factory: Any = None) -> None:
        self.table = table
        self.buttons: dict[str, Buttons] = {}
        self.leds: Leds | None = None
        self._led_names = set(gpio.leds)
        self.last_message = ""
        try:
            for role, mapping in gpio.buttons.items():
                self.buttons[role] = Buttons(mapping, pin_factory=pin_factory)
            if gpio.leds:
                self.leds = Leds(dict(gpio.leds), pin_factory=pin_factory)
        except Exception:
            self.close()
            raise
        self._lit: str | None = None
        self.divert: Callable[[str, str], None] | None = None
        """While set, presses go here (role, name) instead of to the match: the board
        self-test proves the buttons without undoing anything."""

    def poll(self) -> None:
        """Act on the presses since the last call, then light the LED of the player due."""
        for role, buttons in self.buttons.items():
            for name in buttons.poll():
                if self.divert is not None:
                    self.divert(role, name)
                else:
                    self._press(role, name)
        self._show_turn()

    def _press(self, role: str, name: str) -> None:
        try:
            if name == Button.UNDO:
                self.table.apply_step(Undo(), source="button")
            elif name == Button.END_TURN:
                self._end_turn(role)
            elif name == Button.RED_BACK:
                self._red_back(role)
            self.last_message = f"{role}'s {name} button"
        except Refused as exc:
            self.last_message = f"{role}'s {name} button refused: {exc}"
            log.info(self.last_message)

    def _end_turn(self, role: str) -> None:
        turn = self.table.match.state.turn
        if role in PLAYERS and turn != role:
            raise Refused(because("it is not {who}'s turn (due: {due})", who=Player(role),
                                  due=Player(turn or "")), "turn")
        self.table.no_change(source="button")

    def _red_back(self, role: str) -> None:
        pending = next((p for p in self.table.match.state.pending_red if p.player == role), None)
        if pending is None:
            raise Refused(because("{who} has no Hit on Red point to push back",
                                  who=Player(role)), "red")
        choices = list(pending.choices)
        for i, (choice, changeable) in enumerate(zip(choices, pending.changeable, strict=True)):
            if choice == RedChoice.ADVANCE and changeable:
                choices[i] = RedChoice.BACK
                break
        else:
            raise Refused(because("{who}'s Hit on Red points are all back already",
                                  who=Player(role)), "red")
        self.table.apply_step(Decision(by=role, red=tuple(choices)), source="button")

    def _show_turn(self) -> None:
        if self.leds is None:
            return
        turn = self.table.match.state.turn
        if turn == self._lit:
            return
        for player in PLAYERS:
            if player in self._led_names:
                self.leds.set(player, player == turn)
        self._lit = turn

    def close(self) -> None:
        for buttons in self.buttons.values():
            buttons.close()
        if self.leds is not None:
            self.leds.close()
