// The hub referee puts results right: enter the result of a game no board reported,
// correct or remove a wrong one, and attach a board's game typed under another name to its
// pairing. Each form (a reason asked for included, never the browser's prompt) is a dialog
// outside the page's live parts, so a board's next event never clears it; each sends the
// version of what its referee saw, and when that changes meanwhile the form says so and
// keeps what was typed.

import { data } from "/shared/api.js";
import { h, toast } from "/shared/dom.js";
import { t } from "/shared/words.js";
import { $, act } from "./hub-dom.js";
import { referee, snap } from "./hub-state.js";
import { resultWords } from "./hub-words.js";

function pairingOf(s, round, table) {
  const r = (s.rounds || []).find((x) => x.number === round);
  return r && r.pairings.find((p) => p.table === table);
}

// A refusal shown inside the dialog (it stays open, nothing typed is lost).
function refuse(note, e) { note.textContent = e.message; note.hidden = false; }

// ---------------------------------------------------------------- a table's result

export function resultButtons(round, p) {
  if (!referee || p.bye) return [];
  if (!p.result) return [h("button", { class: "enter", onclick: () => openResult("enter", round, p) }, t("Enter result"))];
  return [
    h("button", { class: "correct-result", onclick: () => openResult("correct", round, p) }, t("Correct result")),
    h("button", { class: "remove", onclick: () => removeResult(round, p) }, t("Remove result")),
  ];
}

function openResult(mode, round, p) {
  const form = $("#enter-form");
  Object.assign(form.dataset, { mode, round: String(round), table: String(p.table), version: p.version });
  form.reset();
  const game = { round, table: p.table, black: p.black, white: p.white };
  $("#enter-title").textContent = mode === "enter"
    ? t("Enter the result of round {round}, table {table}: {black} v {white}", game)
    : t("Correct the result of round {round}, table {table}: {black} v {white}", game);
  $("#enter-now").textContent = p.result
    ? t("The result you are correcting: {result}.", { result: resultWords(p.result) }) : "";
  $("#enter-winner").replaceChildren(h("option", { value: p.black }, p.black),
    h("option", { value: p.white }, p.white), h("option", { value: "" }, t("nobody (a draw)")));
  for (const e of document.querySelectorAll(".enter-first-name")) e.textContent = p.black;
  for (const e of document.querySelectorAll(".enter-second-name")) e.textContent = p.white;
  const g = p.result;
  if (g) {
    $("#enter-winner").value = g.winner || "";
    $("#enter-first-rounds").value = g.black_rounds; $("#enter-second-rounds").value = g.white_rounds;
    $("#enter-first-points").value = g.black_points; $("#enter-second-points").value = g.white_points;
  }
  $("#enter-send").textContent = mode === "enter" ? t("Enter the result")
    : t("Correct the result");
  $("#enter-note").hidden = true;
  $("#enter-changed").hidden = true;
  $("#enter-result").showModal();
}

function removeResult(round, p) {
  openReason({
    title: t("Remove the result of round {round}, table {table}: {black} v {white} ({result})",
      { round, table: p.table, black: p.black, white: p.white, result: resultWords(p.result) }),
    send: t("Remove the result"), done: t("result removed"),
    kind: "result", round: String(round), table: String(p.table), version: p.version,
    path: `/api/rounds/${round}/tables/${p.table}/result/remove`,
  });
}

// ---------------------------------------------------------------- a reason asked for

// One dialog asks the reason for removing a result or refusing a board's claim: what was
// typed stays while the page redraws, and a refusal (a stale version) is shown inside it.
function openReason(what) {
  const form = $("#reason-form");
  form.reset();
  for (const k of Object.keys(form.dataset)) delete form.dataset[k];
  Object.assign(form.dataset, what);
  $("#reason-title").textContent = what.title;
  $("#reason-send").textContent = what.send;
  $("#reason-note").hidden = true;
  $("#reason-changed").hidden = true;
  $("#reason-result").showModal();
}

