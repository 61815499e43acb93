// The tablet's matches: starting a new one (asked first while one is running) and taking up
// again an earlier one a new match replaced. Loaded before tablet.js, whose helpers ($, S,
// send, drawn) these functions use when they run.
"use strict";

// -- new match -------------------------------------------------------------------------------

// The match in play in words, for a confirmation that would end it: its players and score.
function matchInPlay(s) {
  const st = s.state;
  const wins = st.rules.rounds_to_win_game > 1
    ? `, round wins ${st.round_wins.black} : ${st.round_wins.white}` : "";
  return `${Skitter.nameOf(s, "black")} v ${Skitter.nameOf(s, "white")} ` +
    `(score ${st.score.black} : ${st.score.white}${wins}, round ${st.round})`;
}

// A match is running once a step was logged and until the game is over: ending it asks first.
function running(s) {
  return (s.log_length || 0) > 0 && s.state.phase !== "game_over";
}

function setupNewMatch() {
  let pending = null;  // the new match's body and the state the confirmation was shown at
  const start = async (body, seen) => {
    const r = await send("/api/match/new", body, { done: "new match started", seen,
      where: "sec-new", lead: "No new match started" });
    if (r && r.ok) $("sec-new").open = false;
  };
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
    if (!running(S())) { start(body, drawn()); return; }
    pending = { body, seen: drawn() };
    $("new-confirm-text").textContent = `This ends the match in play: ${matchInPlay(S())}. ` +
      "It stays in the log; you can take it up again under “Earlier matches”.";
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

// -- earlier matches: a replaced match taken up again ----------------------------------------

let earlierFor = null;
async function renderEarlier(s) {
  if (!$("sec-earlier").open) return;
  const key = `${s.match_id}/${s.boot}`;
  if (key === earlierFor) return;
  earlierFor = key;
  const r = await Skitter.api("/api/matches");
  if (!r.ok) { earlierFor = null; return; }
  const h = Common.h;
  const seat = { black: "First player", white: "Second player" };
  // a match with no step loses nothing when replaced: only those with steps are listed
  const items = r.data.filter((m) => m.id !== S().match_id && m.events > 0).slice(0, 8).map((m) => {
    const who = ["black", "white"].map((p) => (m.names && m.names[p]) || seat[p]).join(" v ");
    const when = new Date(m.created_at * 1000).toLocaleString([], { month: "short",
      day: "numeric", hour: "2-digit", minute: "2-digit" });
    const steps = `${m.events} step${m.events === 1 ? "" : "s"}`;
    return h("li", { dataset: { match: m.id } },
      h("span", {}, `Match ${m.id}: ${who} · ${steps} · started ${when}`),
      h("button", { class: "secondary", type: "button",
        onclick: () => askResume(m.id, who) }, "Take it up again"));
  });
  $("earlier").replaceChildren(...(items.length ? items
    : [h("li", {}, "No earlier match is stored.")]));
}

let resuming = null;  // the match to take up and the state the confirmation was shown at
function askResume(id, who) {
  resuming = { id, seen: drawn() };
  const ends = running(S()) ? `This ends the match in play: ${matchInPlay(S())}; it stays in ` +
    "the log too. " : "";
  $("resume-confirm-text").textContent = `${ends}Take up ${who} (match ${id}) again?`;
  $("resume-confirm").classList.remove("hidden");
}

function setupEarlier() {
  $("sec-earlier").addEventListener("toggle", () => {
    earlierFor = null;
    if (S()) renderEarlier(S());
  });
  $("resume-confirm-yes").onclick = async () => {
    $("resume-confirm").classList.add("hidden");
    if (!resuming) return;
    const { id, seen } = resuming;
    resuming = null;
    await send("/api/match/resume", { match_id: id }, { done: "match taken up again", seen,
      where: "sec-earlier", lead: "Not taken up" });
  };
  $("resume-confirm-no").onclick = () => {
    $("resume-confirm").classList.add("hidden");
    resuming = null;
  };
}

