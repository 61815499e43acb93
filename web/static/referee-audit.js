// The sensor audit, a section of the referee page of its own: over the newest matches, the
// cells that have not changed for several matches, the cells flagged or muted, and how often
// sensed shots on each field had to be amended. Read on load and on request (it reads the
// match log, so it is not refreshed with every state).

import { api, errorText } from "./api.js";
import "./referee-selftest.js";  // the audit's section comes after the self-test's
import { h } from "./dom.js";
import { t, nt } from "./words.js";

(() => {
  const box = h("section", { class: "card", id: "audit", "aria-labelledby": "audit-title" },
    h("h2", { id: "audit-title" }, t("Sensor audit")),
    h("p", { id: "audit-summary" }, t("Reading the match log…")),
    h("div", { id: "audit-body" }),
    h("button", { type: "button", class: "secondary", id: "audit-refresh",
      onclick: () => load() }, t("Read again")));
  const after = document.getElementById("selftest") ||
    (document.getElementById("cells") && document.getElementById("cells").closest("section"));
  if (after) after.after(box); else document.body.appendChild(box);

  function cellWords(c) { return t("cell {cell} ({part})", { cell: c.cell, part: c.part }); }

  // "cell 7 (red): stuck in 2, muted in 1": what was flagged on a cell, and in how many matches.
  function cellFlags(c) {
    const flags = Object.entries(c.flagged).map(([k, n]) => t("{flag} in {n}", { flag: k, n }));
    if (c.muted_in) flags.push(t("muted in {n}", { n: c.muted_in }));
    return `${cellWords(c)}: ${flags.join(", ")}`;
  }

  function show(a) {
    const summary = document.getElementById("audit-summary");
    const body = document.getElementById("audit-body");
    if (!a.matches) {
      summary.textContent = t("No match played on this board yet.");
      body.replaceChildren();
      return;
    }
    summary.textContent = nt("Over the last {n} match · I2C errors: {errors}",
      "Over the last {n} matches · I2C errors: {errors}", a.matches, { errors: a.i2c_errors });
    const flagged = a.cells.filter((c) => Object.keys(c.flagged).length || c.muted_in);
    const parts = [];
    // the cells by the part, in the server's words (the same line as `skitter sensors --audit`)
    parts.push(h("p", { id: "audit-silent" }, a.silent.length
      ? nt("Not changed in the last {n} match or more: {cells}",
        "Not changed in the last {n} matches or more: {cells}", a.silent_after, { cells: a.silent_words })
      : nt("Every cell changed within the last {n} match.",
        "Every cell changed within the last {n} matches.", a.silent_after)));
    parts.push(h("p", { id: "audit-flagged" }, flagged.length
      ? t("Flagged or muted: {cells}", { cells: flagged.map(cellFlags).join("; ") })
      : t("No cell was flagged or muted.")));
    parts.push(h("table", { class: "log", id: "audit-fields" },
      h("thead", {}, h("tr", {}, h("th", {}, t("Field")), h("th", {}, t("Sensed shots")),
        h("th", {}, t("Amended")), h("th", {}, t("Rate")))),
      h("tbody", {}, a.fields.map((f) => h("tr", {}, h("td", {}, f.part),
        h("td", {}, String(f.shots)), h("td", {}, String(f.amended)),
        h("td", {}, `${Math.round(f.rate * 100)}%`))))));
    parts.push(h("details", {}, h("summary", {}, t("Every cell")),
      h("div", { class: "log-wrap" }, h("table", { class: "log" },
        h("thead", {}, h("tr", {}, h("th", {}, t("Cell")), h("th", {}, t("Changes")),
          h("th", {}, t("Matches")), h("th", {}, t("Silent for")), h("th", {}, t("Part")))),
        h("tbody", {}, a.cells.map((c) => h("tr", {}, h("td", {}, String(c.cell)),
          h("td", {}, String(c.changes)), h("td", {}, String(c.matches_changed)),
          h("td", {}, String(c.silent_for)), h("td", {}, c.part))))))));
    body.replaceChildren(...parts);
  }

  async function load() {
    const r = await api("/api/sensors/audit");
    if (r.ok) show(r.data);
    else document.getElementById("audit-summary").textContent = errorText(r);
  }
  load();
})();