$("#reason-cancel").addEventListener("click", () => $("#reason-result").close());
$("#reason-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const reason = $("#reason-text").value;
  const body = form.dataset.kind === "result" ? { version: form.dataset.version, reason }
    : { seq: Number(form.dataset.seq), reason };
  data(form.dataset.path, body).then(() => {
    $("#reason-result").close();
    toast(form.dataset.done, true);
  }).catch((e) => refuse($("#reason-note"), e));
});

$("#enter-cancel").addEventListener("click", () => $("#enter-result").close());
$("#enter-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const num = (id) => Number($(id).value);
  const path = `/api/rounds/${form.dataset.round}/tables/${form.dataset.table}/result`
    + (form.dataset.mode === "correct" ? "/correct" : "");
  data(path, {
    winner: $("#enter-winner").value || null,
    first_rounds: num("#enter-first-rounds"), second_rounds: num("#enter-second-rounds"),
    first_points: num("#enter-first-points"), second_points: num("#enter-second-points"),
    reason: $("#enter-reason").value, version: form.dataset.version,
  }).then(() => {
    $("#enter-result").close();
    toast(form.dataset.mode === "correct" ? t("result corrected")
      : t("result entered"), true);
  }).catch((e) => refuse($("#enter-note"), e));
});
$("#enter-renew").addEventListener("click", () => {
  const form = $("#enter-form");
  form.dataset.version = form.dataset.latest;  // on purpose: against the result as it is now
  $("#enter-changed").hidden = true;
  $("#enter-note").hidden = true;
});

// ---------------------------------------------------------------- a board's claim

export function claimButtons(a) {
  if (!referee || a.kind !== "claim") return [];
  const path = `/api/claims/${encodeURIComponent(a.board)}/${a.match_id}`;
  const out = [];
  if (a.round) {
    out.push(h("button", { class: "accept", onclick: () => {
      if (!confirm(t("Count this result for table {table} of round {round}?",
        { table: a.table, round: a.round }))) return;
      act(data(`${path}/accept`, { seq: a.seq }), t("result counted"));
    } }, t("Count it")));
  }
  out.push(h("button", { class: "attach", onclick: () => openAttach(a) }, t("Attach to a game…")));
  out.push(h("button", { class: "reject", onclick: () => openReason({
    title: t("Board {board}: why does the game of {black} and {white} not count? ({result})",
      { board: a.board, black: a.result.black, white: a.result.white, result: resultWords(a.result) }),
    send: t("Refuse it"), done: t("result refused"),
    kind: "claim", board: a.board, match: String(a.match_id), seq: String(a.seq),
    path: `${path}/reject`,
  }) }, t("Refuse it")));
  return out;
}

const same = (x, y) => x.trim().toLowerCase() === y.trim().toLowerCase();

function openAttach(a) {
  const form = $("#attach-form");
  const r = a.result;
  Object.assign(form.dataset, { board: a.board, match: String(a.match_id), seq: String(a.seq) });
  form.reset();
  $("#attach-title").textContent = t("Board {board}: the game of {black} and {white} ({result})",
    { board: a.board, black: r.black, white: r.white, result: resultWords(r) });
  const open = [];
  for (const round of snap.rounds) {
    for (const p of round.pairings) if (!p.bye && !p.result) open.push({ round: round.number, ...p });
  }
  const fits = (p) => [p.black, p.white].some((n) => same(n, r.black) || same(n, r.white));
  open.sort((x, y) => fits(y) - fits(x) || y.round - x.round);
  $("#attach-game").replaceChildren(...open.map((p) => h("option",
    { value: `${p.round}:${p.table}`, selected: a.round === p.round && a.table === p.table },
    t("Round {round}, table {table}: {black} v {white}",
      { round: p.round, table: p.table, black: p.black, white: p.white }))));
  $("#attach-none").hidden = open.length > 0;
  $("#attach-note").hidden = true;
  $("#attach-changed").hidden = true;
  attachPlayers();
  $("#attach-result").showModal();
}

