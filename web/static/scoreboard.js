// The TV scoreboard: everything from the live state, nothing to click.
"use strict";

function renderMoment(s) {
  const box = document.getElementById("moment");
  const m = s.words && s.words.moment;
  box.classList.toggle("hidden", !m);
  document.body.classList.toggle("game-over", Boolean(m && m.kind === "game"));
  if (!m) return;
  box.dataset.kind = m.kind;
  box.querySelector(".title").textContent = m.title;
  box.querySelector(".detail").textContent = m.detail;
}

Skitter.onState((s) => {
  const st = s.state;
  renderPlayers(s);
  document.getElementById("round").textContent =
    st.rules.variant === "trio" ? "Trio" : `Round ${st.round}`;
  document.getElementById("pot").textContent = `Pot ${st.pot}`;
  document.getElementById("match-info").textContent =
    `${st.rules.variant}${st.rules.flipping ? " · flipping" : ""} · ${st.rules.points_to_win_round} ${st.rules.points_to_win_round === 1 ? "point" : "points"}` +
    (st.rules.variant === "classic"
      ? ` · ${st.rules.rounds_to_win_game} ${st.rules.rounds_to_win_game === 1 ? "round" : "rounds"}` : "");
  document.getElementById("turn").textContent = (s.words && s.words.turn) || "";
  renderMoment(s);
  Skitter.renderAlerts(document.getElementById("alerts"), s);
  Skitter.drawBoard(document.getElementById("board"), boardOptions(s));
  renderEffects(document.getElementById("effects"), s);
  Review.mirror(s);
});
Skitter.api("/api/about").then((r) => {
  if (r.ok) document.getElementById("url").textContent = r.data.scoreboard;
});
Skitter.start();
