// The TV scoreboard: everything from the live state, nothing to click.

import { boardOptions, drawBoard } from "./board-drawing.js";
import { startCaller } from "./caller.js";
import { fitHeight } from "./fit.js";
import { renderEffects } from "./last-shot.js";
import { Skitter } from "./live.js";
import { renderPlayers } from "./player-panel.js";
import { Review } from "./review.js";
import { nt, t } from "./words.js";

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
  const rules = st.rules;
  document.getElementById("round").textContent =
    rules.variant === "trio" ? t("Trio") : t("Round {n}", { n: st.round });
  document.getElementById("pot").textContent = t("Pot {n}", { n: st.pot });
  const info = [rules.variant === "trio" ? t("Trio") : t("classic")];
  if (rules.flipping) info.push(t("flipping"));
  info.push(nt("{n} point", "{n} points", rules.points_to_win_round));
  if (rules.variant === "classic") info.push(nt("{n} round", "{n} rounds", rules.rounds_to_win_game));
  document.getElementById("match-info").textContent = info.join(" · ");
  document.getElementById("turn").textContent = (s.words && s.words.turn) || "";
  renderMoment(s);
  // The hub offers this board its next tournament game: announced until it is started.
  const next = document.getElementById("next");
  next.textContent = s.offered ? t("Next: {game}", { game: s.offered.words }) : "";
  next.classList.toggle("hidden", !s.offered);
  Skitter.renderAlerts(document.getElementById("alerts"), s, ["shootoff"]);
  drawBoard(document.getElementById("board"), boardOptions(s));
  renderEffects(document.getElementById("effects"), s);
  // the last shot is read whole: its lines are made smaller rather than cut off below
  fitHeight(document.getElementById("lastshot"), document.getElementById("effects"));
  Review.mirror(s);
});
Skitter.api("/api/about").then((r) => {
  if (r.ok) document.getElementById("url").textContent = r.data.scoreboard;
});
Skitter.start();
startCaller("tv");
