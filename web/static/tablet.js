// The referee's tablet: everything a person decides, each tap one API call carrying `seq`.
"use strict";

const $ = (id) => document.getElementById(id);
const S = () => Skitter.state;

function toast(text, ok) {
  const t = $("toast");
  t.textContent = text;
  t.className = ok ? "ok show" : "show";
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.className = ""; }, ok ? 1800 : 6000);
}

async function send(path, body, done) {
  // Always ask the server: it alone decides who may change the match (401 otherwise).
  const r = await Skitter.api(path, { seq: S().seq, ...body });
  if (r.status === 401) Referee.check();
  if (!r.ok) { toast(Skitter.errorText(r)); return r; }
  toast(done || "done", true);
  return r;
}

// A −/+ stepper; returns an object with value get/set.
function stepper(container, min, max, value, label) {
  container.replaceChildren();
  container.classList.add("stepper");
  const minus = document.createElement("button");
  const out = document.createElement("output");
  const plus = document.createElement("button");
  minus.type = plus.type = "button";
  minus.textContent = "−";
  plus.textContent = "+";
  minus.className = plus.className = "secondary";
  if (label) { minus.setAttribute("aria-label", `${label} minus`); plus.setAttribute("aria-label", `${label} plus`); }
  const api = {
    get value() { return Number(out.value); },
    set value(v) { out.value = String(Math.max(min, Math.min(max, v))); },
    set max(v) { max = v; api.value = api.value; },
    onchange: null,
  };
  minus.onclick = () => { api.value = api.value - 1; if (api.onchange) api.onchange(); };
  plus.onclick = () => { api.value = api.value + 1; if (api.onchange) api.onchange(); };
  container.append(minus, out, plus);
  if (label) out.setAttribute("aria-label", label);
  api.value = value;
  return api;
}

function labelled(parent, text) {
  const l = document.createElement("label");
  l.textContent = text;
  const span = document.createElement("span");
  l.appendChild(span);
  parent.appendChild(l);
  return span;
}

function options(select, items, keep) {
  const old = select.value;
  select.replaceChildren();
  for (const [value, text] of items) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    select.appendChild(o);
  }
  if (keep && items.some(([v]) => v === old)) select.value = old;
}

// -- status ------------------------------------------------------------------------------

function renderStatus(s) {
  const st = s.state;
  for (const p of ["black", "white"]) {
    const el = $(`st-${p}`);
    el.textContent = `${Skitter.nameOf(s, p)}${st.turn === p ? " · to shoot" : ""}` +
      (st.turn === p && st.must_place_big ? " (big skitt)" : "");
    el.classList.toggle("due", st.turn === p);
  }
  $("st-score").textContent = `${st.score.black} : ${st.score.white}`;
  Skitter.renderAlerts($("alerts"), s);
}

// -- decisions ----------------------------------------------------------------------------

function renderDecisions(s) {
  const st = s.state;
  const reds = st.pending.red;  // one entry per player with open points (R4)
  const unblock = st.pending.unblock;
  $("sec-decisions").classList.toggle("hidden", !reds.length && !unblock);
  const box = $("red-choices");
  box.replaceChildren();
  for (const red of reds) {
    const h = document.createElement("p");
    h.textContent = `Hit on Red: ${Skitter.nameOf(s, red.player)} chooses, point by point (R4)`;
    box.appendChild(h);
    red.choices.forEach((choice, i) => {
      const row = document.createElement("div");
      row.className = "pending-point";
      row.append(`Point ${i + 1}: `);
      for (const option of ["advance", "back"]) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = `choice ${choice === option ? "on" : ""}`;
        b.dataset.point = String(i);
        b.dataset.player = red.player;
        b.dataset.choice = option;
        b.textContent = option === "advance" ? `${Skitter.nameOf(s, red.player)} +1`
          : `${Skitter.nameOf(s, red.player === "black" ? "white" : "black")} −1`;
        b.disabled = !red.changeable[i] || choice === option;
        b.setAttribute("aria-pressed", String(choice === option));
        b.onclick = () => {
          const choices = red.choices.slice();
          choices[i] = option;
          send("/api/match/steps", { step: { decide: { by: red.player, red: choices } } },
            "Hit on Red choice recorded");
        };
        row.appendChild(b);
      }
      box.appendChild(row);
    });
  }
  const ub = $("unblock-choices");
  ub.replaceChildren();
  if (unblock) {
    const h = document.createElement("p");
    h.textContent = `${Skitter.nameOf(s, unblock.player)} may lift one blockade (R16):`;
    ub.appendChild(h);
    for (const f of unblock.fields) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.unblock = f;
      b.textContent = `Lift ${Skitter.fieldLabel(s, f)}`;
      b.onclick = () => send("/api/match/steps",
        { step: { decide: { by: unblock.player, unblock: f } } }, "blockade lifted");
      ub.appendChild(b);
    }
  }
}

