// The referee's tablet: everything a person decides, each tap one API call carrying `seq`.

import { startCaller } from "./caller.js";
import { $, h, toast } from "./dom.js";
import { labelled, options, stepper } from "./form-controls.js";
import "./known-players.js";
import { Skitter } from "./live.js";
import { Question } from "./question.js";
import { Referee } from "./referee-login.js";
import { amendRed, other, redChoices, showSecondKnocked } from "./tablet-amend.js";
import { renderEarlier, renderOffer, setupEarlier, setupNewMatch, setupOffer } from "./tablet-matches.js";
import { fillCorrections, setupCorrections } from "./tablet-corrections.js";
import { amendMoreValues, fillAmendMore } from "./tablet-amend-more.js";
import { fillRecords, setupRecords } from "./tablet-records.js";
import { showClosed } from "./tablet-open-choices.js";
import { drawn, hideStale, plain, send, seenOf, staleText } from "./tablet-send.js";
import { fitWords } from "./fit.js";
import { t } from "./words.js";

// -- status ------------------------------------------------------------------------------

function renderStatus(s) {
  const st = s.state;
  for (const p of ["black", "white"]) {
    const el = $(`st-${p}`);
    el.textContent = Skitter.nameOf(s, p) + (st.turn === p ? " · " + t("to shoot") : "") +
      (st.turn === p && st.must_place_big ? " " + t("(big skitt)") : "");
    el.classList.toggle("due", st.turn === p);
  }
  $("st-score").textContent = `${st.score.black} : ${st.score.white}`;
  for (const p of ["black", "white"]) fitWords($(`st-${p}`));  // once the score takes its room
  const won = s.words && s.words.moment && s.words.moment.kind === "game" ? s.words.moment : null;
  $("st-winner").textContent = won ? won.title : "";
  $("st-winner").classList.toggle("hidden", !won);
  // the shoot-off steppers are labelled with the players' names
  for (const p of ["black", "white"]) {
    if (shootoff[p]) {
      shootoff[p].container.firstChild.nodeValue = Skitter.nameOf(s, p);
      shootoff[p].label = t("{who}'s shoot-off", { who: Skitter.nameOf(s, p) });
    }
  }
  Skitter.renderAlerts($("alerts"), s, ["shootoff"]);  // its own section asks
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
    box.appendChild(h("p", {}, t("Hit on Red: {who} chooses, point by point",
      { who: Skitter.nameOf(s, red.player) })));
    red.choices.forEach((choice, i) => {
      const seen = seenOf(s);
      // "back" sets the other player back one: said as what the chooser does to them
      const buttons = ["advance", "back"].map((option) => h("button", {
        type: "button", class: `choice ${choice === option ? "on" : ""}`,
        dataset: { point: String(i), player: red.player, choice: option },
        disabled: !red.changeable[i] || choice === option,
        "aria-pressed": String(choice === option),
        onclick: () => {
          const choices = red.choices.slice();
          choices[i] = option;
          send("/api/match/steps", { step: { decide: { by: red.player, red: choices } } },
            { done: t("Hit on Red choice recorded"), seen, where: "sec-decisions",
              lead: t("Not recorded") });
        },
      }, s.words.red_choices[red.player][option]));
      box.appendChild(h("div", { class: "pending-point" }, t("Point {n}:", { n: i + 1 }) + " ",
        buttons));
    });
  }
  const ub = $("unblock-choices");
  ub.replaceChildren();
  if (unblock) {
    ub.appendChild(h("p", {}, t("{who} may lift one blockade:",
      { who: Skitter.nameOf(s, unblock.player) })));
    const seen = seenOf(s);
    for (const f of unblock.fields) {
      ub.appendChild(h("button", { type: "button", dataset: { unblock: f },
        onclick: () => send("/api/match/steps",
          { step: { decide: { by: unblock.player, unblock: f } } },
          { done: t("blockade lifted"), seen, where: "sec-decisions", lead: t("Not lifted") }),
      }, t("Lift {where}", { where: Skitter.fieldLabel(s, f) })));
    }
  }
}

// -- shoot-off ----------------------------------------------------------------------------

const shootoff = { seen: null };  // seen: the state the values are being entered against
function setupShootoff() {
  const box = $("shootoff-steppers");
  for (const p of ["black", "white"]) {
    shootoff[p] = stepper(labelled(box, p === "black" ? t("First player") : t("Second player")),
      -1, 20, 0);
    shootoff[p].container = box.lastChild;
  }
  $("shootoff-send").onclick = async () => {
    const r = await send("/api/match/steps",
      { step: { shootoff: { black: shootoff.black.value, white: shootoff.white.value } } },
      { done: t("shoot-off entered"), seen: shootoff.seen, where: "sec-shootoff",
        lead: t("Not entered") });
    // Entered (a tie asks again), or refused and told what changed: the next values are
    // entered against the match as the page shows it now.
    if (r.ok) { shootoff.black.value = 0; shootoff.white.value = 0; }
    if (r.ok || r.status === 409) shootoff.seen = drawn();
  };
}

