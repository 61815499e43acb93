// The new-match form offers the names of players already known (from finished and started
// matches), and a name typed in another case becomes the known spelling, so one person
// keeps one history.
"use strict";

(() => {
  const form = document.getElementById("new-match");
  if (!form) return;
  const list = document.createElement("datalist");
  list.id = "known-players";
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
    try {
      const response = await fetch("/api/players", { credentials: "same-origin" });
      if (!response.ok) return;
      known = await response.json();
      list.replaceChildren(...known.map((name) => {
        const option = document.createElement("option");
        option.value = name;
        return option;
      }));
    } catch (err) { /* the form works without suggestions */ }
  }
  const details = document.getElementById("sec-new");
  if (details) details.addEventListener("toggle", load);
  load();
})();
