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

// The tablet speaks to the people at the table: the rule codes (R2, R16...) of a refusal or
// of the board's message stay on the referee page.
function plain(text) {
  return String(text).replace(/\s*\((?:R\d{1,2}(?:[,/ ]+)?)+\)/g, "").replace(/\s*\bR\d{1,2}\b:?/g, "");
}

// Every change carries the seq of the state its person saw when they decided: the state
// drawn when they tapped a one-tap button, when they armed Undo, when they began filling a
// form or when the confirmation they answer appeared; never the newest at send time. A
// change made meanwhile makes the server answer 409: nothing is applied, the section says
// what changed, and the page shows the match as it is (the 409 carries the state).
async function send(path, body, how) {
  // Always ask the server: it alone decides who may change the match (401 otherwise).
  const r = await Skitter.api(path, { ...body, seq: how.seen.seq, boot: how.seen.boot });
  if (r.status === 401) Referee.check();
  if (r.status === 409) {
    if (how.where) explainStale($(how.where), r, how.lead || "Not done");
    return r;
  }
  if (!r.ok) { toast(plain(Skitter.errorText(r))); return r; }
  if (how.where) hideStale($(how.where));
  toast(how.done || "done", true);
  return r;
}

// What a person saw: the seq of a state, and the boot (run) of the scorekeeper it came from.
function seenOf(s) { return { seq: s.seq, boot: s.boot }; }
// The state drawn right now: what a one-tap button was decided on.
const drawn = () => seenOf(S());

// What changed meanwhile, in the section the person acted in (it stays until dismissed).
function staleText(r, lead) {
  const what = (r.data && r.data.meanwhile) || [];
  const said = what.join("; ");
  return `${lead}: the match changed meanwhile.` +
    (said ? ` ${said[0].toUpperCase()}${said.slice(1)}.` : "") +
    " This page now shows the match as it is.";
}

function explainStale(section, r, lead) {
  let box = section.querySelector(":scope > .conflict.stale");
  if (!box) {
    box = Common.h("div", { class: "conflict stale", role: "alert" }, Common.h("p"),
      Common.h("button", { class: "secondary", type: "button",
        onclick: () => box.classList.add("hidden") }, "Understood"));
    section.appendChild(box);
  }
  box.querySelector("p").textContent = staleText(r, lead);
  box.classList.remove("hidden");
}

function hideStale(section) {
  const box = section && section.querySelector(":scope > .conflict.stale");
  if (box) box.classList.add("hidden");
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
  const won = s.words && s.words.moment && s.words.moment.kind === "game" ? s.words.moment : null;
  $("st-winner").textContent = won ? won.title : "";
  $("st-winner").classList.toggle("hidden", !won);
  // the shoot-off steppers are labelled with the players' names
  for (const p of ["black", "white"]) {
    if (shootoff[p]) shootoff[p].container.firstChild.nodeValue = Skitter.nameOf(s, p);
  }
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
    h.textContent = `Hit on Red: ${Skitter.nameOf(s, red.player)} chooses, point by point`;
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
        // "back" sets the other player back one: said as what the chooser does to them
        b.textContent = option === "advance" ? `${Skitter.nameOf(s, red.player)} +1`
          : `${Skitter.nameOf(s, red.player)} sets ${Skitter.nameOf(s, red.player === "black" ? "white" : "black")} back one`;
        b.disabled = !red.changeable[i] || choice === option;
        b.setAttribute("aria-pressed", String(choice === option));
        const seen = seenOf(s);
        b.onclick = () => {
          const choices = red.choices.slice();
          choices[i] = option;
          send("/api/match/steps", { step: { decide: { by: red.player, red: choices } } },
            { done: "Hit on Red choice recorded", seen, where: "sec-decisions",
              lead: "Not recorded" });
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
    h.textContent = `${Skitter.nameOf(s, unblock.player)} may lift one blockade:`;
    ub.appendChild(h);
    for (const f of unblock.fields) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.unblock = f;
      b.textContent = `Lift ${Skitter.fieldLabel(s, f)}`;
      const seen = seenOf(s);
      b.onclick = () => send("/api/match/steps",
        { step: { decide: { by: unblock.player, unblock: f } } },
        { done: "blockade lifted", seen, where: "sec-decisions", lead: "Not lifted" });
      ub.appendChild(b);
    }
  }
}

