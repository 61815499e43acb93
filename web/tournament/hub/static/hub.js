// The tournament page: a full state when the socket opens, then versioned changes (only the
// boards' cards and parts that changed); a missed version fetches the full state again.
// Names come from boards and people: they are only ever set as text, never as HTML.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
let snap = null;
let referee = false;

const h = Common.h;

// A table row: one cell per value (a node, or text).
function row(cells, tag = "td") {
  return h("tr", {}, cells.map((c) => h(tag, {}, c)));
}

// A referee's action: its confirmation, or the refusal in words, as a toast.
function act(promise, done) {
  promise.then((d) => { if (done) Common.toast(done, true); return d; })
    .catch((e) => Common.toast(e.message));
}

// ---------------------------------------------------------------- rendering

// Every card, or only those of the boards in `only` (a Set), each replaced where it stands.
function renderBoards(s, only) {
  const root = $("#boards");
  const previous = new Map([...root.children].map((c) => [c.dataset.board, c]));
  if (!only) root.replaceChildren();
  if (!s.boards.length) { root.append(h("p", { class: "empty" }, "No board has reported yet.")); return; }
  for (const b of s.boards) {
    if (only && !only.has(b.board)) continue;
    const card = $("#board-card").content.firstElementChild.cloneNode(true);
    card.dataset.board = b.board;
    $(".dot", card).classList.toggle("on", b.online);
    $(".id", card).textContent = b.board;
    $(".match", card).textContent = b.match_id ? `match ${b.match_id}, event ${b.seq}`
      : "no match yet";
    const names = b.names;  // the players' names, or their seats in words
    $(".names", card).hidden = !b.match_id;
    $(".black", card).textContent = names.black;
    $(".white", card).textContent = names.white;
    $(".cb-who", card).textContent = `${names.black}'s score`;
    $(".cw-who", card).textContent = `${names.white}'s score`;
    if (b.turn) $(`.${b.turn}`, card).classList.add("turn");
    const score = b.score || {};
    $(".score", card).textContent = `${score.black ?? "–"} : ${score.white ?? "–"}`;
    const wins = b.round_wins || {};
    let detail = `round ${b.round ?? "–"} · round wins ${wins.black ?? 0}–${wins.white ?? 0}`;
    if (b.phase === "game_over") detail += ` · game over, ${names[b.winner] || "nobody"} wins`;
    else if (b.phase === "shootoff") detail += " · shoot-off";
    else if (b.turn) detail += ` · ${names[b.turn]} to shoot`;
    if (!b.match_id) detail = "no game started on this board";
    if (b.pairing) detail += ` · tournament round ${b.pairing.round}, table ${b.pairing.table}`;
    $(".detail", card).textContent = detail;
    const alerts = $(".alerts", card);
    for (const a of b.alerts) alerts.append(h("li", {}, a.message));
    const c = b.last_command;
    if (c) {
      const what = c.command.kind === "undo" ? "undo" : "correction";
      const r = c.result;
      $(".answer", card).textContent = !r ? `${what} sent, waiting for the board…`
        : r.ok ? `${what} applied by the board` : `${what} refused by the board: ${r.message}`;
    }
    const controls = $(".controls", card);
    controls.hidden = !referee;
    card.classList.toggle("idle", !b.match_id);  // no match: nothing to undo or correct
    $(".undo", card).addEventListener("click", () => {
      if (!confirm(`Undo the last step on board ${b.board}?`)) return;
      act(Common.data(`/api/boards/${encodeURIComponent(b.board)}/command`,
        { kind: "undo", match_id: b.match_id, seq: b.seq }), "undo sent");
    });
    // The correction is made against the board's match as it was when the referee began
    // typing (kept on the card over redraws); the board refuses it if that match moved on.
    const form = $(".correct", card);
    const old = previous.get(b.board);
    keepDraft(old, card, b);
    form.addEventListener("input", () => {
      if (!card.dataset.seenSeq) Object.assign(card.dataset, { seenSeq: b.seq, seenMatch: b.match_id });
    });
    const sendCorrection = (seq, match) => {
      const scoreSet = {};
      const cb = $(".cb", card).value, cw = $(".cw", card).value;
      if (cb !== "") scoreSet.black = Number(cb);
      if (cw !== "") scoreSet.white = Number(cw);
      act(Common.data(`/api/boards/${encodeURIComponent(b.board)}/command`, {
        kind: "correct", match_id: match, seq,
        correct: { score: scoreSet, reason: $(".reason", card).value },
      }).then((d) => { clearDraft(card); return d; }), "correction sent");
    };
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      sendCorrection(Number(card.dataset.seenSeq || b.seq),
        card.dataset.seenMatch ? Number(card.dataset.seenMatch) : b.match_id);
    });
    $(".draft-send", card).addEventListener("click", () => sendCorrection(b.seq, b.match_id));
    $(".draft-drop", card).addEventListener("click", () => clearDraft(card));
    if (only && old) old.replaceWith(card); else root.append(card);
  }
}

