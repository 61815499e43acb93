// The tablet's corrections: score, round wins, the board, the big skitts, whose turn and the
// blockades set by hand with a reason. Only what the person changed is sent, against the
// state the form was filled from; another tablet's change meanwhile keeps their entries.

import { $, h, toast } from "./dom.js";
import { labelled, options, stepper } from "./form-controls.js";
import { Skitter } from "./live.js";
import { Referee } from "./referee-login.js";
import { confirmPotWarning, potWarning } from "./tablet-records.js";
import { drawn, seenOf, staleText } from "./tablet-send.js";
import { t } from "./words.js";

// -- corrections --------------------------------------------------------------------------

// blockedTouched: the person changed a blocked field's checkbox; until then the checkboxes
// follow the match (another tablet's blockades show as it left them), and are not sent.
const corr = { score: {}, wins: {}, board: {}, big: {}, dirty: false, blockedTouched: false };
export function setupCorrections() {
  for (const p of ["black", "white"]) {
    // (named in the players' names by fillCorrections)
    corr.score[p] = stepper(labelled($("corr-score"), p), -1, 4, 0);
    corr.wins[p] = stepper(labelled($("corr-wins"), p), 0, 4, 0);
    corr.score[p].container = $("corr-score").lastChild;
    corr.wins[p].container = $("corr-wins").lastChild;
    // where the big skitt is, as the engine has it (R11, R12): a wrongly sensed one put right
    const sel = h("select", { id: `corr-big-${p}`, onchange: () => { corr.dirty = true; } });
    options(sel, [["center", t("in the centre")],
      ["hand", t("in hand (to be placed again)")]]);
    $("corr-big").appendChild(h("label", {}, p, sel));
    corr.big[p] = sel;
  }
  $("corr-reset").onclick = () => {
    corr.dirty = false; corr.blockedTouched = false; fillCorrections(Skitter.state);
  };
  // Apply the kept entries to the match as it is now (deliberately): measured against it.
  $("corr-conflict-ok").onclick = () => {
    $("corr-conflict").classList.add("hidden");
    sendCorrection(drawn());
  };
  $("corr-conflict-drop").onclick = () => {
    $("corr-conflict").classList.add("hidden");
    corr.dirty = false;
    corr.blockedTouched = false;
    fillCorrections(Skitter.state);
  };
  $("corr-send").onclick = () => sendCorrection();
}

// Only the values the user changed are sent, measured against the state the form was filled
// from, and against that state's seq: if another tablet changed the match meanwhile the
// server answers 409 and nothing of theirs is overwritten (issue 13, item 8).
// `seq` (resending kept entries): the state shown now; the values sent stay those the person
// changed from the form as filled, so another's change meanwhile is kept where they did not
// touch it.
async function sendCorrection(seen, confirmed) {
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
  if (st.rules.flipping && corr.blockedTouched) {
    const blocked = [...document.querySelectorAll("#corr-blocked input:checked")].map((i) => i.value);
    if (blocked.sort().join() !== [...st.blocked].sort().join()) body.blocked = blocked;
  }
  if (!Object.keys(body).length) { toast(t("Nothing to correct: change a value first")); return; }
  body.reason = $("corr-reason").value;
  const warning = confirmed ? null : potWarning(base, body);  // R19: say it before it is sent
  if (warning) { confirmPotWarning(warning, () => sendCorrection(seen, true)); return; }
  const at = seen || seenOf(base);
  const r = await Skitter.api("/api/match/steps",
    { seq: at.seq, boot: at.boot, step: { correct: body } });
  if (r.status === 401) Referee.check();
  if (r.status === 409) {  // the entries stay (never overwritten under the person's hands)
    $("corr-conflict-text").textContent = staleText(r, t("Not applied")) +
      " " + t("Your entries are kept: apply them to the match as it is now, or drop them.");
    $("corr-conflict").classList.remove("hidden");
    return;
  }
  if (!r.ok) { toast(Skitter.errorText(r, true)); return; }
  toast(t("correction applied"), true);
  $("corr-conflict").classList.add("hidden");
  corr.dirty = false;
  corr.blockedTouched = false;
  $("corr-reason").value = "";
  fillCorrections(Skitter.state);
}

export function fillCorrections(s) {
  const st = s.state;
  if (corr.dirty) {  // the person's entries stay; the blockades they left alone follow
    if (!corr.blockedTouched) fillBlocked(s);
    return;
  }
  corr.blockedTouched = false;
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
      corr.board[f] = stepper(labelled(boardBox, f), 0, st.rules.pot, 0);
      corr.board[f].container = boardBox.lastChild;
    }
  }
  // labels in names, for the eye and for a screen reader
  for (const p of ["black", "white"]) {
    corr.score[p].container.firstChild.nodeValue = Skitter.nameOf(s, p);
    corr.wins[p].container.firstChild.nodeValue = Skitter.nameOf(s, p);
    corr.score[p].label = t("{who}'s score", { who: Skitter.nameOf(s, p) });
    corr.wins[p].label = t("{who}'s round wins", { who: Skitter.nameOf(s, p) });
    corr.big[p].parentElement.firstChild.nodeValue =
      t("{who}'s big skitt", { who: Skitter.nameOf(s, p) }) + " ";
    if (st.big[p] !== null) corr.big[p].value = st.big[p];
  }
  $("corr-big-box").classList.toggle("hidden", st.big.black === null);  // Trio: none
  for (const f of Object.keys(corr.board)) {
    corr.board[f].container.firstChild.nodeValue = Skitter.fieldLabel(s, f);
    corr.board[f].label = Skitter.fieldLabel(s, f);
  }
  for (const [f, n] of Object.entries(st.board)) {
    corr.board[f].value = n;
    corr.board[f].onchange = () => { corr.dirty = true; };
  }
  options($("corr-turn"), [["", st.turn ? t("{who} (as now)", { who: Skitter.nameOf(s, st.turn) })
    : t("(nobody)")],
    ["black", Skitter.nameOf(s, "black")], ["white", Skitter.nameOf(s, "white")]]);
  fillBlocked(s);
}

// The blocked fields' checkboxes as the match `s` has them.
function fillBlocked(s) {
  const st = s.state;
  $("corr-blocked-box").classList.toggle("hidden", !st.rules.flipping);
  const blocked = $("corr-blocked");
  blocked.replaceChildren();
  if (st.rules.flipping) {
    for (const f of Object.keys(st.board).filter((x) => x !== "minus")) {
      const box = h("input", { type: "checkbox", value: f,
        onchange: () => { corr.dirty = true; corr.blockedTouched = true; } });
      box.checked = st.blocked.includes(f);
      // in names; the value keeps the id
      blocked.appendChild(h("label", { style: "flex-direction: row" }, box, Skitter.fieldLabel(s, f)));
    }
  }
}
