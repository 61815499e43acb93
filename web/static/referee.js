// The referee display: the scoreboard plus the log, the sensors and a score chart.
"use strict";

let profile = null;
let logKey = null;
let entries = [];

function toast(text) {
  const t = document.getElementById("toast");
  t.textContent = text;
  t.className = "show";
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.className = ""; }, 5000);
}

function time(at) {
  const d = new Date(at * 1000);
  return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

function stepWords(e) {
  const body = e.step[e.kind];
  if (e.kind === "undo") return "undo";
  return `${e.text}${e.kind === "shot" || e.kind === "decide" ? " " + JSON.stringify(body) : ""}`;
}

function renderLog(s) {
  const tbody = document.getElementById("log");
  tbody.innerHTML = entries.slice().reverse().map((e) => `
    <tr class="${e.undone ? "undone" : ""}" data-seq="${e.seq}">
      <td>${e.seq}</td><td>${Skitter.esc(time(e.at))}</td>
      <td><span class="tag ${Skitter.esc(e.source)}">${Skitter.esc(e.source)}</span></td>
      <td>${Skitter.esc(stepWords(e))}${e.reason ? `<br><em>reason: ${Skitter.esc(e.reason)}</em>` : ""}</td>
      <td>${e.effects.map((x) => `<span class="reason">${Skitter.esc(x.reason)}</span>${Skitter.esc(x.text)}`).join("<br>")}</td>
      <td>${e.score.black} : ${e.score.white}</td><td>${Review.button(e)}</td></tr>`).join("");
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
  let html = "";
  for (let v = -1; v <= target; v++) {
    html += `<line class="axis" x1="${pad}" x2="${W - pad}" y1="${y(v)}" y2="${y(v)}"/>` +
      `<text x="4" y="${y(v) + 4}">${v}</text>`;
  }
  for (const p of ["black", "white"]) {
    const d = points.map((pt, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(pt[p]).toFixed(1)}`).join(" ");
    html += `<path class="line-${p}" d="${d}"><title>${Skitter.esc(Skitter.nameOf(s, p))}</title></path>`;
  }
  html += `<text x="${W - pad}" y="${H - 6}" text-anchor="end">steps →</text>`;
  ["black", "white"].forEach((p, i) => {
    html += `<line class="line-${p}" x1="${pad + 10 + i * 150}" x2="${pad + 40 + i * 150}" y1="14" y2="14"/>` +
      `<text x="${pad + 46 + i * 150}" y="18">${Skitter.esc(Skitter.nameOf(s, p))}</text>`;
  });
  svg.innerHTML = html;
}

async function refreshLog(s) {
  const key = `${s.match_id}/${s.log_length}/${s.version}`;
  if (key === logKey) return;
  logKey = key;
  const r = await Skitter.api("/api/match/log");
  if (r.ok) { entries = r.data.entries; renderLog(s); }
}

function renderCells(s) {
  const box = document.getElementById("cells");
  if (!profile || !s.sensors) { box.textContent = "no sensor source"; return; }
  const active = new Set(s.sensors.active);
  const muted = new Set(s.sensors.muted);
  const flags = {};
  for (const f of s.sensors.flags) flags[f.cell] = f;
  let html = "";
  for (let c = 0; c < profile.cells; c++) {
    const role = profile.roles[String(c)];
    const f = flags[c];
    const cls = ["cell", active.has(c) ? "active" : "", role ? "" : "unused", f ? "flagged" : "",
      muted.has(c) ? "muted" : ""].join(" ");
    const title = f ? f.message : role || "unused";
    html += `<div class="${cls}" title="${Skitter.esc(title)}" data-cell="${c}">${c}<br>` +
      `${Skitter.esc(role || "–")}${f ? `<br>${Skitter.esc(f.kind)}` : ""}` +
      (role && (f || muted.has(c)) ? `<br><button class="secondary needs-referee" data-mute="${c}" ` +
        `data-on="${muted.has(c) ? "false" : "true"}">${muted.has(c) ? "unmute" : "mute"}</button>` : "") +
      "</div>";
  }
  box.innerHTML = html;
  for (const b of box.querySelectorAll("button[data-mute]")) {
    b.onclick = async () => {
      const r = await Skitter.api("/api/referee/mute",
        { cell: Number(b.dataset.mute), muted: b.dataset.on === "true" });
      if (!r.ok) toast(Skitter.errorText(r));
    };
  }
}

Skitter.onState((s) => {
  const st = s.state;
  renderPlayers(s);
  document.getElementById("round").textContent = st.rules.variant === "trio" ? "Trio" : `Round ${st.round}`;
  document.getElementById("pot").textContent = `Pot ${st.pot}`;
  document.getElementById("tracker").textContent = `board: ${s.tracker.mode}: ${s.tracker.message}`;
  document.getElementById("match-info").textContent =
    `match ${s.match_id} · state ${s.seq} · source ${s.sensing.source}`;
  document.getElementById("alerts").innerHTML = Skitter.alertsHtml(s);
  const opts = boardOptions(s);
  Skitter.drawBoard(document.getElementById("board"), opts);
  renderEffects(document.getElementById("effects"), s);
  const link = s.link;
  document.getElementById("link").textContent = link.up
    ? `link up${link.degraded ? " (degraded)" : ""} · ${link.errors} errors` : `link DOWN: ${link.message}`;
  document.getElementById("pause").textContent = s.sensing.paused ? "Resume sensing" : "Pause sensing";
  renderCells(s);
  refreshLog(s);
});
document.getElementById("pause").onclick = async () => {
  const r = await Skitter.api("/api/referee/pause", { paused: !Skitter.state.sensing.paused });
  if (!r.ok) toast(Skitter.errorText(r));
};
Referee.wire(document.getElementById("login"));
Review.wire();
Skitter.api("/api/board").then((r) => {
  if (!r.ok) return;
  profile = r.data.profile;
  if (Skitter.state) renderCells(Skitter.state); // the state may have come first
});
Referee.check();
Skitter.start();
