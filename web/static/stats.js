// /stats: every player's figures from /api/stats, a ratings chart drawn by uPlot (served
// from /static/vendor), and head to head between two players. Plain words, no JSON.
"use strict";

(() => {
  const COLOURS = ["#ffd43b", "#4dabf7", "#ff8787", "#69db7c", "#da77f2", "#ffa94d",
                   "#3bc9db", "#f783ac"];
  const $ = (id) => document.getElementById(id);
  const h = Common.h;

  function fixed(n, digits) { return n === null || n === undefined ? "not rated" : n.toFixed(digits); }
  function plural(n, one, many) { return `${n} ${n === 1 ? one : many}`; }

  function table(players) {
    const body = $("players-table").querySelector("tbody");
    if (!players.length) {
      body.replaceChildren(h("tr", {}, h("td", { colspan: 11 },
        "No finished matches between named players yet. Type the players' names when you " +
        "start a match.")));
      return;
    }
    body.replaceChildren(...players.map((p) => h("tr", {},
      h("td", { class: "name" }, p.name), h("td", {}, fixed(p.rating, 1)),
      h("td", {}, `${p.matches_won} of ${p.matches}`),
      h("td", {}, `${p.rounds_won} of ${p.rounds_played}`),
      h("td", {}, p.points_per_shot.toFixed(2)), h("td", {}, `${p.red_advance} / ${p.red_back}`),
      h("td", {}, p.penalties), h("td", {}, p.own_goals), h("td", {}, p.clearings),
      h("td", {}, p.chains), h("td", {}, p.shots_per_round.toFixed(1)))));
  }

  let plot = null;
  function chart(ratings) {
    const box = $("rating-chart");
    const rows = ratings.after_match;
    if (!rows.length || typeof uPlot === "undefined") {
      box.textContent = "The chart appears after the first finished match.";
      return;
    }
    const xs = rows.map((_, i) => i + 1);
    const data = [xs, ...ratings.names.map((_, j) => rows.map((r) => r[j]))];
    const series = [{ label: "Match" }, ...ratings.names.map((name, j) => ({
      label: name, stroke: COLOURS[j % COLOURS.length], width: 3, spanGaps: true,
      points: { size: 8 },
    }))];
    const axis = { stroke: "#9aa5b4", grid: { stroke: "#2c3440" }, ticks: { stroke: "#2c3440" } };
    const opts = {
      width: Math.max(280, box.clientWidth), height: window.innerWidth < 700 ? 220 : 300,
      series, scales: { x: { time: false } }, legend: { live: false },
      cursor: { show: false },
      axes: [{ ...axis, label: "after match", incrs: [1, 2, 5, 10, 20, 50] },
             { ...axis, label: "rating" }],
    };
    box.textContent = "";
    if (plot) plot.destroy();
    plot = new uPlot(opts, data, box);
  }

  function headToHead(players) {
    const a = $("h2h-a"), b = $("h2h-b");
    for (const select of [a, b]) {
      select.replaceChildren(...players.map((p) => h("option", {}, p.name)));
    }
    if (players.length > 1) b.selectedIndex = 1;
    const show = async () => {
      const out = $("h2h-result");
      if (players.length < 2) { out.textContent = "Two players are needed."; return; }
      if (a.value === b.value) { out.textContent = "Choose two different players."; return; }
      try {
        const met = await Common.data(`/api/stats/head-to-head?a=${encodeURIComponent(a.value)}` +
                                `&b=${encodeURIComponent(b.value)}`);
        out.textContent = met.matches === 0
          ? `${met.names[0]} and ${met.names[1]} have not played each other yet.`
          : `${met.names[0]} against ${met.names[1]}: ${plural(met.matches, "match", "matches")}, ` +
            `${met.names[0]} won ${met.wins[0]}, ${met.names[1]} won ${met.wins[1]}; ` +
            `rounds ${met.rounds[0]} to ${met.rounds[1]}.`;
      } catch (err) { out.textContent = `Head to head could not be read: ${err.message}`; }
    };
    a.onchange = show; b.onchange = show;
    show();
  }

  async function load() {
    try {
      const s = await Common.data("/api/stats");
      $("stats-summary").textContent = s.matches
        ? `${plural(s.matches, "finished match", "finished matches")} between ` +
          `${plural(s.players.length, "player", "players")}.`
        : "No finished matches between named players yet.";
      table(s.players);
      chart(s.ratings);
      headToHead(s.players);
      $("stats-problems").textContent = s.problems.join(" ");
      document.body.dataset.loaded = "yes";
    } catch (err) {
      $("stats-summary").textContent = `The statistics could not be read: ${err.message}`;
    }
  }
  let resizeTimer = null;
  window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(load, 300); });
  load();
})();
