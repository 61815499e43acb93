// The hub referee puts results right: enter the result of a game no board reported,
// correct or remove a wrong one, and attach a board's game typed under another name to its
// pairing. Each form (a reason asked for included, never the browser's prompt) is a dialog
// outside the page's live parts, so a board's next event never clears it; each sends the version of what its referee saw, and when that changes
// meanwhile the form says so and keeps what was typed.
"use strict";

const form$ = (sel) => document.querySelector(sel);

function pairingOf(s, round, table) {
  const r = (s.rounds || []).find((x) => x.number === round);
  return r && r.pairings.find((p) => p.table === table);
}

// A refusal shown inside the dialog (it stays open, nothing typed is lost).
function refuse(note, e) { note.textContent = e.message; note.hidden = false; }

// ---------------------------------------------------------------- a table's result

function resultButtons(round, p) {
  if (!referee || p.bye) return [];
  if (!p.result) return [Common.h("button", { class: "enter", onclick: () => openResult("enter", round, p) }, Common.t("Enter result"))];
  return [
    Common.h("button", { class: "correct-result", onclick: () => openResult("correct", round, p) }, Common.t("Correct result")),
    Common.h("button", { class: "remove", onclick: () => removeResult(round, p) }, Common.t("Remove result")),
  ];
}

function openResult(mode, round, p) {
  const form = form$("#enter-form");
  Object.assign(form.dataset, { mode, round: String(round), table: String(p.table), version: p.version });
  form.reset();
  const game = { round, table: p.table, black: p.black, white: p.white };
  form$("#enter-title").textContent = mode === "enter"
    ? Common.t("Enter the result of round {round}, table {table}: {black} v {white}", game)
    : Common.t("Correct the result of round {round}, table {table}: {black} v {white}", game);
  form$("#enter-now").textContent = p.result
    ? Common.t("The result you are correcting: {result}.", { result: resultWords(p.result) }) : "";
  form$("#enter-winner").replaceChildren(Common.h("option", { value: p.black }, p.black),
    Common.h("option", { value: p.white }, p.white), Common.h("option", { value: "" }, Common.t("nobody (a draw)")));
  for (const e of document.querySelectorAll(".enter-first-name")) e.textContent = p.black;
  for (const e of document.querySelectorAll(".enter-second-name")) e.textContent = p.white;
  const g = p.result;
  if (g) {
    form$("#enter-winner").value = g.winner || "";
    form$("#enter-first-rounds").value = g.black_rounds; form$("#enter-second-rounds").value = g.white_rounds;
    form$("#enter-first-points").value = g.black_points; form$("#enter-second-points").value = g.white_points;
  }
  form$("#enter-send").textContent = mode === "enter" ? Common.t("Enter the result")
    : Common.t("Correct the result");
  form$("#enter-note").hidden = true;
  form$("#enter-changed").hidden = true;
  form$("#enter-result").showModal();
}

function removeResult(round, p) {
  openReason({
    title: Common.t("Remove the result of round {round}, table {table}: {black} v {white} ({result})",
      { round, table: p.table, black: p.black, white: p.white, result: resultWords(p.result) }),
    send: Common.t("Remove the result"), done: Common.t("result removed"),
    kind: "result", round: String(round), table: String(p.table), version: p.version,
    path: `/api/rounds/${round}/tables/${p.table}/result/remove`,
  });
}

// ---------------------------------------------------------------- a reason asked for

// One dialog asks the reason for removing a result or refusing a board's claim: what was
// typed stays while the page redraws, and a refusal (a stale version) is shown inside it.
function openReason(what) {
  const form = form$("#reason-form");
  form.reset();
  for (const k of Object.keys(form.dataset)) delete form.dataset[k];
  Object.assign(form.dataset, what);
  form$("#reason-title").textContent = what.title;
  form$("#reason-send").textContent = what.send;
  form$("#reason-note").hidden = true;
  form$("#reason-changed").hidden = true;
  form$("#reason-result").showModal();
}

form$("#reason-cancel").addEventListener("click", () => form$("#reason-result").close());
form$("#reason-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const reason = form$("#reason-text").value;
  const body = form.dataset.kind === "result" ? { version: form.dataset.version, reason }
    : { seq: Number(form.dataset.seq), reason };
  Common.data(form.dataset.path, body).then(() => {
    form$("#reason-result").close();
    Common.toast(form.dataset.done, true);
  }).catch((e) => refuse(form$("#reason-note"), e));
});