// Who played first in the board's game, among the chosen pairing's players (asked only
// when the game's names are not theirs).
function attachPlayers() {
  const [round, table] = ($("#attach-game").value || "0:0").split(":").map(Number);
  const p = pairingOf(snap, round, table);
  const a = (snap.attention || []).find((x) => x.board === $("#attach-form").dataset.board
    && String(x.match_id) === $("#attach-form").dataset.match);
  const box = $("#attach-first-box");
  if (!p || !a) { box.hidden = true; return; }
  const r = a.result;
  const theirs = [p.black, p.white];
  box.hidden = theirs.some((n) => same(n, r.black)) && theirs.some((n) => same(n, r.white));
  $("#attach-first-who").textContent = r.black;
  const guess = theirs.find((n) => same(n, r.black)) || theirs.find((n) => !same(n, r.white)) || p.black;
  $("#attach-first").replaceChildren(...theirs.map((n) => h("option", { value: n, selected: n === guess }, n)));
}

$("#attach-game").addEventListener("change", attachPlayers);
$("#attach-cancel").addEventListener("click", () => $("#attach-result").close());
$("#attach-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const [round, table] = $("#attach-game").value.split(":").map(Number);
  data(`/api/claims/${encodeURIComponent(form.dataset.board)}/${form.dataset.match}/accept`, {
    seq: Number(form.dataset.seq), round, table, reason: $("#attach-reason").value,
    first_player: $("#attach-first-box").hidden ? null : $("#attach-first").value,
  }).then(() => { $("#attach-result").close(); toast(t("result counted"), true); })
    .catch((e) => refuse($("#attach-note"), e));
});

// ---------------------------------------------------------------- what changed meanwhile

// Called at each redraw: an open form whose result (or claim) changed since it was opened
// says what it is now, and keeps every entry.
export function watchForms(s) {
  const form = $("#enter-form");
  if ($("#enter-result").open) {
    const p = pairingOf(s, Number(form.dataset.round), Number(form.dataset.table));
    const now = p ? p.version : "";
    form.dataset.latest = now;
    const moved = now !== form.dataset.version;
    $("#enter-changed").hidden = !moved;
    if (moved) {
      $("#enter-changed-text").textContent = (p && p.result
        ? t("Meanwhile this table's result changed: now {result}.", { result: resultWords(p.result) })
        : t("Meanwhile this table's result changed: it has no result now."))
        + " " + t("Your entries are kept; sending them as they are is refused until you say they are meant for the result as it is now.");
    }
  }
  const why = $("#reason-form");
  if ($("#reason-result").open) {
    let moved;
    if (why.dataset.kind === "result") {
      const p = pairingOf(s, Number(why.dataset.round), Number(why.dataset.table));
      moved = !p || !p.result || p.version !== why.dataset.version;
      if (moved) {
        $("#reason-changed").textContent = p && p.result
          ? t("Meanwhile this table's result changed: now {result}.", { result: resultWords(p.result) })
          : t("Meanwhile this table's result changed: it has no result now.");
      }
    } else {
      const a = (s.attention || []).find((x) => x.kind === "claim" && x.board === why.dataset.board
        && String(x.match_id) === why.dataset.match);
      moved = !a || String(a.seq) !== why.dataset.seq;
      if (moved) {
        $("#reason-changed").textContent = !a
          ? t("Meanwhile this game was decided or taken back on its board: it no longer waits for you.")
          : t("Meanwhile the game on board {board} changed (now {result}): look at it again.",
            { board: a.board, result: resultWords(a.result) });
      }
    }
    $("#reason-changed").hidden = !moved;
  }
  const attach = $("#attach-form");
  if ($("#attach-result").open) {
    const a = (s.attention || []).find((x) => x.kind === "claim" && x.board === attach.dataset.board
      && String(x.match_id) === attach.dataset.match);
    const moved = !a || String(a.seq) !== attach.dataset.seq;
    $("#attach-changed").hidden = !moved;
    if (moved) {
      $("#attach-changed").textContent = !a
        ? t("Meanwhile this game was decided or taken back on its board: it no longer waits for you.")
        : t("Meanwhile the game on board {board} changed (now {result}): look at it again.",
          { board: a.board, result: resultWords(a.result) });
    }
  }
}