// -- shoot-off ----------------------------------------------------------------------------

const shootoff = { seen: null };  // seen: the state the values are being entered against
function setupShootoff() {
  const box = $("shootoff-steppers");
  for (const p of ["black", "white"]) {
    shootoff[p] = stepper(labelled(box, p === "black" ? "First player" : "Second player"),
      -1, 20, 0, `shoot-off ${p}`);
    shootoff[p].container = box.lastChild;
  }
  $("shootoff-send").onclick = async () => {
    const r = await send("/api/match/steps",
      { step: { shootoff: { black: shootoff.black.value, white: shootoff.white.value } } },
      { done: "shoot-off entered", seen: shootoff.seen, where: "sec-shootoff",
        lead: "Not entered" });
    if (r.ok) { shootoff.black.value = 0; shootoff.white.value = 0; }
  };
}

// Untouched steppers follow the state; once a value is entered, its state is kept.
function renderShootoff(s) {
  const on = s.state.phase === "shootoff";
  $("sec-shootoff").classList.toggle("hidden", !on);
  const untouched = shootoff.black.value === 0 && shootoff.white.value === 0;
  if (shootoff.seen === null || untouched) shootoff.seen = seenOf(s);
}

// -- the board after a stop ------------------------------------------------------------------

function renderBoardSection(s) {
  const mode = s.tracker.mode;
  $("sec-board").classList.toggle("hidden", mode !== "review" && mode !== "restore");
  $("board-message").textContent = plain((s.words && s.words.board) || s.tracker.message);
  $("accept-board").classList.toggle("hidden", mode !== "review");
}

// -- amend the last shot -----------------------------------------------------------------

let offBoard;
// The amend form: filled from one shot (`key`, at state `seq`), then the person's own. What
// they changed (`changes()`) is never overwritten: when another tablet changes the last shot
// meanwhile, the form keeps their entries and says so; they send them against the shot as it
// is now (deliberately) or drop them.
const amend = { key: null, seen: null, filled: null, shot: null };

function amendValues() {
  const body = { off_board: offBoard.value };
  if (amend.shot && amend.shot.big) body.big = $("amend-big").value;
  const knocked = [$("amend-knocked").value, $("amend-knocked-2").value].filter(Boolean);
  body.knocked_big = knocked.length === 2 ? knocked : knocked[0] || null;
  const a = $("amend-chain-a").value, b = $("amend-chain-b").value;
  body.chain = a && b ? [a, b] : null;
  const from = $("amend-blockade-from").value;
  body.blockade = from ? { from, to: $("amend-blockade-to").value } : null;
  body.invalid = $("amend-invalid").checked;
  const st = S().state;
  if (st.rules.variant !== "trio") {
    body.red = redChoices("amend-red");
    body.opponent_red = redChoices("amend-opp-red");
  }
  if (st.rules.flipping) body.unblock = $("amend-unblock").value || null;
  return body;
}
function amendChanges() {
  if (!amend.filled) return {};
  const now = amendValues(), out = {};
  for (const [k, v] of Object.entries(now)) {
    if (JSON.stringify(v) !== JSON.stringify(amend.filled[k])) out[k] = v;
  }
  return out;
}

function shotWords(s) {
  const last = s.last_step.step.shot;
  const said = ((s.words && s.words.effects) || []).map((e) => e.text).join("; ");
  return `${Skitter.nameOf(s, last.by)}'s shot` + (said ? `: ${said}` : ": no points, no penalty");
}

