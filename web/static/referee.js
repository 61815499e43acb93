// The referee display: the scoreboard plus the log, the sensors and a score chart.

import { boardOptions, drawBoard } from "./board-drawing.js";
import { h, svg as g, toast } from "./dom.js";
import "./durability.js";
import { renderEffects } from "./last-shot.js";
import { Skitter } from "./live.js";
import { renderPlayers } from "./player-panel.js";
import { Question } from "./question.js";
import "./referee-audit.js";
import { Referee } from "./referee-login.js";
import { Review } from "./review.js";
import { lang, nt, t } from "./words.js";

let profile = null;
let logKey = null;
let entries = [];

// A change from this page (the question about a full field): 401 asks for the PIN again.
// how.seen: the state the person answered in (a 409 says what changed meanwhile).
async function answer(path, body, how) {
  const r = await Skitter.api(path, { ...body, seq: how.seen.seq, boot: how.seen.boot });
  if (r.status === 401) Referee.check();
  toast(r.ok ? how.done : Skitter.errorText(r), r.ok);
  return r;
}

function time(at) {
  const d = new Date(at * 1000);
  return d.toLocaleString(lang, { year: "numeric", month: "short", day: "numeric",
    hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// The round a step was played in. An entry carries the round after it, so a round-winning
// shot already says the next round: it belongs to the round it won (and an undo of it to
// the round it returns to), hence the lower of its round and the one before it.
function playedIn(i) {
  return i ? Math.min(entries[i].round, entries[i - 1].round) : entries[i].round;
}

// The log in words (made by the server), newest first, the raw step behind a "details"
// toggle, and a heading row above each round's steps.
function renderLog(s) {
  const rows = [];
  let round = null;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (playedIn(i) !== round) {
      round = playedIn(i);
      rows.push(h("tr", { class: "round-sep" }, h("td", { colspan: 7 }, t("Round {n}", { n: round }))));
    }
    rows.push(h("tr", { class: e.undone ? "undone" : "", dataset: { seq: e.seq } },
      h("td", { class: "seq" }, String(e.seq)),
      h("td", { class: "time" }, time(e.at)),
      h("td", { class: "source" }, h("span", { class: `tag ${e.source}` }, sourceWords(e.source))),
      h("td", { class: "step" }, e.words || e.text,
        e.reason ? h("div", {}, h("em", {}, t("reason: {reason}", { reason: e.reason }))) : null,
        h("details", { class: "raw" }, h("summary", {}, t("details")),
          h("code", {}, JSON.stringify(e.step)))),
      h("td", { class: "did" }, ...(e.effects || []).map((x) =>
        h("div", {}, h("span", { class: "reason" }, x.reason), x.text))),
      h("td", { class: "score" }, `${e.score.black} : ${e.score.white}`),
      h("td", { class: "act" }, Review.button(e))));
  }
  document.getElementById("log").replaceChildren(...rows);
  renderClock();
  drawChart(s);
}

function drawChart(s) {
  const svg = document.getElementById("chart");
  const W = 600, H = 220, pad = 28;
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const target = s.state.rules.points_to_win_round;
  const points = [{ black: 0, white: 0 }, ...entries.map((e) => e.score)];
  const x = (i) => pad + (W - 2 * pad) * (points.length > 1 ? i / (points.length - 1) : 0);
  const y = (v) => H - pad - (H - 2 * pad) * ((v + 1) / (target + 1));
  const nodes = [];
  for (let v = -1; v <= target; v++) {
    nodes.push(g("line", { class: "axis", x1: pad, x2: W - pad, y1: y(v), y2: y(v) }),
      g("text", { x: 4, y: y(v) + 4 }, v));
  }
  for (const p of ["black", "white"]) {
    const d = points.map((pt, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(pt[p]).toFixed(1)}`).join(" ");
    nodes.push(g("path", { class: `line-${p}`, d }, g("title", {}, Skitter.nameOf(s, p))));
  }
  entries.forEach((e, i) => {  // a dashed mark after each step that ended a round
    if (!e.undone && e.round > playedIn(i)) {
      const at = x(i + 1);
      nodes.push(g("line", { class: "round-mark", x1: at, x2: at, y1: pad / 2, y2: H - pad }),
        g("text", { class: "round-label", x: at < W / 4 ? at + 3 : at - 3, y: pad,
          "text-anchor": at < W / 4 ? "start" : "end" },
          t("round {n} ends", { n: playedIn(i) })));
    }
  });
  nodes.push(g("text", { x: W - pad, y: H - 6, "text-anchor": "end" }, t("steps →")));
  svg.replaceChildren(...nodes);
  // the legend: each name after the one before, on a new line when it would not fit
  let lx = pad + 10, ly = 14;
  for (const p of ["black", "white"]) {
    const label = g("text", { x: lx + 36, y: ly + 4 }, Skitter.nameOf(s, p));
    svg.append(label);
    const wide = label.getComputedTextLength();
    if (lx > pad + 10 && lx + 36 + wide > W - pad) {
      lx = pad + 10; ly += 16;
      label.setAttribute("x", lx + 36); label.setAttribute("y", ly + 4);
    }
    svg.append(g("line", { class: `line-${p}`, x1: lx, x2: lx + 30, y1: ly, y2: ly }));
    lx += 36 + wide + 24;
  }
}

async function refreshLog(s) {
  const key = `${s.match_id}/${s.log_length}/${s.version}`;
  if (key === logKey) return;
  logKey = key;
  const r = await Skitter.api("/api/match/log");
  if (r.ok) { entries = r.data.entries; renderLog(s); }
}

// Who made a step, as the log's tag says it (the tag's class keeps the source's id).
function sourceWords(source) {
  const said = { sensor: t("sensors"), manual: t("by hand"), button: t("button"),
                 hub: t("hub") };
  return said[source] || source;
}

// Why a cell is flagged, in words (the flag's kind is its id).
const FLAGS = { "stuck active": t("stuck active"), "stuck inactive": t("stuck inactive"),
                jittery: t("jittery") };

// A cell's place in players' words ("Bo's red", "Ann's launch spot"); the profile's role id
// (white.red, launch:black) stays in the cell's data-role for the referee's tools.
function placeOf(s, role) {
  const [kind, what] = role.split(":");
  if (!what) return Skitter.fieldLabel(s, kind);
  if (kind === "big") return t("{who}'s big skitt", { who: Skitter.nameOf(s, what) });
  if (kind === "launch") return t("{who}'s launch", { who: Skitter.nameOf(s, what) });
  if (kind === "bridge") return t("bridge");
  return kind;
}

function renderCells(s) {
  const box = document.getElementById("cells");
  if (!profile || !s.sensors) { box.textContent = t("no sensor source"); return; }
  const active = new Set(s.sensors.active);
  const muted = new Set(s.sensors.muted);
  const flags = {};
  for (const f of s.sensors.flags) flags[f.cell] = f;
  const mute = async (cell, on) => {
    // the state the cell was drawn from: what the referee saw when they decided
    const r = await Skitter.api("/api/referee/mute", { cell, muted: on, seq: s.seq, boot: s.boot });
    if (!r.ok) toast(Skitter.errorText(r));
  };
  const cells = [];
  for (let c = 0; c < profile.cells; c++) {
    const role = profile.roles[String(c)];
    const f = flags[c];
    const isMuted = muted.has(c);
    const cls = ["cell", active.has(c) ? "active" : "", role ? "" : "unused", f ? "flagged" : "",
      isMuted ? "muted" : ""].join(" ");
    const place = role ? placeOf(s, role) : t("unused");
    const flag = f ? FLAGS[f.kind] || f.kind : "";
    cells.push(h("div", { class: cls, title: f ? `${place}: ${flag}` : place,
      dataset: { cell: c, role: role || "" } }, String(c), h("br"), role ? place : "–",
      f ? [h("br"), flag] : null,
      role && (f || isMuted) ? [h("br"), h("button", {
        class: "secondary needs-referee", dataset: { mute: c, on: String(!isMuted) },
        onclick: () => mute(c, !isMuted) }, isMuted ? t("unmute") : t("mute"))] : null));
  }
  box.replaceChildren(...cells);
}

Skitter.onState((s) => {
  const st = s.state;
  renderPlayers(s);
  document.getElementById("round").textContent = st.rules.variant === "trio" ? t("Trio")
    : t("Round {n}", { n: st.round });
  document.getElementById("pot").textContent = t("Pot {n}", { n: st.pot });
  document.getElementById("tracker").textContent = t("The board: {what}",
    { what: (s.words && s.words.board) || s.tracker.message });
  document.getElementById("match-info").textContent =
    t("match {id} · state {seq} · source {source}",
      { id: s.match_id, seq: s.seq, source: s.sensing.source });
  Skitter.renderAlerts(document.getElementById("alerts"), s);
  Question.render(document.getElementById("question"), s, answer);
  const opts = boardOptions(s);
  drawBoard(document.getElementById("board"), opts);
  renderEffects(document.getElementById("effects"), s, true);
  const link = s.link;
  document.getElementById("link").textContent = link.up
    ? (link.degraded ? t("link up (degraded)") : t("link up")) + " · " +
      nt("{n} error", "{n} errors", link.errors)
    : t("link DOWN: {why}", { why: link.message });
  document.getElementById("pause").textContent = s.sensing.paused ? t("Resume sensing")
    : t("Pause sensing");
  renderCells(s);
  refreshLog(s);
});
document.getElementById("pause").onclick = async () => {
  const seen = Skitter.state;  // one tap: decided on the state drawn now
  const r = await Skitter.api("/api/referee/pause",
    { paused: !seen.sensing.paused, seq: seen.seq, boot: seen.boot });
  if (!r.ok) toast(Skitter.errorText(r));
};
Referee.wire(document.getElementById("login"));
Review.wire();
Skitter.api("/api/board").then((r) => {
  if (!r.ok) return;
  profile = r.data.profile;
  if (Skitter.state) renderCells(Skitter.state); // the state may have come first
});
Skitter.api("/api/about").then((r) => {
  if (r.ok) document.getElementById("version").textContent =
    t("skitter version {version}", { version: r.data.version });
});
Referee.check();
Skitter.start();

// The match clock: time since the match's first step and since the current round began.
function span(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : String(m)) + `:${String(r).padStart(2, "0")}`;
}
function renderClock() {
  const el = document.getElementById("clock");
  if (!el) return;
  if (!entries.length) {
    el.textContent = t("The match clock starts with the first step");
    return;
  }
  const now = Date.now() / 1000;
  const round = entries[entries.length - 1].round;
  const first = entries.find((e) => e.round === round) || entries[0];
  el.textContent = t("Match {match} · round {round} {in_round} · started {at}", {
    match: span(now - entries[0].at), round, in_round: span(now - first.at),
    at: time(entries[0].at) });
}
setInterval(renderClock, 1000);
