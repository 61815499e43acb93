// The tournament page: a full state when the socket opens, then versioned changes (only the
// boards' cards and parts that changed); a missed version fetches the full state again.
// Names come from boards and people: they are only ever set as text, never as HTML.

import { data, socket } from "/shared/api.js";
import { h, toast } from "/shared/dom.js";
import { nt, t } from "/shared/words.js";
import { $, act } from "./hub-dom.js";
import { renderBoards } from "./hub-cards.js";
import { renderField } from "./hub-field.js";
import { followRatings } from "./hub-ratings.js";
import { claimButtons, resultButtons, watchForms } from "./hub-results.js";
import { referee, setReferee, setSnap, snap } from "./hub-state.js";
import { clock, resultWords, said, saidOr, signed, swipeHints } from "./hub-words.js";

// A table row: one cell per value (a node, or text).
function row(cells, tag = "td") {
  return h("tr", {}, cells.map((c) => h(tag, {}, c)));
}

// ---------------------------------------------------------------- rendering

// Each figure carries its column's heading (data-label), so a phone shows a player's row as a
// block of labelled figures instead of a table to swipe sideways.
function renderStandings(s) {
  const body = $("#standings tbody");
  const heads = [...document.querySelectorAll("#standings thead th")].map((th) => th.textContent);
  body.replaceChildren();
  s.standings.forEach((r, i) => {
    const tr = row([
      i + 1, r.dropped ? t("{who} (dropped out)", { who: r.player }) : r.player, r.played, r.won, r.lost,
      r.buchholz, `${r.rounds_won}–${r.rounds_lost}`, signed(r.round_difference),
      signed(r.points_for), signed(r.points_against), signed(r.points_difference),
    ]);
    [...tr.children].forEach((td, k) => { td.dataset.label = heads[k] || ""; });
    body.append(tr);
  });
}

function boardPicker(s, round, p) {
  const names = s.boards.map((b) => b.board);
  if (p.board && !names.includes(p.board)) names.push(p.board);
  const select = h("select", {}, h("option", { value: "" }, "—"),
    names.map((name) => h("option", { value: name, selected: name === p.board }, name)));
  // the version the referee saw when the list was drawn: a change made meanwhile at
  // another screen is refused (409), and the toast says what changed
  const seen = s.field_seq;
  select.addEventListener("change", () => act(data(
    `/api/rounds/${round}/tables/${p.table}/board`,
    { board: select.value || null, seq: seen }), t("board set")));
  return select;
}

function renderRounds(s) {
  const system = s.system === "swiss" ? t("Swiss pairing") : t("Round robin");
  const rounds = nt("{n} round", "{n} rounds", s.planned_rounds);
  $("#system").textContent = s.players.length < 2 ? t("Register at least two players.")
    : nt("{system}, {rounds}, {n} player.", "{system}, {rounds}, {n} players.",
      s.players.length, { system, rounds });
  $("#format").textContent = s.format
    ? t("Every game is played to {format}; the boards are offered this format, and a game played to another is held for the referee.", { format: (s.format.words_in || {})[document.documentElement.lang] || s.format.words })
    : t("No format is set: games of any format count. Set one before round 1.");
  const root = $("#rounds");
  root.replaceChildren();
  for (const r of s.rounds) {
    root.append(h("h3", {}, r.system === "knockout" ? t("Round {round} (knockout)", { round: r.number })
      : t("Round {round}", { round: r.number })));
    const table = h("table", {}, row([t("Table"), t("First player"), t("Second player"),
      t("Board"), t("Result")], "th"));
    for (const p of r.pairings) {
      let result = "";
      if (p.bye) result = t("bye");
      else if (p.result) {
        result = resultWords(p.result) + (p.result.board === "hub" ? t(", entered by the referee") : "");
      }
      const board = referee && !p.bye && !p.result ? boardPicker(s, r.number, p) : (p.board || "");
      const cell = h("span", {}, result, result ? " " : "", ...resultButtons(r.number, p));
      table.append(row([p.table, p.black, p.bye ? "—" : p.white, board, cell]));
    }
    root.append(table);
  }
  const f = s.forecast;
  $("#forecast").textContent = !f ? "" : nt(
    "Round {round} should end about {time} ({n} game left; a game takes about {minutes} minutes here).",
    "Round {round} should end about {time} ({n} games left; a game takes about {minutes} minutes here).",
    f.games_left, { round: f.round, time: clock(f.ends_at), minutes: Math.round(f.minutes_per_game) });
  $("#pair").disabled = Boolean(s.next_round_blocked);
  $("#pair-blocked").textContent = saidOr(s.next_round_blocked, s.next_round_blocked_said);
}