// -- shoot-off ----------------------------------------------------------------------------

const shootoff = {};
function setupShootoff() {
  const box = $("shootoff-steppers");
  for (const p of ["black", "white"]) {
    shootoff[p] = stepper(labelled(box, p), -1, 20, 0, `shoot-off ${p}`);
  }
  $("shootoff-send").onclick = () => send("/api/match/steps",
    { step: { shootoff: { black: shootoff.black.value, white: shootoff.white.value } } },
    "shoot-off entered");
}

// -- the board after a stop ------------------------------------------------------------------

function renderBoardSection(s) {
  const mode = s.tracker.mode;
  $("sec-board").classList.toggle("hidden", mode !== "review" && mode !== "restore");
  $("board-message").textContent = (s.words && s.words.board) || s.tracker.message;
  $("accept-board").classList.toggle("hidden", mode !== "review");
}

// -- amend the last shot -----------------------------------------------------------------

let offBoard;
let amendFor = null;  // the log seq the amend form was filled from (keep edits otherwise)
function renderAmend(s) {
  const st = s.state;
  const last = s.last_step && s.last_step.step.shot ? s.last_step.step.shot : null;
  $("sec-amend").classList.toggle("hidden", !last);
  if (!last) { amendFor = null; return; }
  const key = `${s.match_id}/${s.last_step.seq}`;
  if (key === amendFor) return;
  amendFor = key;
  const said = ((s.words && s.words.effects) || []).map((e) => e.text).join("; ");
  $("last-shot").textContent = `${Skitter.nameOf(s, last.by)}'s shot` +
    (said ? `: ${said}` : ": no points, no penalty");
  const field = (f) => Skitter.fieldLabel(s, f);  // "Bo's red": the value keeps the id
  const colourFields = st.rules.colors.flatMap((c) => [`black.${c}`, `white.${c}`]);
  const opposite = st.rules.colors.map((c) => `${last.by === "black" ? "white" : "black"}.${c}`);
  offBoard.value = last.off_board || 0;
  $("amend-big-box").classList.toggle("hidden", !last.big);
  options($("amend-big"), [["placed", "placed in the centre"], ["missed", "missed (still in hand)"],
    ...colourFields.map((f) => [f, `on ${field(f)}`])]);
  if (last.big) $("amend-big").value = last.big;
  options($("amend-knocked"), [["", "no"], ["loose", "yes, loose"],
    ...colourFields.map((f) => [f, `yes, onto ${field(f)}`])]);
  $("amend-knocked").value = last.knocked_big || "";
  const chainItems = [["", "no chain"], ...opposite.map((f) => [f, field(f)])];
  options($("amend-chain-a"), chainItems);
  options($("amend-chain-b"), chainItems);
  $("amend-chain-a").value = last.chain ? last.chain[0] : "";
  $("amend-chain-b").value = last.chain ? last.chain[1] : "";
  const flipping = st.rules.flipping;
  $("amend-blockade-box").classList.toggle("hidden", !flipping);
  $("amend-blockade-to-box").classList.toggle("hidden", !flipping);
  options($("amend-blockade-from"), [["", "none"], ...colourFields.map((f) => [f, field(f)])]);
  options($("amend-blockade-to"), [["off", "off the board"], ["minus", "minus"],
    ...colourFields.map((f) => [f, field(f)])]);
  $("amend-blockade-from").value = last.blockade ? last.blockade.from : "";
  if (last.blockade) $("amend-blockade-to").value = last.blockade.to;
  $("amend-invalid").checked = Boolean(last.invalid);
}

function amendBody() {
  const last = S().last_step.step.shot;
  const body = { off_board: offBoard.value };
  if (last.big) body.big = $("amend-big").value;
  body.knocked_big = $("amend-knocked").value || null;
  const a = $("amend-chain-a").value, b = $("amend-chain-b").value;
  body.chain = a && b ? [a, b] : null;
  const from = $("amend-blockade-from").value;
  body.blockade = from ? { from, to: $("amend-blockade-to").value } : null;
  body.invalid = $("amend-invalid").checked;
  return body;
}

