// The tablet's amend form, the fields a referee adds to the last shot beyond the sensed
// changes: both big skitts knocked loose (R12), Hit on Red point by point for the shooter and
// for the opponent (R4, R7).

import { $, h } from "./dom.js";
import { options } from "./form-controls.js";
import { Skitter } from "./live.js";
import { t } from "./words.js";

export const other = (p) => (p === "black" ? "white" : "black");
const RED_POINTS = 3;  // the red points one shot usually scores; more when the shot had more

// One select per red point of `scorer` (R4): "Ann +1" (advance) or "Ann sets Bo back one" (back).
export function amendRed(box, id, scorer, choices) {
  const s = Skitter.state;
  const points = [];
  const n = Math.max(RED_POINTS, choices.length);
  for (let i = 0; i < n; i++) {
    const sel = h("select", { id: `${id}-${i + 1}`, class: id });
    const said = s.words.red_choices[scorer];  // "Ann +1", "Ann sets Bo back one"
    options(sel, [["advance", said.advance], ["back", said.back]]);
    sel.value = choices[i] || "advance";
    points.push(h("label", {}, t("point {n}", { n: i + 1 }) + " ", sel));
  }
  box.replaceChildren(h("span", { class: "caption" }, t("Hit on Red, {who}'s red points:",
    { who: Skitter.nameOf(s, scorer) })), ...points);
}

// The choices as the engine takes them: point by point, a missing one is advance.
export function redChoices(id) {
  const picked = [...document.querySelectorAll(`select.${id}`)].map((x) => x.value);
  while (picked.length && picked[picked.length - 1] === "advance") picked.pop();
  return picked.length ? picked : null;
}

export function showSecondKnocked() {
  const first = $("amend-knocked").value;
  $("amend-knocked-2-box").classList.toggle("hidden", !first || $("amend-knocked-box").classList.contains("hidden"));
  if (!first) $("amend-knocked-2").value = "";
}
