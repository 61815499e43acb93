// The tournament players' ratings, read from /api/ratings now and every few seconds (a
// finished game changes them). Kept apart from hub.js: it only fills the Ratings table.
"use strict";

(() => {
  const body = document.querySelector("#ratings tbody");
  if (!body) return;
  function cell(row, text) {
    const td = document.createElement("td");
    td.textContent = text;
    row.appendChild(td);
  }
  async function load() {
    try {
      const response = await fetch("/api/ratings", { credentials: "same-origin", cache: "no-store" });
      if (!response.ok) return;
      const rows = await response.json();
      body.replaceChildren();
      if (!rows.length) {
        const tr = document.createElement("tr");
        cell(tr, "No players registered yet.");
        tr.firstChild.colSpan = 3;
        body.appendChild(tr);
      }
      for (const r of rows) {
        const tr = document.createElement("tr");
        cell(tr, r.player);
        cell(tr, r.rating === null ? "not rated yet" : r.rating.toFixed(1));
        cell(tr, String(r.games));
        body.appendChild(tr);
      }
      document.body.dataset.ratings = "loaded";
    } catch (err) { /* the next reading tries again */ }
  }
  load();
  setInterval(load, 5000);
})();
