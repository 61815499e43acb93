// The hub's stream overlays: one table's match (?table=N or ?board=ID) or the standings
// (?top=N rows). The tournament's live feed: a full state, then versioned changes (see
// hub.js); a change that does not follow the version held fetches the full state again.
// Read-only: no alerts, no login.

import { data, socket } from "/shared/api.js";
import { h } from "/shared/dom.js";
import { apply, options, render, signed } from "/shared/overlay.js";
import { lang } from "/shared/words.js";

const q = new URLSearchParams(location.search);
const standings = document.body.dataset.overlay === "standings";
let boards = new Map();
let parts = {};
let version = null;
let fetching = false;

function take(full) {
  boards = new Map((full.boards || []).map((b) => [b.board, b]));
  parts = full;
  version = full.version;
  show();
}

function resync() {
  if (fetching) return;
  fetching = true;
  data("/api/hub").then((f) => { fetching = false; if (version === null || f.version >= version) take(f); })
    .catch(() => { fetching = false; version = null; });
}

function onFrame(f) {
  if (f.type === "full") { take(f); return; }
  if (f.type !== "delta") return;
  if (version === null || f.after > version) { resync(); return; }
  if (f.after < version) return;
  for (const b of f.boards || []) boards.set(b.board, b);
  for (const [k, v] of Object.entries(f)) {
    if (!["type", "version", "after", "boards"].includes(k)) parts[k] = v;
  }
  version = f.version;
  show();
}

// The card of the board this overlay follows: named, or the one holding the table's game
// in the newest round that put a game on that table.
function chosen() {
  if (q.get("board")) return boards.get(q.get("board"));
  const table = Number(q.get("table") || "1");
  let best = null;
  for (const b of boards.values()) {
    if (!b.pairing || b.pairing.table !== table) continue;
    if (!best || b.pairing.round > best.pairing.round) best = b;
  }
  return best;
}

function showStandings() {
  const top = Math.max(1, Math.min(32, Number.parseInt(q.get("top") || "8", 10) || 8));
  const rows = (parts.standings || []).slice(0, top).map((s, i) => h("tr", {},
    h("td", {}, String(i + 1)), h("td", { class: "who" }, s.player),
    h("td", {}, String(s.won)), h("td", {}, String(s.played)),
    h("td", {}, `${s.rounds_won}–${s.rounds_lost}`),
    h("td", {}, signed(s.points_difference))));
  document.getElementById("standings").replaceChildren(...rows);
  document.getElementById("overlay").hidden = rows.length === 0;
}

function show() {
  document.body.dataset.version = String(version);
  if (standings) { showStandings(); return; }
  const card = chosen();
  const root = document.getElementById("overlay");
  if (!card || !card.overlay) { root.hidden = true; return; }
  // the hub words each card in every language: this overlay's own, else the English
  const words = (card.overlay.words_in || {})[lang];
  render(root, words ? { ...card.overlay, ...words } : card.overlay);
}

function start() {
  apply(options(location.search, standings ? "top-right" : "top-left"));
  socket("/ws", onFrame);
}

start();
