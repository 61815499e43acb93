// The last self-test's check sheet, to print: pass or fail per cell, button and expander.

import { data } from "./api.js";
import { h } from "./dom.js";
import { dateTime, t } from "./words.js";

(async () => {
  document.getElementById("print").addEventListener("click", () => window.print());
  let sheet;
  try { sheet = await data("/api/selftest"); } catch (e) {
    document.getElementById("verdict").textContent = e.message;
    return;
  }
  const last = sheet.last;
  if (!last) {
    document.getElementById("verdict").textContent = t("No self-test yet on this board.");
    return;
  }
  document.getElementById("title").textContent = t("Board self-test: {board}", { board: last.board_id });
  document.getElementById("meta").textContent =
    t("{date} · board profile {profile} · sensors: {source}",
      { date: dateTime(last.date), profile: last.profile, source: last.source });
  document.getElementById("verdict").textContent = last.verdict;  // worded by the server
  document.body.dataset.passed = String(last.passed);
  // a cell of a step the referee skipped was not checked: neither a pass nor a fault
  const mark = (r) => (r.passed ? ["pass", t("pass")] : r.code === "skipped" ? ["skip", "–"]
    : ["fail", t("FAIL")]);
  document.getElementById("rows").replaceChildren(...last.rows.map((r) => h("tr", {},
    h("td", { class: mark(r)[0] }, mark(r)[1]),
    h("td", {}, r.item), h("td", {}, r.part), h("td", {}, r.where), h("td", {}, r.result))));
})();