// A correction being typed on a card survives the card's redraw: the entries, and the step
// of the board's match they were begun against. When that match moved on, the card says so;
// the referee sends them for the match as it is now (on purpose) or drops them.
function keepDraft(old, card, b) {
  if (!old || !old.dataset.seenSeq) return;
  for (const k of [".cb", ".cw", ".reason"]) $(k, card).value = $(k, old).value;
  card.dataset.seenSeq = old.dataset.seenSeq;
  card.dataset.seenMatch = old.dataset.seenMatch;
  const moved = Number(old.dataset.seenSeq) !== b.seq ||
    Number(old.dataset.seenMatch) !== b.match_id;
  $(".draft-note", card).hidden = !moved;
  if (moved) {
    $(".draft-text", card).textContent = `The match on board ${b.board} moved on since you ` +
      `began this correction (now ${b.names.black} ${b.score ? b.score.black : "–"} : ` +
      `${b.score ? b.score.white : "–"} ${b.names.white}). Your entries are kept: ` +
      "“Correct score” sends them against the match you saw (the board refuses them if it " +
      "changed), or send them for the match as it is now, or drop them.";
  }
}

function clearDraft(card) {
  delete card.dataset.seenSeq;
  delete card.dataset.seenMatch;
  for (const k of [".cb", ".cw", ".reason"]) $(k, card).value = "";
  $(".draft-note", card).hidden = true;
}

function renderStandings(s) {
  const body = $("#standings tbody");
  body.replaceChildren();
  s.standings.forEach((r, i) => body.append(row([
    i + 1, r.player, r.played, r.won, r.lost, r.rounds_won, r.rounds_lost,
    r.round_difference, r.points_for, r.points_against, r.points_difference,
  ])));
}

function boardPicker(s, round, p) {
  const names = s.boards.map((b) => b.board);
  if (p.board && !names.includes(p.board)) names.push(p.board);
  const select = h("select", {}, h("option", { value: "" }, "—"),
    names.map((name) => h("option", { value: name, selected: name === p.board }, name)));
  select.addEventListener("change", () => act(Common.data(
    `/api/rounds/${round}/tables/${p.table}/board`, { board: select.value || null }), "board set"));
  return select;
}

function renderRounds(s) {
  $("#system").textContent = s.players.length < 2 ? "Register at least two players."
    : `${s.system === "swiss" ? "Swiss pairing" : "Round robin"}, ${s.planned_rounds} rounds, ${s.players.length} players.`;
  const root = $("#rounds");
  root.replaceChildren();
  for (const r of s.rounds) {
    root.append(h("h3", {}, `Round ${r.number}`));
    const table = h("table", {}, row(["Table", "First player", "Second player", "Board", "Result"], "th"));
    for (const p of r.pairings) {
      let result = "";
      if (p.bye) result = "bye";
      else if (p.result) {
        const g = p.result;
        result = `${g.winner ?? "no winner"} wins ${g.black_rounds}–${g.white_rounds} (points ${g.black_points}–${g.white_points})`
          + (g.board === "hub" ? ", entered by the referee" : "");
      }
      const board = referee && !p.bye && !p.result ? boardPicker(s, r.number, p) : (p.board || "");
      const cell = h("span", {}, result, result ? " " : "", resultButton(r.number, p));
      table.append(row([p.table, p.black, p.bye ? "—" : p.white, board, cell]));
    }
    root.append(table);
  }
  $("#pair").disabled = Boolean(s.next_round_blocked);
  $("#pair-blocked").textContent = s.next_round_blocked || "";
}