form$("#enter-cancel").addEventListener("click", () => form$("#enter-result").close());
form$("#enter-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const num = (id) => Number(form$(id).value);
  const path = `/api/rounds/${form.dataset.round}/tables/${form.dataset.table}/result`
    + (form.dataset.mode === "correct" ? "/correct" : "");
  Common.data(path, {
    winner: form$("#enter-winner").value || null,
    first_rounds: num("#enter-first-rounds"), second_rounds: num("#enter-second-rounds"),
    first_points: num("#enter-first-points"), second_points: num("#enter-second-points"),
    reason: form$("#enter-reason").value, version: form.dataset.version,
  }).then(() => {
    form$("#enter-result").close();
    Common.toast(form.dataset.mode === "correct" ? Common.t("result corrected")
      : Common.t("result entered"), true);
  }).catch((e) => refuse(form$("#enter-note"), e));
});
form$("#enter-renew").addEventListener("click", () => {
  const form = form$("#enter-form");
  form.dataset.version = form.dataset.latest;  // on purpose: against the result as it is now
  form$("#enter-changed").hidden = true;
  form$("#enter-note").hidden = true;
});

// ---------------------------------------------------------------- a board's claim

function claimButtons(a) {
  if (!referee || a.kind !== "claim") return [];
  const path = `/api/claims/${encodeURIComponent(a.board)}/${a.match_id}`;
  const out = [];
  if (a.round) {
    out.push(Common.h("button", { class: "accept", onclick: () => {
      if (!confirm(Common.t("Count this result for table {table} of round {round}?",
        { table: a.table, round: a.round }))) return;
      act(Common.data(`${path}/accept`, { seq: a.seq }), Common.t("result counted"));
    } }, Common.t("Count it")));
  }
  out.push(Common.h("button", { class: "attach", onclick: () => openAttach(a) }, Common.t("Attach to a game…")));
  out.push(Common.h("button", { class: "reject", onclick: () => openReason({
    title: Common.t("Board {board}: why does the game of {black} and {white} not count? ({result})",
      { board: a.board, black: a.result.black, white: a.result.white, result: resultWords(a.result) }),
    send: Common.t("Refuse it"), done: Common.t("result refused"),
    kind: "claim", board: a.board, match: String(a.match_id), seq: String(a.seq),
    path: `${path}/reject`,
  }) }, Common.t("Refuse it")));
  return out;
}

const same = (x, y) => x.trim().toLowerCase() === y.trim().toLowerCase();

function openAttach(a) {
  const form = form$("#attach-form");
  const r = a.result;
  Object.assign(form.dataset, { board: a.board, match: String(a.match_id), seq: String(a.seq) });
  form.reset();
  form$("#attach-title").textContent = Common.t("Board {board}: the game of {black} and {white} ({result})",
    { board: a.board, black: r.black, white: r.white, result: resultWords(r) });
  const open = [];
  for (const round of snap.rounds) {
    for (const p of round.pairings) if (!p.bye && !p.result) open.push({ round: round.number, ...p });
  }
  const fits = (p) => [p.black, p.white].some((n) => same(n, r.black) || same(n, r.white));
  open.sort((x, y) => fits(y) - fits(x) || y.round - x.round);
  form$("#attach-game").replaceChildren(...open.map((p) => Common.h("option",
    { value: `${p.round}:${p.table}`, selected: a.round === p.round && a.table === p.table },
    Common.t("Round {round}, table {table}: {black} v {white}",
      { round: p.round, table: p.table, black: p.black, white: p.white }))));
  form$("#attach-none").hidden = open.length > 0;
  form$("#attach-note").hidden = true;
  form$("#attach-changed").hidden = true;
  attachPlayers();
  form$("#attach-result").showModal();
}

