// /stats: every player's figures from /api/stats, a ratings chart drawn by uPlot (served
// from /static/vendor), and head to head between two players. Plain words, no JSON.

import { data } from "./api.js";
import { h, $ } from "./dom.js";
import { num, t, nt } from "./words.js";

(() => {
  const COLOURS = ["#ffd43b", "#4dabf7", "#ff8787", "#69db7c", "#da77f2", "#ffa94d",
                   "#3bc9db", "#f783ac"];

  // a figure as the page's language writes it ("3,4" in German)
  function fixed(n, digits) {
    return n === null || n === undefined ? t("not rated") : num(n, digits);
  }

  function table(players) {
    const body = $("players-table").querySelector("tbody");
    if (!players.length) {
      body.replaceChildren(h("tr", {}, h("td", { colspan: 11 },
        t("No finished matches between named players yet. Type the players' names " +
          "when you start a match."))));
      return;
    }
    body.replaceChildren(...players.map((p) => h("tr", {},
      h("td", { class: "name" }, p.name), h("td", {}, fixed(p.rating, 1)),
      h("td", {}, t("{n} of {total}", { n: p.matches_won, total: p.matches })),
      h("td", {}, t("{n} of {total}", { n: p.rounds_won, total: p.rounds_played })),
      h("td", {}, fixed(p.points_per_shot, 2)), h("td", {}, `${p.red_advance} / ${p.red_back}`),
      h("td", {}, p.penalties), h("td", {}, p.own_goals), h("td", {}, p.clearings),
      h("td", {}, p.chains), h("td", {}, fixed(p.shots_per_round, 1)))));
  }

  let plot = null;
  function chart(ratings) {
    const box = $("rating-chart");
    const rows = ratings.after_match;
    if (!rows.length || typeof uPlot === "undefined") {
      box.textContent = t("The chart appears after the first finished match.");
      return;
    }
    const xs = rows.map((_, i) => i + 1);
    const columns = [xs, ...ratings.names.map((_, j) => rows.map((r) => r[j]))];
    const series = [{ label: t("Match") }, ...ratings.names.map((name, j) => ({
      label: name, stroke: COLOURS[j % COLOURS.length], width: 3, spanGaps: true,
      points: { size: 8 },
    }))];
    const axis = { stroke: "#9aa5b4", grid: { stroke: "#2c3440" }, ticks: { stroke: "#2c3440" } };
    const opts = {
      width: Math.max(280, box.clientWidth), height: window.innerWidth < 700 ? 220 : 300,
      series, scales: { x: { time: false } }, legend: { live: false },
      cursor: { show: false },
      axes: [{ ...axis, label: t("after match"), incrs: [1, 2, 5, 10, 20, 50] },
             { ...axis, label: t("rating") }],
    };
    box.textContent = "";
    if (plot) plot.destroy();
    plot = new uPlot(opts, columns, box);
  }

  // Head to head: a reload keeps the two players chosen (never overwritten under the
  // person's hands), and only the answer to the newest choice is shown: an older question
  // answered late must not replace it.
  let asked = 0;
  let waiting = 0;  // questions not answered yet (body data-h2h-waiting: the page at rest)
  function headToHead(players) {
    const a = $("h2h-a"), b = $("h2h-b");
    const chosen = [a.value, b.value];
    const names = players.map((p) => p.name);
    for (const select of [a, b]) {
      select.replaceChildren(...names.map((name) => h("option", {}, name)));
    }
    if (names.includes(chosen[0]) && names.includes(chosen[1])) {
      a.value = chosen[0];
      b.value = chosen[1];
    } else if (players.length > 1) {
      b.selectedIndex = 1;
    }
    const show = async () => {
      const out = $("h2h-result");
      const mine = ++asked;
      if (players.length < 2) { out.textContent = t("Two players are needed."); return; }
      if (a.value === b.value) {
        out.textContent = t("Choose two different players.");
        return;
      }
      let words;
      document.body.dataset.h2hWaiting = String(++waiting);
      try {
        const met = await data(`/api/stats/head-to-head?a=${encodeURIComponent(a.value)}` +
                                `&b=${encodeURIComponent(b.value)}`);
        const matches = nt("{n} match", "{n} matches", met.matches);
        words = met.matches === 0
          ? t("{a} and {b} have not played each other yet.",
            { a: met.names[0], b: met.names[1] })
          : t("{a} against {b}: {matches}, {a} won {wa}, {b} won {wb}; rounds {ra} to " +
            "{rb}.", { a: met.names[0], b: met.names[1], wa: met.wins[0], wb: met.wins[1],
            ra: met.rounds[0], rb: met.rounds[1], matches });
      } catch (err) {
        words = t("Head to head could not be read: {why}", { why: err.message });
      }
      if (mine === asked) out.textContent = words;
      document.body.dataset.h2hWaiting = String(--waiting);
    };
    a.onchange = show; b.onchange = show;
    show();
  }

  let ratings = null;  // as last read: a resize redraws the chart from them
  async function load() {
    try {
      const s = await data("/api/stats");
      // (each count on its own: Babel extracts no message nested in another's call)
      const finished = nt("{n} finished match", "{n} finished matches", s.matches);
      const players = nt("{n} player", "{n} players", s.players.length);
      $("stats-summary").textContent = s.matches
        ? t("{matches} between {players}.", { matches: finished, players })
        : t("No finished matches between named players yet.");
      table(s.players);
      ratings = s.ratings;
      chart(ratings);
      headToHead(s.players);
      $("stats-problems").textContent = s.problems.join(" ");
      document.body.dataset.loaded = "yes";
    } catch (err) {
      $("stats-summary").textContent = t("The statistics could not be read: {why}",
        { why: err.message });
    }
  }
  let resizeTimer = null;
  window.addEventListener("resize", () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => {
      if (!ratings) return;
      chart(ratings);
      document.body.dataset.loaded = "yes";  // at rest again, drawn for this width
    }, 300);
  });
  load();
})();