function renderPlayers(s) {
  const list = $("#players");
  list.replaceChildren();
  for (const name of s.players) {
    const withdraw = !s.rounds.length && h("button", { onclick: () => act(data(
      `/api/players/${encodeURIComponent(name)}`, undefined, "DELETE")) }, t("withdraw"));
    list.append(h("li", {}, name + " ", withdraw));
  }
  $("#swiss").hidden = s.system !== "swiss";
  $("#format-form").hidden = s.rounds.length > 0;
  // once round 1 is paired a newcomer is a late entry (the field's form below)
  $("#add-player").hidden = s.rounds.length > 0;
}

function renderGames(s) {
  const body = $("#games tbody");
  body.replaceChildren();
  for (const g of s.games) {
    const open = g.match_id > 0 ? h("button", { onclick: () => showLog(g.board, g.match_id) }, t("log"))
      : t("entered by the referee");
    body.append(row([g.board === "hub" ? "—" : g.board, g.match_id > 0 ? g.match_id : "—",
      g.round ? t("round {round}, table {table}", { round: g.round, table: g.table })
        : t("not paired"),
      g.black, g.white, g.winner ?? t("nobody"), `${g.black_rounds}–${g.white_rounds}`,
      t("{first} to {second}", { first: signed(g.black_points), second: signed(g.white_points) }),
      open]));
  }
}

async function showLog(board, match) {
  try {
    const log = await data(`/api/matches/${encodeURIComponent(board)}/${match}`);
    $("#log-title").textContent = t("Board {board}, match {match}: {black} v {white}",
      { board, match, black: log.names.black, white: log.names.white })
      + (log.complete ? "" : " " + t("(events missing)"));
    const body = $("#log tbody");
    body.replaceChildren();
    for (const e of log.events) {
      const sc = e.score || {};
      const step = h("span", { title: JSON.stringify(e.event) }, e.text);
      body.append(row([e.seq, new Date(e.at * 1000).toLocaleTimeString(), e.source,
        step, e.effects.join("; "), `${sc.black ?? ""}–${sc.white ?? ""}`]));
    }
    $("#log").hidden = false;
  } catch (e) { toast(e.message); }
}

function renderAttention(s) {
  const list = $("#attention");
  list.replaceChildren(...(s.attention || []).map((a) => h("li", { class: a.kind },
    said(a), " ", ...claimButtons(a))));
  $("#attention-box").hidden = list.children.length === 0;
}

const DECIDED = { accepted: t("Result counted"), rejected: t("Result refused"),
  entered: t("Result entered"), corrected: t("Result corrected"),
  removed: t("Result removed") };

function renderDecisions(s) {
  const body = $("#decisions tbody");
  body.replaceChildren();
  for (const d of s.decisions || []) {
    const r = d.result || {};
    const where = d.round ? t("Round {round}, table {table}", { round: d.round, table: d.table }) + ": " : "";
    const who = !r.black ? "" : r.winner
      ? t("{black} v {white}, {winner} won", { black: r.black, white: r.white, winner: r.winner })
      : t("{black} v {white}, no winner", { black: r.black, white: r.white });
    body.append(row([new Date(d.at * 1000).toLocaleTimeString(), DECIDED[d.action] || d.action,
      where + who + (d.board && d.board !== "hub" ? " " + t("(board {board})", { board: d.board }) : ""), d.reason]));
  }
  $("#decisions-box").hidden = body.children.length === 0;
}

function renderBroker(s) {
  const broker = $("#broker");
  broker.textContent = s.broker_connected ? t("broker connected") : t("broker not connected");
  broker.className = "pill " + (s.broker_connected ? "ok" : "bad");
  const health = $("#health");
  health.replaceChildren(...(s.problems || []).map((p) => h("li", {}, p)));
  $("#health-box").hidden = health.children.length === 0;
}

// `only`: the boards whose cards changed; the rest of the page is drawn again unless
// `boardsOnly` (a change of cards alone).
function render(s, only, boardsOnly) {
  setSnap(s);
  renderBroker(s);
  renderBoards(s, only);
  if (!boardsOnly) {
    renderAttention(s); renderStandings(s); renderRounds(s); renderPlayers(s); renderGames(s);
    renderDecisions(s); watchForms(s); renderField(s);
  }
  for (const e of document.querySelectorAll(".referee-only")) e.hidden = !referee;
  swipeHints();
}

