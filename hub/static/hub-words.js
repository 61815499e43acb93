// The tournament page's figures in words: a true minus sign for a score below zero, a
// result as a sentence, a time of day; and a hint on every table too wide for the screen.

import { h } from "/shared/dom.js";
import { nt, t } from "/shared/words.js";

// A figure with a true minus sign ("−1"), never "3–-1".
export function signed(n) { return n < 0 ? `−${-n}` : String(n); }

// "Ann won, rounds 2–1, points 12 to −1": who won, then the figures first player first.
export function resultWords(g) {
  const figures = { rounds: `${g.black_rounds}–${g.white_rounds}`, first: signed(g.black_points),
    second: signed(g.white_points) };
  return g.winner
    ? t("{winner} won, rounds {rounds}, points {first} to {second}", { winner: g.winner, ...figures })
    : t("no winner, rounds {rounds}, points {first} to {second}", figures);
}

// A sentence the hub made for every page (hub/said.py): worded here in the
// page's language from its catalog key (a value that is a sentence itself too); a board's
// own alert (no key) as the board said it.
export function said(m) {
  const w = m.words;
  if (!w) return m.message;
  const args = {};
  for (const [k, v] of Object.entries(w.args || {})) {
    args[k] = v && typeof v === "object" && v.id !== undefined ? said({ words: v }) : v;
  }
  return w.plural ? nt(w.id, w.plural, w.n, args) : t(w.id, args);
}

// A reason or log line of the hub's view in the page's language: its catalog entry
// (`said`), else its English (a line an older hub logged).
export function saidOr(english, entry) {
  return entry ? said({ message: english, words: entry }) : english || "";
}

// A board's names for the page: a seat without a name ("First player") in the page's
// language; a person's name as given.
export function cardNames(b) {
  const out = { ...b.names };
  for (const side of b.seats || []) out[side] = t(b.names[side]);
  return out;
}

// A Unix time as the clock on the wall says it ("15:40").
export function clock(at) {
  return new Date(at * 1000).toLocaleTimeString(document.documentElement.lang || [], { hour: "2-digit", minute: "2-digit" });
}

// Each table that is wider than its box says so above it: the rest is a swipe away.
export function swipeHints() {
  for (const table of document.querySelectorAll("main table")) {
    let hint = table.previousElementSibling;
    if (!hint || !hint.classList.contains("swipe-hint")) {
      hint = h("p", { class: "swipe-hint" }, t("More columns to the right: swipe the table sideways →"));
      table.before(hint);
    }
    hint.hidden = table.offsetParent === null || table.scrollWidth <= table.clientWidth + 1;
  }
}