// -- corrections --------------------------------------------------------------------------

const corr = { score: {}, wins: {}, board: {}, dirty: false };
function setupCorrections() {
  for (const p of ["black", "white"]) {
    corr.score[p] = stepper(labelled($("corr-score"), p), -1, 4, 0, `score ${p}`);
    corr.wins[p] = stepper(labelled($("corr-wins"), p), 0, 4, 0, `round wins ${p}`);
    corr.score[p].container = $("corr-score").lastChild;
    corr.wins[p].container = $("corr-wins").lastChild;
  }
  $("corr-reset").onclick = () => { corr.dirty = false; fillCorrections(S()); };
  $("corr-conflict-ok").onclick = () => $("corr-conflict").classList.add("hidden");
  $("corr-send").onclick = sendCorrection;
}

// Only the values the user changed are sent, measured against the state the form was filled
// from, and against that state's seq: if another tablet changed the match meanwhile the
// server answers 409 and nothing of theirs is overwritten (issue 13, item 8).
async function sendCorrection() {
  const base = corr.base, st = base.state, body = {};
  const score = {}, wins = {}, board = {};
  for (const p of ["black", "white"]) {
    if (corr.score[p].value !== st.score[p]) score[p] = corr.score[p].value;
    if (corr.wins[p].value !== st.round_wins[p]) wins[p] = corr.wins[p].value;
  }
  for (const f of Object.keys(corr.board)) {
    if (corr.board[f].value !== st.board[f]) board[f] = corr.board[f].value;
  }
  if (Object.keys(score).length) body.score = score;
  if (Object.keys(wins).length) body.round_wins = wins;
  if (Object.keys(board).length) body.board = board;
  const turn = $("corr-turn").value;
  if (turn && turn !== st.turn) body.turn = turn;
  if (st.rules.flipping) {
    const blocked = [...document.querySelectorAll("#corr-blocked input:checked")].map((i) => i.value);
    if (blocked.sort().join() !== [...st.blocked].sort().join()) body.blocked = blocked;
  }
  if (!Object.keys(body).length) { toast("Nothing to correct: change a value first"); return; }
  body.reason = $("corr-reason").value;
  const r = await Skitter.api("/api/match/steps", { seq: base.seq, step: { correct: body } });
  if (r.status === 401) Referee.check();
  if (r.status === 409) {
    const what = (r.data && r.data.meanwhile) || [];
    $("corr-conflict-text").textContent = "Not applied: the match changed meanwhile" +
      (what.length ? ` (${what.join("; ")})` : "") +
      ". The form now shows the current state; make your change again if it is still needed.";
    $("corr-conflict").classList.remove("hidden");
    corr.dirty = false;
    fillCorrections(S());
    return;
  }
  if (!r.ok) { toast(Skitter.errorText(r)); return; }
  toast("correction applied", true);
  corr.dirty = false;
  $("corr-reason").value = "";
  fillCorrections(S());
}

function fillCorrections(s) {
  const st = s.state;
  if (corr.dirty) return;
  corr.base = s;
  for (const p of ["black", "white"]) {
    corr.score[p].max = st.rules.points_to_win_round - 1;
    corr.score[p].value = st.score[p];
    corr.wins[p].max = Math.max(0, st.rules.rounds_to_win_game - 1);
    corr.wins[p].value = st.round_wins[p];
    corr.score[p].onchange = corr.wins[p].onchange = () => { corr.dirty = true; };
  }
  const boardBox = $("corr-board");
  if (Object.keys(corr.board).join() !== Object.keys(st.board).join()) {
    boardBox.replaceChildren();
    corr.board = {};
    for (const f of Object.keys(st.board)) {
      corr.board[f] = stepper(labelled(boardBox, f), 0, st.rules.pot, 0, `board ${f}`);
      corr.board[f].container = boardBox.lastChild;
    }
  }
  // labels in names (the aria-labels keep the field ids for the referee's tools)
  for (const p of ["black", "white"]) {
    corr.score[p].container.firstChild.nodeValue = Skitter.nameOf(s, p);
    corr.wins[p].container.firstChild.nodeValue = Skitter.nameOf(s, p);
  }
  for (const f of Object.keys(corr.board)) {
    corr.board[f].container.firstChild.nodeValue = Skitter.fieldLabel(s, f);
  }
  for (const [f, n] of Object.entries(st.board)) {
    corr.board[f].value = n;
    corr.board[f].onchange = () => { corr.dirty = true; };
  }
  options($("corr-turn"), [["", st.turn ? `${Skitter.nameOf(s, st.turn)} (as now)` : "(nobody)"],
    ["black", Skitter.nameOf(s, "black")], ["white", Skitter.nameOf(s, "white")]]);
  $("corr-blocked-box").classList.toggle("hidden", !st.rules.flipping);
  const blocked = $("corr-blocked");
  blocked.replaceChildren();
  if (st.rules.flipping) {
    for (const f of Object.keys(st.board).filter((x) => x !== "minus")) {
      const l = document.createElement("label");
      l.style.flexDirection = "row";
      const i = document.createElement("input");
      i.type = "checkbox";
      i.value = f;
      i.checked = st.blocked.includes(f);
      i.onchange = () => { corr.dirty = true; };
      l.append(i, f);
      blocked.appendChild(l);
    }
  }
}

