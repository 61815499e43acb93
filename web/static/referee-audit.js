// The sensor audit, a section of the referee page of its own: over the newest matches, the
// cells that have not changed for several matches, the cells flagged or muted, and how often
// sensed shots on each field had to be amended. Read on load and on request (it reads the
// match log, so it is not refreshed with every state).
"use strict";

const SensorAudit = (() => {
  const h = Common.h;
  const box = h("section", { class: "card", id: "audit", "aria-labelledby": "audit-title" },
    h("h2", { id: "audit-title" }, "Sensor audit"),
    h("p", { id: "audit-summary" }, "Reading the match log…"),
    h("div", { id: "audit-body" }),
    h("button", { type: "button", class: "secondary", id: "audit-refresh",
      onclick: () => load() }, "Read again"));
  const after = document.getElementById("selftest") ||
    (document.getElementById("cells") && document.getElementById("cells").closest("section"));
  if (after) after.after(box); else document.body.appendChild(box);

  function cellWords(c) { return `cell ${c.cell} (${c.part})`; }
  // "cells 0, 1 (the first player's red field); cell 36 (…)": the cells by the part
  function grouped(cells) {
    const parts = new Map();
    for (const c of cells) parts.set(c.part, [...(parts.get(c.part) || []), c.cell]);
    return [...parts].map(([part, n]) =>
      `cell${n.length > 1 ? "s" : ""} ${n.join(", ")} (${part})`).join("; ");
  }

  function show(a) {
    const summary = document.getElementById("audit-summary");
    const body = document.getElementById("audit-body");
    if (!a.matches) {
      summary.textContent = "No match played on this board yet.";
      body.replaceChildren();
      return;
    }
    summary.textContent = `Over the last ${a.matches} matches · I2C errors: ${a.i2c_errors}`;
    const silent = a.cells.filter((c) => a.silent.includes(c.cell));
    const flagged = a.cells.filter((c) => Object.keys(c.flagged).length || c.muted_in);
    const parts = [];
    parts.push(h("p", { id: "audit-silent" }, silent.length
      ? `Not changed in the last ${a.silent_after} matches or more: ` +
        grouped(silent)
      : `Every cell changed within the last ${a.silent_after} matches.`));
    parts.push(h("p", { id: "audit-flagged" }, flagged.length
      ? "Flagged or muted: " + flagged.map((c) => `${cellWords(c)}: ` +
        [...Object.entries(c.flagged).map(([k, n]) => `${k} in ${n}`),
         c.muted_in ? `muted in ${c.muted_in}` : ""].filter(Boolean).join(", ")).join("; ")
      : "No cell was flagged or muted."));
    parts.push(h("table", { class: "log", id: "audit-fields" },
      h("thead", {}, h("tr", {}, h("th", {}, "Field"), h("th", {}, "Sensed shots"),
        h("th", {}, "Amended"), h("th", {}, "Rate"))),
      h("tbody", {}, a.fields.map((f) => h("tr", {}, h("td", {}, f.part),
        h("td", {}, String(f.shots)), h("td", {}, String(f.amended)),
        h("td", {}, `${Math.round(f.rate * 100)}%`))))));
    parts.push(h("details", {}, h("summary", {}, "Every cell"),
      h("div", { class: "log-wrap" }, h("table", { class: "log" },
        h("thead", {}, h("tr", {}, h("th", {}, "Cell"), h("th", {}, "Changes"),
          h("th", {}, "Matches"), h("th", {}, "Silent for"), h("th", {}, "Part"))),
        h("tbody", {}, a.cells.map((c) => h("tr", {}, h("td", {}, String(c.cell)),
          h("td", {}, String(c.changes)), h("td", {}, String(c.matches_changed)),
          h("td", {}, String(c.silent_for)), h("td", {}, c.part))))))));
    body.replaceChildren(...parts);
  }

  async function load() {
    const r = await Common.api("/api/sensors/audit");
    if (r.ok) show(r.data);
    else document.getElementById("audit-summary").textContent = Common.errorText(r);
  }
  load();
  return { load };
})();
