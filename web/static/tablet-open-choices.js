// The choices still open after a shot (a Hit on Red point that may yet set the other player
// back, R4; the right to lift a blockade, R16) that a step about to be sent would close: the
// tablet says so, naming the player and the choice, before the person sends it.

import { Skitter } from "./live.js";
import { t } from "./words.js";

const OTHER = { black: "white", white: "black" };

// What `step` ("correction" or "turn") would close in the state `s`, one sentence each.
export function choicesClosedBy(step, s) {
  const pending = (s.state && s.state.pending) || { red: [], unblock: null };
  const out = [];
  for (const red of pending.red || []) {
    const open = red.choices.some((c, i) => c !== "back" && red.changeable[i]);
    if (!open) continue;
    const args = { who: Skitter.nameOf(s, red.player), other: Skitter.nameOf(s, OTHER[red.player]) };
    out.push(step === "correction"
      ? t("This correction cancels {who}'s Hit on Red choice (to set {other} back).", args)
      : t("Ending the turn cancels {who}'s Hit on Red choice (to set {other} back).", args));
  }
  if (pending.unblock) {
    const args = { who: Skitter.nameOf(s, pending.unblock.player) };
    out.push(step === "correction"
      ? t("This correction cancels {who}'s right to lift a blockade.", args)
      : t("Ending the turn cancels {who}'s right to lift a blockade.", args));
  }
  return out;
}

// Show what `step` would close in the note `box` (hidden when nothing).
export function showClosed(box, step, s) {
  const said = choicesClosedBy(step, s);
  box.textContent = said.join(" ");
  box.classList.toggle("hidden", !said.length);
}
