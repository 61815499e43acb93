// The tablet's matches: starting a new one (asked first while one is running) and taking up
// again an earlier one a new match replaced, and the tournament's offer of its next game.

import { Skitter } from "./live.js";
import { $, h } from "./dom.js";
import { drawn, hideStale, send } from "./tablet-send.js";
import { t, nt, lang } from "./words.js";

// -- new match -------------------------------------------------------------------------------

// The match in play in words, for a confirmation that would end it: its players and score.
function matchInPlay(s) {
  const st = s.state;
  const wins = st.rules.rounds_to_win_game > 1
    ? t(", round wins {black} : {white}",
      { black: st.round_wins.black, white: st.round_wins.white }) : "";
  return t("{black} v {white} (score {sb} : {sw}{wins}, round {round})", {
    black: Skitter.nameOf(s, "black"), white: Skitter.nameOf(s, "white"),
    sb: st.score.black, sw: st.score.white, wins, round: st.round });
}

// A match is running once a step was logged and until the game is over: ending it asks first.
function running(s) {
  return (s.log_length || 0) > 0 && s.state.phase !== "game_over";
}

export function setupNewMatch() {
  let pending = null;  // the new match's body and the state the confirmation was shown at
  const start = async (body, seen) => {
    const r = await send("/api/match/new", body, { done: t("new match started"), seen,
      where: "sec-new", lead: t("No new match started") });
    if (r && r.ok) $("sec-new").open = false;
  };
  // Trio has no blockades (R17): said at the choice, flipping set off, not refused later
  const form = $("new-match");
  const trioRules = () => {
    const trio = form.elements.variant.value === "trio";
    if (trio) form.elements.flipping.value = "false";
    form.elements.flipping.disabled = trio;
    $("new-trio-note").textContent = trio ? t("Trio has no blockades: flipping stays off.") : "";
    $("new-trio-note").classList.toggle("hidden", !trio);
  };
  form.elements.variant.addEventListener("change", trioRules);
  trioRules();
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
      handicaps: Object.fromEntries(["black", "white"].map((p) => [p, {  // R18
        line: f.get(`${p}_line`), finger: f.get(`${p}_finger`), hand: f.get(`${p}_hand`) }])),
    };
    if (!running(Skitter.state)) { start(body, drawn()); return; }
    pending = { body, seen: drawn() };
    $("new-confirm-text").textContent = t("This ends the match in play: {match}. It " +
      "stays in the log; you can take it up again under “Earlier matches”.",
    { match: matchInPlay(Skitter.state) });
    $("new-confirm").classList.remove("hidden");
    $("new-confirm-yes").focus();
  });
  $("new-confirm-yes").onclick = () => {
    $("new-confirm").classList.add("hidden");
    if (pending) start(pending.body, pending.seen);
    pending = null;
  };
  $("new-confirm-no").onclick = () => { $("new-confirm").classList.add("hidden"); pending = null; };
}

// -- the tournament game the hub offers this board ---------------------------------------------

// The hub pairs a round and offers each board its game: both names and the tournament's
// format come with it, so starting it is one tap and nobody types a name. A match in play is
// never ended without the same confirmation a new match asks for.
let offerShown = null;  // the id of the offer drawn
export function renderOffer(s) {
  const offer = s.offered;
  const section = $("sec-offer");
  // a confirmation being answered, or what changed, stays until the person has read it
  const asking = !$("offer-confirm").classList.contains("hidden");
  const stale = section.querySelector(":scope > .conflict.stale:not(.hidden)");
  section.classList.toggle("hidden", !offer && !asking && !stale);
  $("offer-start").classList.toggle("hidden", !offer);
  if (!offer) {
    if (!asking) { $("offer-who").textContent = ""; $("offer-format").textContent = ""; }
    offerShown = null;
    return;
  }
  if (offerShown !== offer.id && !asking) hideStale(section);
  offerShown = offer.id;
  $("offer-who").textContent = offer.words;
  $("offer-format").textContent = t("Played to {format}, as the tournament plays.",
    { format: offer.format_words });
  $("offer-start").textContent = t("Start {black} v {white}",
    { black: offer.black, white: offer.white });
}