// Who played first in the board's game, among the chosen pairing's players (asked only
// when the game's names are not theirs).
function attachPlayers() {
  const [round, table] = (form$("#attach-game").value || "0:0").split(":").map(Number);
  const p = pairingOf(snap, round, table);
  const a = (snap.attention || []).find((x) => x.board === form$("#attach-form").dataset.board
    && String(x.match_id) === form$("#attach-form").dataset.match);
  const box = form$("#attach-first-box");
  if (!p || !a) { box.hidden = true; return; }
  const r = a.result;
  const theirs = [p.black, p.white];
  box.hidden = theirs.some((n) => same(n, r.black)) && theirs.some((n) => same(n, r.white));
  form$("#attach-first-who").textContent = r.black;
  const guess = theirs.find((n) => same(n, r.black)) || theirs.find((n) => !same(n, r.white)) || p.black;
  form$("#attach-first").replaceChildren(...theirs.map((n) => Common.h("option", { value: n, selected: n === guess }, n)));
}

form$("#attach-game").addEventListener("change", attachPlayers);
form$("#attach-cancel").addEventListener("click", () => form$("#attach-result").close());
form$("#attach-form").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const form = ev.target;
  const [round, table] = form$("#attach-game").value.split(":").map(Number);
  Common.data(`/api/claims/${encodeURIComponent(form.dataset.board)}/${form.dataset.match}/accept`, {
    seq: Number(form.dataset.seq), round, table, reason: form$("#attach-reason").value,
    first_player: form$("#attach-first-box").hidden ? null : form$("#attach-first").value,
  }).then(() => { form$("#attach-result").close(); Common.toast(Common.t("result counted"), true); })
    .catch((e) => refuse(form$("#attach-note"), e));
});

// ---------------------------------------------------------------- what changed meanwhile

// Called at each redraw: an open form whose result (or claim) changed since it was opened
// says what it is now, and keeps every entry.
function watchForms(s) {
  const form = form$("#enter-form");
  if (form$("#enter-result").open) {
    const p = pairingOf(s, Number(form.dataset.round), Number(form.dataset.table));
    const now = p ? p.version : "";
    form.dataset.latest = now;
    const moved = now !== form.dataset.version;
    form$("#enter-changed").hidden = !moved;
    if (moved) {
      form$("#enter-changed-text").textContent = (p && p.result
        ? Common.t("Meanwhile this table's result changed: now {result}.", { result: resultWords(p.result) })
        : Common.t("Meanwhile this table's result changed: it has no result now."))
        + " " + Common.t("Your entries are kept; sending them as they are is refused until you say they are meant for the result as it is now.");
    }
  }
  const why = form$("#reason-form");
  if (form$("#reason-result").open) {
    let moved;
    if (why.dataset.kind === "result") {
      const p = pairingOf(s, Number(why.dataset.round), Number(why.dataset.table));
      moved = !p || !p.result || p.version !== why.dataset.version;
      if (moved) {
        form$("#reason-changed").textContent = p && p.result
          ? Common.t("Meanwhile this table's result changed: now {result}.", { result: resultWords(p.result) })
          : Common.t("Meanwhile this table's result changed: it has no result now.");
      }
    } else {
      const a = (s.attention || []).find((x) => x.kind === "claim" && x.board === why.dataset.board
        && String(x.match_id) === why.dataset.match);
      moved = !a || String(a.seq) !== why.dataset.seq;
      if (moved) {
        form$("#reason-changed").textContent = !a
          ? Common.t("Meanwhile this game was decided or taken back on its board: it no longer waits for you.")
          : Common.t("Meanwhile the game on board {board} changed (now {result}): look at it again.",
            { board: a.board, result: resultWords(a.result) });
      }
    }
    form$("#reason-changed").hidden = !moved;
  }
  const attach = form$("#attach-form");
  if (form$("#attach-result").open) {
    const a = (s.attention || []).find((x) => x.kind === "claim" && x.board === attach.dataset.board
      && String(x.match_id) === attach.dataset.match);
    const moved = !a || String(a.seq) !== attach.dataset.seq;
    form$("#attach-changed").hidden = !moved;
    if (moved) {
      form$("#attach-changed").textContent = !a
        ? Common.t("Meanwhile this game was decided or taken back on its board: it no longer waits for you.")
        : Common.t("Meanwhile the game on board {board} changed (now {result}): look at it again.",
          { board: a.board, result: resultWords(a.result) });
    }
  }
}