// -- new match -------------------------------------------------------------------------------

function setupNewMatch() {
  $("new-match").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const body = {
      names: { black: f.get("black").trim(), white: f.get("white").trim() },  // "": the seat
      variant: f.get("variant"),
      flipping: f.get("flipping") === "true",
      points_to_win_round: Number(f.get("points")),
      rounds_to_win_game: Number(f.get("rounds")),
      first: f.get("first"),
      handicaps: {
        black: { line: f.get("black_line"), hand: f.get("black_hand") },
        white: { line: f.get("white_line"), hand: f.get("white_hand") },
      },
    };
    const r = await send("/api/match/new", body, "new match started");
    if (r && r.ok) $("sec-new").open = false;
  });
}

// -- wiring -----------------------------------------------------------------------------------

function setup() {
  Referee.wire($("login"));
  $("logout").onclick = () => Referee.logout();
  setupShootoff();
  setupCorrections();
  setupNewMatch();
  offBoard = stepper($("amend-off"), 0, 20, 0, "off the board");
  $("amend-send").onclick = () => send("/api/match/amend", amendBody(), "last shot amended");
  $("no-change").onclick = async () => {
    const r = await send("/api/match/no-change", {}, "turn recorded: no change");
    // a full field cannot show "no change": the question above asks what the shot added
    if (r.ok && r.data && r.data.tracker && r.data.tracker.mode === "question") {
      toast("Not recorded yet: say how many skitts the shot added to the full field", true);
    }
  };
  // Undo is deliberate: the first tap says what would be taken back, the second does it.
  let undoArmed = null;
  const disarm = () => {
    clearTimeout(undoArmed); undoArmed = null;
    $("undo").textContent = "Undo last step…";
    $("undo-cancel").classList.add("hidden");
  };
  $("undo-cancel").onclick = disarm;
  $("undo").onclick = () => {
    if (!undoArmed) {
      $("undo").textContent = "Yes, take it back";
      $("undo-cancel").classList.remove("hidden");
      undoArmed = setTimeout(disarm, 6000);
      return;
    }
    disarm();
    send("/api/match/undo", {}, "last step undone");
  };
  $("pause").onclick = () => send("/api/referee/pause", { paused: !S().sensing.paused },
    S().sensing.paused ? "sensing resumed" : "sensing paused");
  $("accept-board").onclick = () => send("/api/referee/board/accept", {}, "board accepted");
  $("restore-board").onclick = () => send("/api/referee/board/restore", {},
    "restore the board to the match");
  Skitter.onState((s) => {
    renderStatus(s);
    renderDecisions(s);
    $("sec-shootoff").classList.toggle("hidden", s.state.phase !== "shootoff");
    renderBoardSection(s);
    Question.render($("sec-question"), s, send);
    renderAmend(s);
    fillCorrections(s);
    if (!$("sec-new").open) {  // the new-match form starts from the current names
      const form = $("new-match");
      form.elements.black.value = (s.given_names || {}).black || "";
      form.elements.white.value = (s.given_names || {}).white || "";
    }
    $("undo").disabled = !s.can_undo;
    const lastEntry = (s.log || []).filter((e) => !e.undone).slice(-1)[0];
    $("undo-what").textContent = s.can_undo && lastEntry
      ? `The last step: ${lastEntry.words || lastEntry.text}` : "Nothing to take back";
    $("no-change").disabled = !s.state.turn;
    $("pause").textContent = s.sensing.paused ? "Resume sensing" : "Pause sensing";
  });
  Referee.check();
  Skitter.start();
}
setup();