function renderAmend(s) {
  const last = s.last_step && s.last_step.step.shot ? s.last_step.step.shot : null;
  const key = last ? `${s.match_id}/${s.last_step.seq}` : null;
  const kept = Object.keys(amendChanges()).length > 0;
  $("sec-amend").classList.toggle("hidden", !last && !kept);
  if (key === amend.key) return;
  if (kept) {  // the person's entries stay; say what happened to the shot
    $("amend-changed-text").textContent = last
      ? `The last shot changed meanwhile; it is now ${shotWords(s)}. Your entries are kept:`
        + " send them for the shot as it is now, or drop them."
      : "The shot you were amending was taken back meanwhile. Your entries cannot be sent.";
    $("amend-resend").classList.toggle("hidden", !last);
    $("amend-changed").classList.remove("hidden");
    return;
  }
  if (last) fillAmend(s, last, key);
  else amend.key = null;
}

function fillAmend(s, last, key) {
  const st = s.state;
  amend.key = key;
  amend.seen = seenOf(s);
  amend.shot = last;
  $("amend-changed").classList.add("hidden");
  $("last-shot").textContent = shotWords(s);
  const field = (f) => Skitter.fieldLabel(s, f);  // "Bo's red": the value keeps the id
  const colourFields = st.rules.colors.flatMap((c) => [`black.${c}`, `white.${c}`]);
  const opposite = st.rules.colors.map((c) => `${last.by === "black" ? "white" : "black"}.${c}`);
  offBoard.value = last.off_board || 0;
  $("amend-big-box").classList.toggle("hidden", !last.big);
  options($("amend-big"), [["placed", "placed in the centre"], ["missed", "missed (still in hand)"],
    ...colourFields.map((f) => [f, `on ${field(f)}`])]);
  if (last.big) $("amend-big").value = last.big;
  // R12: one shot may knock both big skitts loose, each landing somewhere of its own
  const knocked = [].concat(last.knocked_big || []);  // one is written as a string
  const trio = st.rules.variant === "trio";
  $("amend-knocked-box").classList.toggle("hidden", trio);
  for (const [i, id] of [[0, "amend-knocked"], [1, "amend-knocked-2"]]) {
    options($(id), [["", "no"], ["loose", "yes, loose"],
      ...colourFields.map((f) => [f, `yes, onto ${field(f)}`])]);
    $(id).value = knocked[i] || "";
  }
  showSecondKnocked();
  amendRed($("amend-red-box"), "amend-red", last.by, last.red || []);
  amendRed($("amend-opp-red-box"), "amend-opp-red", other(last.by), last.opponent_red || []);
  $("amend-red-box").classList.toggle("hidden", trio);
  $("amend-opp-red-box").classList.toggle("hidden", trio);
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
  $("amend-unblock-box").classList.toggle("hidden", !flipping);
  options($("amend-unblock"), [["", "none"], ...opposite.map((f) => [f, field(f)])]);
  $("amend-unblock").value = last.unblock || "";
  $("amend-invalid").checked = Boolean(last.invalid);
  amend.filled = amendValues();
}

// seen: the state the form was filled from, or (resending) the state shown now.
async function sendAmend(seen) {
  const body = amendChanges();
  if (!Object.keys(body).length) { toast("Nothing to amend: change something first"); return; }
  const r = await send("/api/match/amend", body, { done: "last shot amended", seen });
  if (r.status === 409) {  // the entries stay; say what changed, offer to send them again
    const shotNow = S().last_step && S().last_step.step.shot;
    $("amend-changed-text").textContent = staleText(r, "Not amended") +
      (shotNow ? ` The last shot is now ${shotWords(S())}.` : "") +
      " Your entries are kept: send them for the shot as it is now, or drop them.";
    $("amend-resend").classList.toggle("hidden", !shotNow);
    $("amend-changed").classList.remove("hidden");
    return;
  }
  if (r.ok) { amend.filled = null; amend.key = null; renderAmend(S()); }
}

