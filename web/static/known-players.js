// The new-match form offers the names of players already known (from finished and started
// matches), and a name typed in another case becomes the known spelling, so one person
// keeps one history.

import { api } from "./api.js";
import { h } from "./dom.js";

(() => {
  const form = document.getElementById("new-match");
  if (!form) return;
  const list = h("datalist", { id: "known-players" });
  document.body.appendChild(list);
  let known = [];
  const inputs = ["black", "white"].map((n) => form.querySelector(`input[name=${n}]`)).filter(Boolean);
  for (const input of inputs) {
    input.setAttribute("list", list.id);
    input.addEventListener("change", () => {
      const typed = input.value.trim().replace(/\s+/g, " ").toLowerCase();
      const same = known.find((name) => name.toLowerCase() === typed);
      if (same) input.value = same;
    });
  }
  async function load() {
    const result = await api("/api/players");
    if (!result.ok || !Array.isArray(result.data)) return;  // the form works without suggestions
    known = result.data;
    list.replaceChildren(...known.map((name) => h("option", { value: name })));
  }
  const details = document.getElementById("sec-new");
  if (details) details.addEventListener("toggle", load);
  load();
})();
