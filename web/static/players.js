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
    box.querySelector(".score").textContent = Skitter.signed(st.score[p]).replace("+", "");
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

// The last step's effects in players' words (made by the server, see scorekeeper/words.py),
// each with its ruling as a small badge.
function renderEffects(list, s) {
  const h = Common.h;
  const effects = (s.words && s.words.effects) || s.state.last_effects || [];
  const last = (s.log || [])[(s.log || []).length - 1];  // the step that made this state
  const items = [];
  if (last) {
    const by = last.step.shot ? Skitter.nameOf(s, last.step.shot.by) + "'s shot" : last.words || last.text;
    items.push(h("li", { class: "muted" }, by,
      last.source === "manual" ? " (entered by the referee)" : "",
      effects.length ? "" : ": no points, no penalty"));
  } else {
    items.push(h("li", { class: "muted" },
      s.state.phase === "shootoff" ? "waiting for the shoot-off" : "no shot yet"));
  }
  for (const e of effects) {
    items.push(h("li", {}, h("span", { class: "reason" }, e.reason), e.text));
  }
  list.replaceChildren(...items);
}

function boardOptions(s) {
  const st = s.state;
  return {
    counts: st.board, blocked: st.blocked, colors: st.rules.colors, names: s.names,
    big: st.big, differences: (s.tracker || {}).differences || {},
  };
}