function dropAmend() {
  amend.filled = null;
  amend.key = null;
  renderAmend(S());
}

// -- corrections --------------------------------------------------------------------------

const corr = { score: {}, wins: {}, board: {}, big: {}, dirty: false };
function setupCorrections() {
  for (const p of ["black", "white"]) {
    corr.score[p] = stepper(labelled($("corr-score"), p), -1, 4, 0, `score ${p}`);
    corr.wins[p] = stepper(labelled($("corr-wins"), p), 0, 4, 0, `round wins ${p}`);
    corr.score[p].container = $("corr-score").lastChild;
    corr.wins[p].container = $("corr-wins").lastChild;
    // where the big skitt is, as the engine has it (R11, R12): a wrongly sensed one put right
    const l = document.createElement("label");
    l.append(p);
    const sel = document.createElement("select");
    sel.id = `corr-big-${p}`;
    options(sel, [["center", "in the centre"], ["hand", "in hand (to be placed again)"]]);
    sel.onchange = () => { corr.dirty = true; };
    l.appendChild(sel);
    $("corr-big").appendChild(l);
    corr.big[p] = sel;
  }
  $("corr-reset").onclick = () => { corr.dirty = false; fillCorrections(S()); };
  // Apply the kept entries to the match as it is now (deliberately): measured against it.
  $("corr-conflict-ok").onclick = () => {
    $("corr-conflict").classList.add("hidden");
    sendCorrection(drawn());
  };
  $("corr-conflict-drop").onclick = () => {
    $("corr-conflict").classList.add("hidden");
    corr.dirty = false;
    fillCorrections(S());
  };
  $("corr-send").onclick = () => sendCorrection();
}

// Only the values the user changed are sent, measured against the state the form was filled
// from, and against that state's seq: if another tablet changed the match meanwhile the
// server answers 409 and nothing of theirs is overwritten (issue 13, item 8).
// `seq` (resending kept entries): the state shown now; the values sent stay those the person
// changed from the form as filled, so another's change meanwhile is kept where they did not
// touch it.
async function sendCorrection(seen) {
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
  const big = {};
  for (const p of ["black", "white"]) {
    if (st.big[p] !== null && corr.big[p].value !== st.big[p]) big[p] = corr.big[p].value;
  }
  if (Object.keys(big).length) body.big = big;
  if (st.rules.flipping) {
    const blocked = [...document.querySelectorAll("#corr-blocked input:checked")].map((i) => i.value);
    if (blocked.sort().join() !== [...st.blocked].sort().join()) body.blocked = blocked;
  }
  if (!Object.keys(body).length) { toast("Nothing to correct: change a value first"); return; }
  body.reason = $("corr-reason").value;
  const at = seen || seenOf(base);
  const r = await Skitter.api("/api/match/steps",
    { seq: at.seq, boot: at.boot, step: { correct: body } });
  if (r.status === 401) Referee.check();
  if (r.status === 409) {  // the entries stay (never overwritten under the person's hands)
    $("corr-conflict-text").textContent = staleText(r, "Not applied") +
      " Your entries are kept: apply them to the match as it is now, or drop them.";
    $("corr-conflict").classList.remove("hidden");
    return;
  }
  if (!r.ok) { toast(plain(Skitter.errorText(r))); return; }
  toast("correction applied", true);
  $("corr-conflict").classList.add("hidden");
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
    corr.big[p].parentElement.firstChild.nodeValue = `${Skitter.nameOf(s, p)}'s big skitt `;
    if (st.big[p] !== null) corr.big[p].value = st.big[p];
  }
  $("corr-big-box").classList.toggle("hidden", st.big.black === null);  // Trio: none
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
      l.append(i, Skitter.fieldLabel(s, f));  // in names; the value keeps the id
      blocked.appendChild(l);
    }
  }
}

// -- wiring -----------------------------------------------------------------------------------

