// The tablet's amend form, the fields a referee adds to the last shot beyond the sensed
// changes: both big skitts knocked loose (R12), Hit on Red point by point for the shooter and
// for the opponent (R4, R7). Loaded before tablet.js, whose helpers ($, S, options) it uses
// when the form is filled.
"use strict";

const other = (p) => (p === "black" ? "white" : "black");
const RED_POINTS = 3;  // the red points one shot usually scores; more when the shot had more

// One select per red point of `scorer` (R4): "Ann +1" (advance) or "Ann sets Bo back one" (back).
function amendRed(box, id, scorer, choices) {
  const s = S();
  const caption = document.createElement("span");
  caption.className = "caption";
  caption.textContent = `Hit on Red, ${Skitter.nameOf(s, scorer)}'s red points:`;
  box.replaceChildren(caption);
  const n = Math.max(RED_POINTS, choices.length);
  for (let i = 0; i < n; i++) {
    const l = document.createElement("label");
    l.textContent = `point ${i + 1} `;
    const sel = document.createElement("select");
    sel.id = `${id}-${i + 1}`;
    sel.className = id;
    options(sel, [["advance", `${Skitter.nameOf(s, scorer)} +1`],
      ["back", `${Skitter.nameOf(s, scorer)} sets ${Skitter.nameOf(s, other(scorer))} back one`]]);
    sel.value = choices[i] || "advance";
    l.appendChild(sel);
    box.appendChild(l);
  }
}

// The choices as the engine takes them: point by point, a missing one is advance.
function redChoices(id) {
  const picked = [...document.querySelectorAll(`select.${id}`)].map((x) => x.value);
  while (picked.length && picked[picked.length - 1] === "advance") picked.pop();
  return picked.length ? picked : null;
}

function showSecondKnocked() {
  const first = $("amend-knocked").value;
  $("amend-knocked-2-box").classList.toggle("hidden", !first || $("amend-knocked-box").classList.contains("hidden"));
  if (!first) $("amend-knocked-2").value = "";
}
