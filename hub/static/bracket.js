// The knockout bracket, drawn from the hub's `bracket` (GET /api/bracket): one column per
// stage, each game a box with both players and their seeds, the winner marked, and the
// games still to come saying who will play them. Shared by the hub page and /bracket.

import { h } from "/shared/dom.js";
import { t } from "/shared/words.js";

// The hub's words in the page's language: their catalog entry, else the English.
function words(english, entry) {
  return entry ? t(entry.id, entry.args) : english;
}

function side(name, seed, won) {
  return h("li", { class: won ? "won" : "" },
    h("span", { class: "seed" }, seed ? `${seed}.` : ""),
    h("span", { class: "who" }, name || t("to be decided")),
    won ? h("span", { class: "mark" }, " " + t("wins")) : "");
}

function game(g) {
  const title = g.third_place ? t("Third place") : t("Table {table}", { table: g.table });
  const where = g.board ? " · " + t("board {board}", { board: g.board }) : "";
  const box = h("div", { class: "game" + (g.third_place ? " third" : ""),
    dataset: { round: g.round, table: g.table } },
  h("p", { class: "where" }, title + where));
  if (!g.first) {
    box.append(h("p", { class: "waits" }, t("Played by {who}.", { who: words(g.waits_for, g.waits_for_said) })));
    return box;
  }
  box.append(h("ol", {},
    side(g.first, g.first_seed, g.winner && g.winner === g.first),
    side(g.second, g.second_seed, g.winner && g.winner === g.second)));
  box.append(h("p", { class: "score" }, g.score ? t("rounds {score}", { score: g.score })
    : t("not played yet")));
  return box;
}

// Replace what `root` holds with the bracket `b` (null: nothing yet).
export function drawBracket(root, b) {
  root.replaceChildren();
  if (!b) {
    root.append(h("p", { class: "empty" }, t("The knockout has not started.")));
    return;
  }
  root.append(h("p", { class: "champion" }, b.champion ? t("Winner: {who}", { who: b.champion })
    : b.third_place
      ? t("Top {size} by standing, seeded 1 v {size}, with a third-place game.", { size: b.size })
      : t("Top {size} by standing, seeded 1 v {size}.", { size: b.size })));
  const stages = h("div", { class: "stages" });
  for (const s of b.stages) {
    stages.append(h("section", { class: "stage" }, h("h3", {}, words(s.name, s.name_said)),
      s.games.map(game)));
  }
  root.append(stages);
  root.append(h("p", { class: "rule" }, t("A knockout game needs a winner: a game is " +
    "won on rounds and a drawn round is played again. A game cut short without a winner is " +
    "played again; the next round waits for it.")));
}