function renderPlayers(s) {
  const list = $("#players");
  list.replaceChildren();
  for (const name of s.players) {
    const withdraw = !s.rounds.length && h("button", { onclick: () => act(Common.data(
      `/api/players/${encodeURIComponent(name)}`, undefined, "DELETE")) }, "withdraw");
    list.append(h("li", {}, name + " ", withdraw));
  }
  $("#swiss").hidden = s.system !== "swiss";
}

function renderGames(s) {
  const body = $("#games tbody");
  body.replaceChildren();
  for (const g of s.games) {
    const open = g.match_id > 0 ? h("button", { onclick: () => showLog(g.board, g.match_id) }, "log")
      : "entered by the referee";
    body.append(row([g.board === "hub" ? "—" : g.board, g.match_id > 0 ? g.match_id : "—", g.round ? `${g.round}/${g.table}` : "not paired",
      g.black, g.white, g.winner ?? "—", `${g.black_rounds}–${g.white_rounds}`,
      `${g.black_points}–${g.white_points}`, open]));
  }
}

async function showLog(board, match) {
  try {
    const log = await Common.data(`/api/matches/${encodeURIComponent(board)}/${match}`);
    $("#log-title").textContent = `Board ${board}, match ${match}: ${log.names.black} v ${log.names.white}`
      + (log.complete ? "" : " (events missing)");
    const body = $("#log tbody");
    body.replaceChildren();
    for (const e of log.events) {
      const sc = e.score || {};
      const step = h("span", { title: JSON.stringify(e.event) }, e.text);
      body.append(row([e.seq, new Date(e.at * 1000).toLocaleTimeString(), e.source,
        step, e.effects.join("; "), `${sc.black ?? ""}–${sc.white ?? ""}`]));
    }
    $("#log").hidden = false;
  } catch (e) { Common.toast(e.message); }
}

// A board's result that waits for the referee: count it for the game it fits, or refuse it.
function claimButtons(a) {
  if (!referee || a.kind !== "claim") return [];
  const path = `/api/claims/${encodeURIComponent(a.board)}/${a.match_id}`;
  const out = [];
  if (a.round) {
    out.push(h("button", { class: "accept", onclick: () => {
      if (!confirm(`Count this result for table ${a.table} of round ${a.round}?`)) return;
      act(Common.data(`${path}/accept`, { seq: a.seq }), "result counted");
    } }, "Count it"));
  }
  out.push(h("button", { class: "reject", onclick: () => {
    const reason = prompt("Why does this result not count?");
    if (!reason || !reason.trim()) return;
    act(Common.data(`${path}/reject`, { seq: a.seq, reason }), "result refused");
  } }, "Refuse it"));
  return out;
}

function renderAttention(s) {
  const list = $("#attention");
  list.replaceChildren(...(s.attention || []).map((a) => h("li", { class: a.kind },
    a.message, " ", ...claimButtons(a))));
  $("#attention-box").hidden = list.children.length === 0;
}

const DECIDED = { accepted: "Result counted", rejected: "Result refused", entered: "Result entered",
  removed: "Result removed" };

function renderDecisions(s) {
  const body = $("#decisions tbody");
  body.replaceChildren();
  for (const d of s.decisions || []) {
    const r = d.result || {};
    const where = d.round ? `Round ${d.round}, table ${d.table}: ` : "";
    const who = r.black ? `${r.black} v ${r.white}` + (r.winner ? `, ${r.winner} won` : ", no winner") : "";
    body.append(row([new Date(d.at * 1000).toLocaleTimeString(), DECIDED[d.action] || d.action,
      where + who + (d.board && d.board !== "hub" ? ` (board ${d.board})` : ""), d.reason]));
  }
  $("#decisions-box").hidden = body.children.length === 0;
}

