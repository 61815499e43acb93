// The player panels and the latest effects, shared by the scoreboard and the referee display.
"use strict";

const LINE_WORDS = { semicircle: "semicircle line", beginner: "beginner line" };

function renderPlayers(s) {
  const st = s.state;
  for (const p of ["black", "white"]) {
    const box = document.getElementById(`p-${p}`);
    if (!box) continue;
    box.querySelector(".pname").textContent = Skitter.nameOf(s, p);
    box.classList.toggle("due", st.turn === p);
    box.querySelector(".score").textContent = Skitter.signed(st.score[p]).replace("+", "");
    const h = (s.handicaps || {})[p];
    box.querySelector(".handicap").textContent = h ? `${LINE_WORDS[h.line] || h.line} · ${h.hand}` : "";
    box.querySelector(".must-big").textContent =
      st.turn === p && st.must_place_big ? "must place the big skitt" : "";
    Skitter.track(box.querySelector(".track"), s, p);
    const rounds = box.querySelector(".rounds");
    if (st.rules.variant === "trio") {
      rounds.textContent = "Trio: first to " + st.rules.points_to_win_round;
    } else {
      const need = st.rules.rounds_to_win_game;
      let html = "Rounds ";
      for (let i = 0; i < need; i++) {
        html += `<span class="round-dot ${i < st.round_wins[p] ? "won" : ""}"></span>`;
      }
      rounds.innerHTML = html;
    }
  }
}

function renderEffects(list, s) {
  const effects = s.state.last_effects || [];
  const last = (s.log || [])[(s.log || []).length - 1];  // the step that made this state
  let head = "";
  if (last) {
    const by = last.step.shot ? Skitter.nameOf(s, last.step.shot.by) + "'s shot" : last.text;
    head = `<li class="muted">${Skitter.esc(by)}${last.source === "manual" ? " (entered by the referee)" : ""}` +
      `${effects.length ? "" : ": no points, no penalty"}</li>`;
  }
  if (!effects.length) {
    list.innerHTML = head || `<li class="muted">${Skitter.esc(s.state.phase === "shootoff"
      ? "waiting for the shoot-off" : "no shot yet")}</li>`;
    return;
  }
  list.innerHTML = head + effects.map((e) =>
    `<li><span class="reason">${Skitter.esc(e.reason)}</span>${Skitter.esc(e.text)}</li>`).join("");
}

function boardOptions(s) {
  const st = s.state;
  return {
    counts: st.board, blocked: st.blocked, colors: st.rules.colors, names: s.names,
    big: st.big, differences: (s.tracker || {}).differences || {},
  };
}