// ---------------------------------------------------------------- live stream and session

let version = null;     // the version of `snap`
let resyncing = false;  // a full state is being fetched; changes wait in `held`
let held = [];

function takeFull(f) {
  version = f.version;
  document.body.dataset.version = String(version);
  render(f);
  const later = held.filter((d) => d.after >= version).sort((a, b) => a.after - b.after);
  held = [];
  for (const d of later) onFrame(d);
}

// A change applies to the version it names; one from the past is already in what the page
// has, one from further on means a frame was missed: fetch the whole state again.
function applyDelta(d) {
  const boards = new Map(snap.boards.map((b) => [b.board, b]));
  const isNew = d.boards.some((b) => !boards.has(b.board));
  for (const b of d.boards) boards.set(b.board, b);
  const next = { ...snap, boards: [...boards.values()].sort((a, b) => (a.board < b.board ? -1 : a.board > b.board ? 1 : 0)) };
  const parts = Object.keys(d).filter((k) => !["type", "version", "after", "boards"].includes(k));
  for (const k of parts) next[k] = d[k];
  version = d.version;
  document.body.dataset.version = String(version);
  const boardsOnly = !isNew && parts.every((k) => ["broker_connected", "problems", "duplicates", "rejected"].includes(k));
  render(next, isNew ? null : new Set(d.boards.map((b) => b.board)), boardsOnly);
}

function resync() {
  if (resyncing) return;
  resyncing = true;
  data("/api/hub")
    .then((f) => { resyncing = false; if (version === null || f.version >= version) takeFull(f); })
    .catch((e) => { resyncing = false; version = null; toast(e.message); });
}

function onFrame(f) {
  if (f.type === "full") { takeFull(f); return; }
  if (f.type !== "delta") return;
  if (held.length > 100) held.shift();  // a long wait for the full state: it will carry them
  if (resyncing || version === null) { held.push(f); if (!resyncing) resync(); return; }
  if (f.after < version) return;
  if (f.after !== version) { held.push(f); resync(); return; }
  applyDelta(f);
}

// Only the latest ask is believed: the answer to one made as the page opened can arrive after
// a login (or logout) made meanwhile, and would undo it. The page is drawn again only when the
// answer changes what it shows (a redraw replaces every card under the reader's eyes).
let sessionAsks = 0;
async function refreshSession() {
  const ask = ++sessionAsks;
  let now;
  try { now = Boolean((await data("/api/referee/session")).referee); } catch (e) { now = false; }
  if (ask !== sessionAsks) return;
  const changed = now !== referee;
  setReferee(now);
  $("#login").hidden = referee;
  $("#logout").hidden = !referee;
  if (snap && changed) render(snap);
}

$("#login").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act(data("/api/referee/login", { pin: $("#pin").value }).then(refreshSession), t("logged in"));
  $("#pin").value = "";
});
$("#logout").addEventListener("click", () => act(data("/api/referee/logout", {}).then(refreshSession)));
// The round is paired on the field as the page shows it (a drop or late entry made meanwhile
// at another screen is refused, saying what changed).
$("#pair").addEventListener("click", () => act(data("/api/rounds", { seq: snap ? snap.field_seq : 0 }), t("round paired")));
$("#add-player").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act(data("/api/players", { name: $("#player-name").value }).then(() => { $("#player-name").value = ""; }));
});
$("#swiss").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act(data("/api/swiss-rounds",
    { count: Number($("#swiss-count").value), seq: snap ? snap.field_seq : 0 }));
});
$("#format-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act(data("/api/format", {
    points_to_win_round: Number($("#format-points").value),
    rounds_to_win_game: Number($("#format-rounds").value),
    flipping: $("#format-flipping").value === "true",
    variant: $("#format-variant").value,
  }), t("format set"));
});
$("#log-close").addEventListener("click", () => { $("#log").hidden = true; });
window.addEventListener("resize", swipeHints);
refreshSession();
socket("/ws", onFrame, (up) => {
  if (up) { if (snap) renderBroker(snap); return; }
  $("#broker").textContent = t("hub unreachable, retrying…");
  $("#broker").className = "pill bad";
});
followRatings();
