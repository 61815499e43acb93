// The stream overlay: score, rounds, whose turn, the last shot and the round-win banner, for
// a streaming tool's browser source. Read-only: no alarms, no login, nothing to click.
// Options by address: ?corner=top-left|top-right|bottom-left|bottom-right&scale=0.5..3.
// Every word comes from the server in the players' names; a page never names a colour.
// The hub's overlays import it too (/shared/overlay.js).

import { t, withLang } from "./words.js";

const CORNERS = ["top-left", "top-right", "bottom-left", "bottom-right"];
const PLAYERS = ["black", "white"];

// The layout the address asks for; anything unknown falls back to the default.
export function options(search, fallback) {
  const q = new URLSearchParams(search);
  const corner = CORNERS.includes(q.get("corner")) ? q.get("corner") : fallback || "top-left";
  let scale = Number.parseFloat(q.get("scale") || "1");
  if (!Number.isFinite(scale) || scale <= 0) scale = 1;
  return { corner, scale: Math.min(3, Math.max(0.5, scale)) };
}

export function apply(opts) {
  document.body.dataset.corner = opts.corner;
  document.documentElement.style.setProperty("--scale", String(opts.scale));
}

// A board's snapshot as the overlay's view (the hub's cards carry the same view, made by
// the hub from what the board sent).
export function fromSnapshot(s) {
  const st = s.state || {};
  const rules = st.rules || {};
  const words = s.words || {};
  return {
    names: s.names || {}, score: st.score || {}, round_wins: st.round_wins || {},
    rounds_to_win: rules.variant === "trio" ? null : rules.rounds_to_win_game,
    points_to_win: rules.points_to_win_round, round: st.round,
    turn: st.phase === "playing" ? st.turn : null, turn_words: words.turn || "",
    last_shot: words.last_shot || "", moment: words.moment || null,
  };
}

function roundDots(v, p) {
  if (v.rounds_to_win === null || v.rounds_to_win === undefined) return "";
  const won = (v.round_wins || {})[p] || 0;
  let dots = "";
  for (let i = 0; i < v.rounds_to_win; i++) dots += i < won ? "●" : "○";
  return dots;
}

// Fill the overlay `root` (the markup of overlay.html) from a view.
export function render(root, v) {
  for (const p of PLAYERS) {
    const row = root.querySelector(`.ov-player[data-player="${p}"]`);
    row.classList.toggle("due", v.turn === p);
    row.querySelector(".ov-name").textContent = (v.names || {})[p] || "";
    const rounds = row.querySelector(".ov-rounds");
    rounds.textContent = roundDots(v, p);
    rounds.title = rounds.textContent ? t("{won} of {total} rounds won",
      { won: (v.round_wins || {})[p] || 0, total: v.rounds_to_win }) : "";
    row.querySelector(".ov-points").textContent = String((v.score || {})[p] ?? 0);
  }
  const info = [];
  if (v.rounds_to_win === null) info.push(t("Trio, first to {n}", { n: v.points_to_win }));
  else if (v.round) info.push(t("Round {round}", { round: v.round }));
  if (v.turn_words) info.push(v.turn_words);
  root.querySelector(".ov-info").textContent = info.join(" · ");
  root.querySelector(".ov-last").textContent = v.last_shot || "";
  const banner = root.querySelector(".ov-banner");
  banner.hidden = !v.moment;
  if (v.moment) {
    banner.dataset.kind = v.moment.kind;
    banner.querySelector(".title").textContent = v.moment.title;
    banner.querySelector(".detail").textContent = v.moment.detail;
  }
  root.hidden = false;
}

// The board's live state from the public feed (/api/events): an EventSource reconnects by
// itself, and the first event after a reconnect is the whole state. Only a newer state (or
// one from a restarted scorekeeper) is shown.
export function follow(onState) {
  let latest = null;
  const source = new EventSource(withLang("/api/events"));
  source.addEventListener("state", (ev) => {
    let s;
    try { s = JSON.parse(ev.data); } catch (err) { return; }
    if (!s || typeof s.seq !== "number") return;
    if (latest && s.boot === latest.boot && s.seq <= latest.seq) return;
    latest = s;
    document.body.dataset.seq = String(s.seq);
    onState(s);
  });
  return source;
}

export function signed(n) { return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0"; }
