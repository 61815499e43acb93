// The referee's records beyond a correction of the position (R18, R19): the end of a round
// by hand (a winner or drawn), the start of a shoot-off, fewer points or round wins agreed by
// the players, a handicap changed during the game. Each is one correction step with a reason,
// sent against the state the form was filled from (a change meanwhile: 409, nothing applied,
// the entries kept). Also the warning before a correction that empties the pot.

import { $, toast } from "./dom.js";
import { options } from "./form-controls.js";
import { Skitter } from "./live.js";
import { Referee } from "./referee-login.js";
import { seenOf, staleText } from "./tablet-send.js";
import { t } from "./words.js";

const rec = { base: null, dirty: false };

export function setupRecords() {
  for (const id of ["rec-end-round", "rec-points", "rec-rounds", "rec-hc-player",
    "rec-hc-line", "rec-hc-finger", "rec-hc-hand"]) {
    $(id).onchange = () => { rec.dirty = true; };
  }
  $("rec-shootoff").onchange = () => { rec.dirty = true; };
  options($("rec-hc-line"), [["standard", t("standard line")], ["semicircle", t("semicircle")],
    ["beginner", t("beginner line")]]);
  options($("rec-hc-finger"), [["usual", t("usual finger")],
    ["different", t("a different finger")]]);
  options($("rec-hc-hand"), [["dominant", t("dominant hand")],
    ["non-dominant", t("non-dominant hand")]]);
  $("rec-send").onclick = () => sendRecord();
}

const range = (from, to) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

export function fillRecords(s) {
  if (rec.dirty) return;
  rec.base = s;
  const st = s.state, trio = st.rules.variant === "trio";
  const name = (p) => Skitter.nameOf(s, p);
  options($("rec-end-round"), [["", t("no")],
    ["black", t("{who} won the round", { who: name("black") })],
    ["white", t("{who} won the round", { who: name("white") })],
    ["drawn", t("the round is drawn")]]);
  $("rec-end-round-box").classList.toggle("hidden", trio || st.phase !== "playing");
  $("rec-shootoff").checked = false;
  // fewer, never at or below what a player already has (R19)
  const points = range(Math.max(st.score.black, st.score.white) + 1, st.rules.points_to_win_round - 1);
  options($("rec-points"), [["", t("{n} (as now)", { n: st.rules.points_to_win_round })],
    ...points.map((n) => [String(n), String(n)])]);
  const wins = range(Math.max(st.round_wins.black, st.round_wins.white) + 1,
    st.rules.rounds_to_win_game - 1);
  options($("rec-rounds"), [["", t("{n} (as now)", { n: st.rules.rounds_to_win_game })],
    ...wins.map((n) => [String(n), String(n)])]);
  $("rec-rounds-box").classList.toggle("hidden", trio);
  options($("rec-hc-player"), [["", t("no change")], ["black", name("black")],
    ["white", name("white")]]);
}

function recordBody() {
  const body = {};
  const end = $("rec-end-round").value;
  if (end && !$("rec-end-round-box").classList.contains("hidden")) body.end_round = end;
  if ($("rec-shootoff").checked) body.shootoff = true;
  if ($("rec-points").value) body.points_to_win_round = Number($("rec-points").value);
  if ($("rec-rounds").value && !$("rec-rounds-box").classList.contains("hidden")) {
    body.rounds_to_win_game = Number($("rec-rounds").value);
  }
  const who = $("rec-hc-player").value;
  if (who) {
    body.handicaps = { [who]: { line: $("rec-hc-line").value, finger: $("rec-hc-finger").value,
      hand: $("rec-hc-hand").value } };
  }
  return body;
}

async function sendRecord() {
  const body = recordBody();
  if (!Object.keys(body).length) { toast(t("Nothing to record: choose something first")); return; }
  body.reason = $("rec-reason").value;
  const at = seenOf(rec.base);
  const r = await Skitter.api("/api/match/steps",
    { seq: at.seq, boot: at.boot, step: { correct: body } });
  if (r.status === 401) Referee.check();
  if (r.status === 409) {  // nothing applied; the entries stay for the person to look again
    $("rec-conflict-text").textContent = staleText(r, t("Not recorded")) + " " +
      t("Your entries are kept: look at the match again, then record them or change them.");
    $("rec-conflict").classList.remove("hidden");
    rec.base = Skitter.state;
    return;
  }
  if (!r.ok) { toast(Skitter.errorText(r, true)); return; }
  toast(t("recorded"), true);
  $("rec-conflict").classList.add("hidden");
  rec.dirty = false;
  $("rec-reason").value = "";
  fillRecords(Skitter.state);
}

// -- a correction that empties the pot ends the round (R19): said before it is sent --------

// What the pot holds after a correction `body` of the state `st` (R2).
function potAfter(st, body) {
  const board = { ...st.board, ...(body.board || {}) };
  const wins = { ...st.round_wins, ...(body.round_wins || {}) };
  const blocked = body.blocked || st.blocked;
  const on = Object.values(board).reduce((a, b) => a + b, 0);
  return st.rules.pot - on - blocked.length - wins.black - wins.white - (st.kept || 0);
}

// The warning for a correction that ends the round, or null when it does not.
export function potWarning(s, body) {
  const st = s.state;
  if (st.rules.variant === "trio" || st.phase !== "playing" || potAfter(st, body) > 0) return null;
  const score = { ...st.score, ...(body.score || {}) };
  if (score.black === score.white) {
    return t("This correction leaves the pot empty: the round ends drawn ({a} to {b}) and a " +
      "shoot-off follows.", { a: score.black, b: score.white });
  }
  const winner = score.black > score.white ? "black" : "white";
  return t("This correction leaves the pot empty: the round ends and {who} wins it with more " +
    "points.", { who: Skitter.nameOf(s, winner) });
}

// Ask before sending a correction that ends the round; `go` sends it when confirmed.
export function confirmPotWarning(text, go) {
  $("corr-pot-text").textContent = text;
  $("corr-pot").classList.remove("hidden");
  $("corr-pot-ok").onclick = () => { $("corr-pot").classList.add("hidden"); go(); };
  $("corr-pot-no").onclick = () => { $("corr-pot").classList.add("hidden"); };
}
