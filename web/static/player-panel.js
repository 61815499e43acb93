// The two player panels (name, handicap, whose turn, score, score track, rounds) of the
// scoreboard and the referee display: each page holds an empty <div class="player black"
// id="p-black"> per player, filled here, so the panel's markup is made in one place.

import { Skitter } from "./live.js";
import { h } from "./dom.js";
import { fitWords } from "./fit.js";
import { t } from "./words.js";

const PLAYERS = ["black", "white"];

function build(box, player) {
  box.replaceChildren(
    h("div", { class: "name" }, h("span", { class: "swatch" }), h("span", { class: "pname" })),
    h("div", { class: "handicap" }),
    h("span", { class: "turn-badge" }, t("to shoot")),
    h("div", { class: "must-big" }),
    h("div", { class: "score" }),
    h("div", { class: "track" }),
    h("div", { class: "rounds" }));
  box.dataset.built = player;
}

// The score track from −1 to the round's target, the player's score marked.
function track(container, s, player) {
  const target = s.state.rules.points_to_win_round;
  const score = s.state.score[player];
  const cells = [];
  for (let v = -1; v <= target; v++) {
    cells.push(h("span", { class: "track-cell" + (v === score ? " here" : "") +
      (v === target ? " goal" : "") }, v === -1 ? "−1" : String(v)));
  }
  container.replaceChildren(...cells);
}

export function renderPlayers(s) {
  const st = s.state;
  const words = s.words || {};
  for (const p of PLAYERS) {
    const box = document.getElementById(`p-${p}`);
    if (!box) continue;
    if (box.dataset.built !== p) build(box, p);
    box.querySelector(".pname").textContent = Skitter.nameOf(s, p);
    fitWords(box.querySelector(".name"));
    box.classList.toggle("due", st.turn === p);
    const n = st.score[p];
    const score = n < 0 ? `−${-n}` : String(n);
    box.querySelector(".score").textContent = score;
    // "−1" or "12" is set smaller in the same room, so the card's details keep theirs
    box.querySelector(".score").classList.toggle("long", score.length > 1);
    box.querySelector(".handicap").textContent = (words.handicaps || {})[p] || "";
    box.querySelector(".must-big").textContent =
      st.turn === p && st.must_place_big ? t("must place the big skitt") : "";
    track(box.querySelector(".track"), s, p);
    const rounds = box.querySelector(".rounds");
    if (st.rules.variant === "trio") {
      rounds.textContent = t("Trio: first to {n}", { n: st.rules.points_to_win_round });
    } else {
      const need = st.rules.rounds_to_win_game;
      const dots = [];
      for (let i = 0; i < need; i++) {
        dots.push(h("span", { class: `round-dot ${i < st.round_wins[p] ? "won" : ""}` }));
      }
      // the circles stay together on one line (under the word when both do not fit)
      rounds.replaceChildren(t("Rounds") + " ", h("span", { class: "round-dots" }, ...dots));
      fitWords(rounds);
    }
  }
}