function setup() {
  Referee.wire($("login"));
  $("logout").onclick = () => Referee.logout();
  setupShootoff();
  setupCorrections();
  setupNewMatch();
  setupEarlier();
  offBoard = stepper($("amend-off"), 0, 20, 0, "off the board");
  $("amend-knocked").onchange = showSecondKnocked;
  $("amend-send").onclick = () => sendAmend(amend.seen);
  $("amend-resend").onclick = () => sendAmend(drawn());
  $("amend-drop").onclick = dropAmend;
  $("no-change").onclick = async () => {
    const r = await send("/api/match/no-change", {},
      { done: "turn recorded: no change", seen: drawn(), where: "sec-turn", lead: "Not recorded" });
    // a full field cannot show "no change": the question above asks what the shot added
    if (r.ok && r.data && r.data.tracker && r.data.tracker.mode === "question") {
      toast("Not recorded yet: say how many skitts the shot added to the full field", true);
    }
  };
  // Undo is deliberate: the first tap says what would be taken back, the second does it,
  // against the state shown at the first tap (another tablet's undo meanwhile: 409).
  let undoArmed = null, undoSeen = null;
  const disarm = () => {
    clearTimeout(undoArmed); undoArmed = null;
    $("undo").textContent = "Undo last step…";
    $("undo-cancel").classList.add("hidden");
  };
  $("undo-cancel").onclick = disarm;
  $("undo").onclick = () => {
    if (!undoArmed) {
      undoSeen = drawn();
      hideStale($("sec-undo"));
      $("undo").textContent = "Yes, take it back";
      $("undo-cancel").classList.remove("hidden");
      undoArmed = setTimeout(disarm, 6000);
      return;
    }
    disarm();
    send("/api/match/undo", {},
      { done: "last step undone", seen: undoSeen, where: "sec-undo", lead: "Not undone" });
  };
  $("pause").onclick = () => send("/api/referee/pause", { paused: !S().sensing.paused },
    { done: S().sensing.paused ? "sensing resumed" : "sensing paused", seen: drawn(),
      where: "sec-turn" });
  $("accept-board").onclick = () => send("/api/referee/board/accept", {},
    { done: "board accepted", seen: drawn(), where: "sec-board", lead: "Not accepted" });
  $("restore-board").onclick = () => send("/api/referee/board/restore", {},
    { done: "restore the board to the match", seen: drawn(), where: "sec-board" });
  $("board-as-expected").onclick = () => send("/api/referee/board/as-expected", {},
    { done: "play goes on: the board is as the match expects", seen: drawn(),
      where: "sec-board" });
  $("board-as-sensed").onclick = () => send("/api/referee/board/as-sensed", {},
    { done: "the match takes the board as it lies", seen: drawn(), where: "sec-board" });
  Skitter.onState((s) => {
    renderStatus(s);
    renderDecisions(s);
    renderShootoff(s);
    renderBoardSection(s);
    Question.render($("sec-question"), s, send);
    renderAmend(s);
    fillCorrections(s);
    renderEarlier(s);
    if (!$("sec-new").open) {  // the new-match form starts from the current names
      const form = $("new-match");
      form.elements.black.value = (s.given_names || {}).black || "";
      form.elements.white.value = (s.given_names || {}).white || "";
    }
    $("undo").disabled = !s.can_undo;
    // what an Undo would take back: the newest step standing (an undo itself is not one)
    const lastEntry = (s.log || []).filter((e) => !e.undone && e.kind !== "undo").slice(-1)[0];
    $("undo-what").textContent = s.can_undo && lastEntry
      ? `The last step: ${lastEntry.words || lastEntry.text}` : "Nothing to take back";
    $("no-change").disabled = !s.state.turn;
    $("pause").textContent = s.sensing.paused ? "Resume sensing" : "Pause sensing";
  });
  Referee.check();
  Skitter.start();
}
setup();
