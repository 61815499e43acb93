// The bracket on its own page, for paper or a wall: read again every 15 s while open.

import { api, errorText } from "/shared/api.js";
import { h } from "/shared/dom.js";
import { t } from "/shared/words.js";
import { drawBracket } from "./bracket.js";

async function load() {
  const r = await api("/api/bracket");
  const root = document.getElementById("bracket");
  if (!r.ok) { root.replaceChildren(h("p", {}, errorText(r))); return; }
  drawBracket(root, r.data);
  document.getElementById("when").textContent = t("As of {when}", { when: new Date().toLocaleString(document.documentElement.lang || []) });
  document.body.dataset.loaded = "yes";
}
document.getElementById("print").addEventListener("click", () => window.print());
load();
setInterval(load, 15000);