// Untouched steppers follow the state; once a value is entered, its state is kept. A form
// shown again (a new shoot-off) starts from the state it is shown with.
function renderShootoff(s) {
  const on = s.state.phase === "shootoff";
  const opened = on && $("sec-shootoff").classList.contains("hidden");
  $("sec-shootoff").classList.toggle("hidden", !on);
  if (opened) { shootoff.black.value = 0; shootoff.white.value = 0; }
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
  const st = Skitter.state.state;
  if (st.rules.variant !== "trio") {
    body.red = redChoices("amend-red");
    body.opponent_red = redChoices("amend-opp-red");
  }
  if (st.rules.flipping) body.unblock = $("amend-unblock").value || null;
  return amendMoreValues(body);
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
  return t("{who}'s shot", { who: Skitter.nameOf(s, last.by) }) +
    ": " + (said || t("no points, no penalty"));
}

function renderAmend(s) {
  const last = s.last_step && s.last_step.step.shot ? s.last_step.step.shot : null;
  const key = last ? `${s.match_id}/${s.last_step.seq}` : null;
  const kept = Object.keys(amendChanges()).length > 0;
  $("sec-amend").classList.toggle("hidden", !last && !kept);
  if (key === amend.key) return;
  if (kept) {  // the person's entries stay; say what happened to the shot
    $("amend-changed-text").textContent = last
      ? t("The last shot changed meanwhile; it is now {shot}. Your entries are kept:",
        { shot: shotWords(s) })
        + " send them for the shot as it is now, or drop them."
      : t("The shot you were amending was taken back meanwhile. Your entries cannot " +
        "be sent.");
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
  options($("amend-big"), [["placed", t("placed in the centre")],
    ["missed", t("missed (still in hand)")], ["off", t("off the board (a penalty point)")],
    ...colourFields.map((f) => [f, t("on {where}", { where: field(f) })])]);
  if (last.big) $("amend-big").value = last.big;
  // R12: one shot may knock both big skitts loose, each landing somewhere of its own
  const knocked = [].concat(last.knocked_big || []);  // one is written as a string
  const trio = st.rules.variant === "trio";
  $("amend-knocked-box").classList.toggle("hidden", trio);
  for (const [i, id] of [[0, "amend-knocked"], [1, "amend-knocked-2"]]) {
    options($(id), [["", t("no")], ["loose", t("yes, loose")],
      ["off", t("yes, off the board (a penalty point)")],
      ...colourFields.map((f) => [f, t("yes, onto {where}", { where: field(f) })])]);
    $(id).value = knocked[i] || "";
  }
  showSecondKnocked();
  amendRed($("amend-red-box"), "amend-red", last.by, last.red || []);
  amendRed($("amend-opp-red-box"), "amend-opp-red", other(last.by), last.opponent_red || []);
  $("amend-red-box").classList.toggle("hidden", trio);
  $("amend-opp-red-box").classList.toggle("hidden", trio);
  const chainItems = [["", t("no chain")], ...opposite.map((f) => [f, field(f)])];
  options($("amend-chain-a"), chainItems);
  options($("amend-chain-b"), chainItems);
  $("amend-chain-a").value = last.chain ? last.chain[0] : "";
  $("amend-chain-b").value = last.chain ? last.chain[1] : "";
  const flipping = st.rules.flipping;
  $("amend-blockade-box").classList.toggle("hidden", !flipping);
  $("amend-blockade-to-box").classList.toggle("hidden", !flipping);
  options($("amend-blockade-from"), [["", t("none")], ...colourFields.map((f) => [f, field(f)])]);
  options($("amend-blockade-to"), [["off", t("off the board")], ["minus", field("minus")],
    ...colourFields.map((f) => [f, field(f)])]);
  const firstLoose = [].concat(last.blockade || [])[0];  // one is written as an object
  $("amend-blockade-from").value = firstLoose ? firstLoose.from : "";
  if (firstLoose) $("amend-blockade-to").value = firstLoose.to;
  $("amend-unblock-box").classList.toggle("hidden", !flipping);
  options($("amend-unblock"), [["", t("none")], ...opposite.map((f) => [f, field(f)])]);
  $("amend-unblock").value = last.unblock || "";
  $("amend-invalid").checked = Boolean(last.invalid);
  fillAmendMore(s, last);
  amend.filled = amendValues();
}

// seen: the state the form was filled from, or (resending) the state shown now.
async function sendAmend(seen) {
  const body = amendChanges();
  if (!Object.keys(body).length) { toast(t("Nothing to amend: change something first")); return; }
  const r = await send("/api/match/amend", body, { done: t("last shot amended"), seen });
  if (r.status === 409) {  // the entries stay; say what changed, offer to send them again
    const shotNow = Skitter.state.last_step && Skitter.state.last_step.step.shot;
    $("amend-changed-text").textContent = staleText(r, t("Not amended")) +
      (shotNow ? " " + t("The last shot is now {shot}.", { shot: shotWords(Skitter.state) }) : "") +
      " " + t("Your entries are kept: send them for the shot as it is now, or drop them.");
    $("amend-resend").classList.toggle("hidden", !shotNow);
    $("amend-changed").classList.remove("hidden");
    return;
  }
  if (r.ok) { amend.filled = null; amend.key = null; renderAmend(Skitter.state); }
}

function dropAmend() {
  amend.filled = null;
  amend.key = null;
  renderAmend(Skitter.state);
}

// -- wiring -----------------------------------------------------------------------------------

function setup() {
  Referee.wire($("login"));
  $("logout").onclick = () => Referee.logout();
  setupShootoff();
  setupCorrections();
  setupRecords();
  setupNewMatch();
  setupOffer();
  setupEarlier();
  offBoard = stepper($("amend-off"), 0, 20, 0, t("Skitts off the board"));
  $("amend-knocked").onchange = showSecondKnocked;
  $("amend-send").onclick = () => sendAmend(amend.seen);
  $("amend-resend").onclick = () => sendAmend(drawn());
  $("amend-drop").onclick = dropAmend;
  $("no-change").onclick = async () => {
    const r = await send("/api/match/no-change", {},
      { done: t("turn recorded: no change"), seen: drawn(), where: "sec-turn", lead: t("Not recorded") });
    // a full field cannot show "no change": the question above asks what the shot added
    if (r.ok && r.data && r.data.tracker && r.data.tracker.mode === "question") {
      toast(t("Not recorded yet: say how many skitts the shot added to the full field"), true);
    } else if (r.ok && r.data && r.data.tracker
               && (r.data.tracker.press_waits || r.data.tracker.order)) {
      // a skitt was landing as the tap was made: the board is read first (issue 36)
      toast(t("Not recorded yet: a skitt was landing as you pressed"), true);
    }
  };
  // Undo is deliberate: the first tap says what would be taken back, the second does it,
  // against the state shown at the first tap (another tablet's undo meanwhile: 409).
  let undoArmed = null, undoSeen = null;
  const disarm = () => {
    clearTimeout(undoArmed); undoArmed = null;
    $("undo").textContent = t("Undo last step…");
    $("undo-cancel").classList.add("hidden");
  };
  $("undo-cancel").onclick = disarm;
  $("undo").onclick = () => {
    if (!undoArmed) {
      undoSeen = drawn();
      hideStale($("sec-undo"));
      $("undo").textContent = t("Yes, take it back");
      $("undo-cancel").classList.remove("hidden");
      undoArmed = setTimeout(disarm, 6000);
      return;
    }
    disarm();
    send("/api/match/undo", {},
      { done: t("last step undone"), seen: undoSeen, where: "sec-undo", lead: t("Not undone") });
  };
  $("pause").onclick = () => send("/api/referee/pause", { paused: !Skitter.state.sensing.paused },
    { done: Skitter.state.sensing.paused ? t("sensing resumed") : t("sensing paused"),
      seen: drawn(),
      where: "sec-turn" });
  $("accept-board").onclick = () => send("/api/referee/board/accept", {},
    { done: t("board accepted"), seen: drawn(), where: "sec-board", lead: t("Not accepted") });
  $("restore-board").onclick = () => send("/api/referee/board/restore", {},
    { done: t("restore the board to the match"), seen: drawn(), where: "sec-board" });
  $("board-as-expected").onclick = () => send("/api/referee/board/as-expected", {},
    { done: t("play goes on: the board is as the match expects"), seen: drawn(),
      where: "sec-board" });
  $("board-as-sensed").onclick = () => send("/api/referee/board/as-sensed", {},
    { done: t("the match takes the board as it lies"), seen: drawn(), where: "sec-board" });
  Skitter.onState((s) => {
    renderStatus(s);
    renderOffer(s);
    renderDecisions(s);
    renderShootoff(s);
    renderBoardSection(s);
    Question.render($("sec-question"), s, send);
    renderAmend(s);
    fillCorrections(s);
    fillRecords(s);
    showClosed($("corr-closes"), "correction", s);
    showClosed($("turn-closes"), "turn", s);
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
      ? t("The last step: {what}", { what: lastEntry.words || lastEntry.text })
      : t("Nothing to take back");
    $("no-change").disabled = !s.state.turn;
    $("pause").textContent = s.sensing.paused ? t("Resume sensing")
      : t("Pause sensing");
  });
  Referee.check();
  Skitter.start();
}
setup();
startCaller("tablet");