export function setupOffer() {
  let pending = null;  // the offer and the state the person decided on
  const start = async (id, seen) => {
    await send("/api/match/offered", { offer: id }, { done: t("tournament game started"), seen,
      where: "sec-offer", lead: t("Not started") });
    renderOffer(Skitter.state);  // the offer as it is now (none, if another tablet started it)
  };
  $("offer-start").onclick = () => {
    const offer = Skitter.state.offered;
    if (!offer) return;
    hideStale($("sec-offer"));
    if (!running(Skitter.state)) { start(offer.id, drawn()); return; }
    pending = { id: offer.id, seen: drawn() };
    $("offer-confirm-text").textContent = t("This ends the match in play: {match}.",
      { match: matchInPlay(Skitter.state) }) + " " +
      t("It stays in the log; you can take it up again under “Earlier matches”.");
    $("offer-confirm").classList.remove("hidden");
    $("offer-confirm-yes").focus();
  };
  $("offer-confirm-yes").onclick = () => {
    $("offer-confirm").classList.add("hidden");
    if (pending) start(pending.id, pending.seen);
    pending = null;
  };
  $("offer-confirm-no").onclick = () => {
    $("offer-confirm").classList.add("hidden");
    pending = null;
  };
}

// -- earlier matches: a replaced match taken up again ----------------------------------------

let earlierFor = null;
export async function renderEarlier(s) {
  if (!$("sec-earlier").open) return;
  const key = `${s.match_id}/${s.boot}`;
  if (key === earlierFor) return;
  earlierFor = key;
  const r = await Skitter.api("/api/matches");
  if (!r.ok) { earlierFor = null; return; }
  const seat = { black: t("First player"), white: t("Second player") };
  // a match with no step loses nothing when replaced: only those with steps are listed
  const items = r.data.filter((m) => m.id !== Skitter.state.match_id && m.events > 0).slice(0, 8).map((m) => {
    const who = t("{black} v {white}", { black: (m.names && m.names.black) || seat.black,
      white: (m.names && m.names.white) || seat.white });
    const when = new Date(m.created_at * 1000).toLocaleString(lang, { month: "short",
      day: "numeric", hour: "2-digit", minute: "2-digit" });
    const steps = nt("{n} step", "{n} steps", m.events);
    return h("li", { dataset: { match: m.id } },
      h("span", {}, t("Match {id}: {who} · {steps} · started {when}",
        { id: m.id, who, steps, when })),
      h("button", { class: "secondary", type: "button",
        onclick: () => askResume(m.id, who) }, t("Take it up again")));
  });
  $("earlier").replaceChildren(...(items.length ? items
    : [h("li", {}, t("No earlier match is stored."))]));
}

let resuming = null;  // the match to take up and the state the confirmation was shown at
function askResume(id, who) {
  resuming = { id, seen: drawn() };
  const ends = running(Skitter.state) ? t("This ends the match in play: {match}; it stays in " +
    "the log too.", { match: matchInPlay(Skitter.state) }) + " " : "";
  $("resume-confirm-text").textContent = ends +
    t("Take up {who} (match {id}) again?", { who, id });
  $("resume-confirm").classList.remove("hidden");
}

export function setupEarlier() {
  $("sec-earlier").addEventListener("toggle", () => {
    earlierFor = null;
    if (Skitter.state) renderEarlier(Skitter.state);
  });
  $("resume-confirm-yes").onclick = async () => {
    $("resume-confirm").classList.add("hidden");
    if (!resuming) return;
    const { id, seen } = resuming;
    resuming = null;
    await send("/api/match/resume", { match_id: id }, { done: "match taken up again", seen,
      where: "sec-earlier", lead: t("Not taken up") });
  };
  $("resume-confirm-no").onclick = () => {
    $("resume-confirm").classList.add("hidden");
    resuming = null;
  };
}

