// The player panels and the latest effects, shared by the scoreboard and the referee display.
"use strict";

// R18 in words; the plain choices (standard line, usual finger, dominant hand) say nothing.
const HANDICAP_WORDS = {
  line: { semicircle: "semicircle line", beginner: "beginner line" },
  finger: { different: "a different finger" },
  hand: { "non-dominant": "non-dominant hand" },
};
const handicapWords = (h) => (h ? ["line", "finger", "hand"]
  .map((k) => HANDICAP_WORDS[k][h[k]]).filter(Boolean).join(" · ") : "");

function renderPlayers(s) {
  const st = s.state;
  for (const p of ["black", "white"]) {
    const box = document.getElementById(`p-${p}`);
    if (!box) continue;
    box.querySelector(".pname").textContent = Skitter.nameOf(s, p);
    box.classList.toggle("due", st.turn === p);
    const score = Skitter.signed(st.score[p]).replace("+", "");
    box.querySelector(".score").textContent = score;
    // "−1" or "12" is set smaller in the same room, so the card's details keep theirs
    box.querySelector(".score").classList.toggle("long", score.length > 1);
    const h = (s.handicaps || {})[p];
    box.querySelector(".handicap").textContent = handicapWords(h);
    box.querySelector(".must-big").textContent =
      st.turn === p && st.must_place_big ? "must place the big skitt" : "";
    Skitter.track(box.querySelector(".track"), s, p);
    const rounds = box.querySelector(".rounds");
    if (st.rules.variant === "trio") {
      rounds.textContent = "Trio: first to " + st.rules.points_to_win_round;
    } else {
      const need = st.rules.rounds_to_win_game;
      const dots = [];
      for (let i = 0; i < need; i++) {
        dots.push(Common.h("span", { class: `round-dot ${i < st.round_wins[p] ? "won" : ""}` }));
      }
      rounds.replaceChildren("Rounds ", ...dots);
    }
  }
}

// The last step's effects in players' words (made by the server, see scorekeeper/words.py).
// Rule codes (R3, R16...) are badges on the referee page only (``badges``), never on the TV.
// After an undo the list says what was taken back, its lines struck through; after a late
// decision (a Hit on Red choice, a lifted blockade) the decided shot is still explained.
function renderEffects(list, s, badges) {
  const h = Common.h;
  const effects = (s.words && s.words.effects) || s.state.last_effects || [];
  const last = (s.log || [])[(s.log || []).length - 1];  // the step that made this state
  const line = (e, struck) => h("li", {}, badges ? h("span", { class: "reason" }, e.reason) : "",
    struck ? h("del", {}, e.text) : e.text);
  const whose = (entry) => entry.step.shot ? `${Skitter.nameOf(s, entry.step.shot.by)}'s shot`
    : entry.words || entry.text;
  const items = [];
  if (last && last.kind === "undo" && s.taken_back) {
    items.push(h("li", { class: "muted" }, `Taken back by the referee: ${whose(s.taken_back)}`));
    for (const e of s.taken_back.effects || []) items.push(line(e, true));
    list.replaceChildren(...items);
    return;
  }
  const decided = last && last.kind === "decide" ? s.decided_shot : null;
  if (decided) {
    // the shot's own lines the decision did not redo (a late Hit on Red choice redoes those)
    const redone = new Set(effects.map((e) => e.reason));
    items.push(h("li", { class: "muted" }, whose(decided),
      decided.source === "manual" ? " (entered by the referee)" : ""));
    for (const e of decided.effects || []) {
      if (!(redone.has("R4") && e.reason === "R4")) items.push(line(e));
    }
  } else if (last) {
    items.push(h("li", { class: "muted" }, whose(last),
      last.source === "manual" ? " (entered by the referee)" : "", effects.length ? "" : ":"));
    if (!effects.length) items.push(h("li", {}, "no points, no penalty"));
  } else {
    items.push(h("li", { class: "muted" },
      s.state.phase === "shootoff" ? "waiting for the shoot-off" : "no shot yet"));
  }
  for (const e of effects) items.push(line(e));
  list.replaceChildren(...items);
}

function boardOptions(s) {
  const st = s.state;
  return {
    counts: st.board, blocked: st.blocked, colors: st.rules.colors, names: s.names,
    big: st.big, differences: (s.tracker || {}).differences || {},
  };
}