// The referee enters the result of a game no board reported (a form outside the live parts of
// the page, so a refresh never clears it while it is filled in).
function openEnter(round, p) {
  const form = $("#enter-form");
  form.dataset.round = String(round);
  form.dataset.table = String(p.table);
  $("#enter-title").textContent = `Round ${round}, table ${p.table}: ${p.black} v ${p.white}`;
  $("#enter-winner").replaceChildren(h("option", { value: p.black }, p.black),
    h("option", { value: p.white }, p.white), h("option", { value: "" }, "nobody (a draw)"));
  $("#enter-first-who").textContent = p.black;
  $("#enter-second-who").textContent = p.white;
  for (const e of document.querySelectorAll(".enter-first-name")) e.textContent = p.black;
  for (const e of document.querySelectorAll(".enter-second-name")) e.textContent = p.white;
  form.reset();
  $("#enter-result").showModal();
}

function resultButton(round, p) {
  if (!referee || p.bye) return "";
  if (p.result) {
    return h("button", { class: "remove", onclick: () => {
      const reason = prompt(`Why is the result of ${p.black} v ${p.white} wrong?`);
      if (!reason || !reason.trim()) return;
      act(Common.data(`/api/rounds/${round}/tables/${p.table}/result/remove`,
        { board: p.result.board, match_id: p.result.match_id, reason }), "result removed");
    } }, "Remove result");
  }
  return h("button", { class: "enter", onclick: () => openEnter(round, p) }, "Enter result");
}

function renderBroker(s) {
  const broker = $("#broker");
  broker.textContent = s.broker_connected ? "broker connected" : "broker not connected";
  broker.className = "pill " + (s.broker_connected ? "ok" : "bad");
  const health = $("#health");
  health.replaceChildren(...(s.problems || []).map((p) => h("li", {}, p)));
  $("#health-box").hidden = health.children.length === 0;
}

// `only`: the boards whose cards changed; the rest of the page is drawn again unless
// `boardsOnly` (a change of cards alone).
function render(s, only, boardsOnly) {
  snap = s;
  renderBroker(s);
  renderBoards(s, only);
  if (!boardsOnly) {
    renderAttention(s); renderStandings(s); renderRounds(s); renderPlayers(s); renderGames(s);
    renderDecisions(s);
  }
  for (const e of document.querySelectorAll(".referee-only")) e.hidden = !referee;
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
  Common.data("/api/hub")
    .then((f) => { resyncing = false; if (version === null || f.version >= version) takeFull(f); })
    .catch((e) => { resyncing = false; version = null; Common.toast(e.message); });
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

async function refreshSession() {
  try { referee = (await Common.data("/api/referee/session")).referee; } catch (e) { referee = false; }
  $("#login").hidden = referee;
  $("#logout").hidden = !referee;
  if (snap) render(snap);
}

$("#login").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act(Common.data("/api/referee/login", { pin: $("#pin").value }).then(refreshSession), "logged in");
  $("#pin").value = "";
});
$("#logout").addEventListener("click", () => act(Common.data("/api/referee/logout", {}).then(refreshSession)));
$("#pair").addEventListener("click", () => act(Common.data("/api/rounds", {}), "round paired"));
$("#add-player").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act(Common.data("/api/players", { name: $("#player-name").value }).then(() => { $("#player-name").value = ""; }));
});
$("#swiss").addEventListener("submit", (ev) => {
  ev.preventDefault();
  act(Common.data("/api/swiss-rounds", { count: Number($("#swiss-count").value) }));
});
$("#log-close").addEventListener("click", () => { $("#log").hidden = true; });
$("#enter-cancel").addEventListener("click", () => $("#enter-result").close());
$("#enter-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const num = (id) => Number($(id).value);
  act(Common.data(`/api/rounds/${form.dataset.round}/tables/${form.dataset.table}/result`, {
    winner: $("#enter-winner").value || null,
    first_rounds: num("#enter-first-rounds"), second_rounds: num("#enter-second-rounds"),
    first_points: num("#enter-first-points"), second_points: num("#enter-second-points"),
    reason: $("#enter-reason").value,
  }).then(() => $("#enter-result").close()), "result entered");
});

refreshSession();
Common.socket("/ws", onFrame, (up) => {
  if (up) { if (snap) renderBroker(snap); return; }
  $("#broker").textContent = "hub unreachable, retrying…";
  $("#broker").className = "pill bad";
});
