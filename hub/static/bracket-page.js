"use strict";
// The bracket on its own page, for paper or a wall: read again every 15 s while open.
async function load() {
  const r = await Common.api("/api/bracket");
  const root = document.getElementById("bracket");
  if (!r.ok) { root.replaceChildren(Common.h("p", {}, Common.errorText(r))); return; }
  Bracket.draw(root, r.data);
  document.getElementById("when").textContent = Common.t("As of {when}", { when: new Date().toLocaleString(document.documentElement.lang || []) });
  document.body.dataset.loaded = "yes";
}
document.getElementById("print").addEventListener("click", () => window.print());
load();
setInterval(load, 15000);
