// The tournament players' ratings, read from /api/ratings now and every few seconds (a
// finished game changes them). Kept apart from hub.js: it only fills the Ratings table.

import { api } from "/shared/api.js";
import { h } from "/shared/dom.js";
import { t } from "/shared/words.js";

export function followRatings() {
  const body = document.querySelector("#ratings tbody");
  if (!body) return;
  async function load() {
    const result = await api("/api/ratings");
    if (!result.ok || !Array.isArray(result.data)) return;  // the next reading tries again
    const rows = result.data;
    body.replaceChildren(...(rows.length ? rows.map((r) => h("tr", {},
      h("td", {}, r.player),
      h("td", {}, r.rating === null ? t("not rated yet")
        : r.rating.toLocaleString(document.documentElement.lang || [], { minimumFractionDigits: 1, maximumFractionDigits: 1 })),
      h("td", {}, String(r.games)))) : [h("tr", {}, h("td", { colspan: 3 }, t("No players registered yet.")))]));
    document.body.dataset.ratings = "loaded";
  }
  load();
  setInterval(load, 5000);
}
