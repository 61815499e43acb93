// The boards' cards on the tournament page: each board's match, self-test and alerts, and
// the hub referee's undo and correction with a draft kept over redraws. Kept apart from
// hub.js (the page's other parts and its socket), which calls renderBoards.

import { data } from "/shared/api.js";
import { h } from "/shared/dom.js";
import { lang, nt, t } from "/shared/words.js";
import { $, act } from "./hub-dom.js";
import { referee } from "./hub-state.js";
import { cardNames, said } from "./hub-words.js";

// A self-test's date as a person reads it: "2026-12-01 19:00" (the board's ISO time, whose
// seconds and zone say nothing at a glance).
function when(date) {
  return String(date).replace("T", " ")
    .replace(/(\d\d:\d\d):\d\d(\.\d+)?([+-]\d\d:\d\d|Z)?$/, "$1");
}

// The first failed checks of a self-test by name, the rest counted.
function failures(st) {
  if (st.passed || !st.failed.length) return "";
  const shown = st.failed.slice(0, 3);
  const more = st.failed_count - shown.length;
  const rest = more > 0 ? [nt("and {n} more", "and {n} more", more)] : [];
  return ` (${[...shown, ...rest].join("; ")})`;
}

// Every card, or only those of the boards in `only` (a Set), each replaced where it stands.
export function renderBoards(s, only) {
  const root = $("#boards");
  const previous = new Map([...root.children].map((c) => [c.dataset.board, c]));
  if (!only) root.replaceChildren();
  if (!s.boards.length) { root.append(h("p", { class: "empty" }, t("No board has reported yet."))); return; }
  for (const b of s.boards) {
    if (only && !only.has(b.board)) continue;
    const card = $("#board-card").content.firstElementChild.cloneNode(true);
    card.dataset.board = b.board;
    $(".dot", card).classList.toggle("on", b.online);
    $(".id", card).textContent = b.board;
    $(".match", card).textContent = b.match_id
      ? t("match {match}, event {seq}", { match: b.match_id, seq: b.seq })
      : t("no match yet");
    const names = cardNames(b);  // the players' names, or their seats in words
    $(".names", card).hidden = !b.match_id;
    $(".black", card).textContent = names.black;
    $(".white", card).textContent = names.white;
    $(".cb-who", card).textContent = t("{who}'s score", { who: names.black });
    $(".cw-who", card).textContent = t("{who}'s score", { who: names.white });
    if (b.turn) $(`.${b.turn}`, card).classList.add("turn");
    const score = b.score || {};
    $(".score", card).textContent = `${score.black ?? "–"} : ${score.white ?? "–"}`;
    const wins = b.round_wins || {};
    let detail = t("round {round} · round wins {black}–{white}",
      { round: b.round ?? "–", black: wins.black ?? 0, white: wins.white ?? 0 });
    if (b.phase === "game_over") detail += " · " + (names[b.winner] ? t("game over, {who} wins", { who: names[b.winner] })
      : t("game over, nobody wins"));
    else if (b.phase === "shootoff") detail += " · " + t("shoot-off");
    else if (b.turn) detail += " · " + t("{who} to shoot", { who: names[b.turn] });
    if (!b.match_id) detail = t("no game started on this board");
    if (b.pairing) detail += " · " + t("tournament round {round}, table {table}",
      { round: b.pairing.round, table: b.pairing.table });
    $(".detail", card).textContent = detail;
    const st = b.selftest;  // the board's last self-test, as it reported it
    const outcome = st && st.passed ? t("passed") : st ? st.summary : "";
    $(".selftest", card).textContent = !st ? t("no self-test reported") :
      t("self-test {date}: {outcome}", { date: when(st.date), outcome: outcome + failures(st) });
    $(".selftest", card).className = `selftest ${!st ? "muted" : st.passed ? "ok" : "bad"}`;
    if (st && st.failed.length) $(".selftest", card).title = st.failed.join("; ");
    $(".version", card).textContent = b.version
      ? t("skitter version {version}", { version: b.version })
      : t("skitter version not sent (older than 0.4.0)");
    const alerts = $(".alerts", card);
    for (const a of b.alerts) alerts.append(h("li", {}, said(a)));
    const notes = $(".notes", card);  // normal moments of play: plain, never an alarm
    for (const n of b.notes || []) notes.append(h("li", { class: n.kind }, said(n)));
    const c = b.last_command;
    if (c) {
      const offer = c.command.kind === "offer" ? c.command.offer : null;
      const taken = c.command.kind === "withdraw";  // its game has a result, or moved board
      const what = c.command.kind === "undo" ? t("undo")
        : offer ? t("the game {black} v {white}", { black: offer.black, white: offer.white })
          : taken ? t("the offered game") : t("correction");
      const r = c.result;
      $(".answer", card).textContent = !r ? t("{what} sent, waiting for the board…", { what })
        : !r.ok ? t("{what} refused by the board: {why}", { what, why: (r.message_in || {})[lang] || r.message })
          : offer ? t("{what} is offered on the board's tablet", { what })
            : taken ? t("{what} is taken back from the board's tablet", { what })
              : t("{what} applied by the board", { what });
    }
    const controls = $(".controls", card);
    controls.hidden = !referee;
    card.classList.toggle("idle", !b.match_id);  // no match: nothing to undo or correct
    $(".undo", card).addEventListener("click", () => {
      if (!confirm(t("Undo the last step on board {board}?", { board: b.board }))) return;
      act(data(`/api/boards/${encodeURIComponent(b.board)}/command`,
        { kind: "undo", match_id: b.match_id, seq: b.seq }), t("undo sent"));
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
      act(data(`/api/boards/${encodeURIComponent(b.board)}/command`, {
        kind: "correct", match_id: match, seq,
        correct: { score: scoreSet, reason: $(".reason", card).value },
      }).then((d) => { clearDraft(card); return d; }), t("correction sent"));
    };
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      sendCorrection(Number(card.dataset.seenSeq || b.seq),
        card.dataset.seenMatch ? Number(card.dataset.seenMatch) : b.match_id);
    });
    $(".draft-send", card).addEventListener("click", () => sendCorrection(b.seq, b.match_id));
    $(".draft-drop", card).addEventListener("click", () => clearDraft(card));
    const typing = old && old.contains(document.activeElement) ? document.activeElement : null;
    if (only && old) old.replaceWith(card); else root.append(card);
    if (typing) keepTyping(typing, card);
  }
}

// The field the referee was typing in keeps the keyboard (and the caret) over the card's
// redraw, so the next key goes on where the last one went.
function keepTyping(was, card) {
  const same = [...was.classList].map((c) => `.${c}`).join("");
  const now = same && $(same, card);
  if (!now) return;
  now.focus();
  try { now.setSelectionRange(was.selectionStart, was.selectionEnd); } catch (e) { /* a number field has no caret to place */ }
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
    $(".draft-text", card).textContent = t("The match on board {board} moved on since " +
      "you began this correction (now {black} {black_score} : {white_score} {white}). Your " +
      "entries are kept: “Correct score” sends them against the match you saw (the board " +
      "refuses them if it changed), or send them for the match as it is now, or drop them.", {
      board: b.board, black: cardNames(b).black, white: cardNames(b).white,
      black_score: b.score ? b.score.black : "–", white_score: b.score ? b.score.white : "–" });
  }
}

function clearDraft(card) {
  delete card.dataset.seenSeq;
  delete card.dataset.seenMatch;
  for (const k of [".cb", ".cw", ".reason"]) $(k, card).value = "";
  $(".draft-note", card).hidden = true;
}
