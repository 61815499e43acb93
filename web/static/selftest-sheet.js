// The last self-test's check sheet, to print: pass or fail per cell, button and expander.
"use strict";

(async () => {
  const h = Common.h;
  document.getElementById("print").addEventListener("click", () => window.print());
  let data;
  try { data = await Common.data("/api/selftest"); } catch (e) {
    document.getElementById("verdict").textContent = e.message;
    return;
  }
  const last = data.last;
  if (!last) {
    document.getElementById("verdict").textContent = "No self-test yet on this board.";
    return;
  }
  document.getElementById("title").textContent = `Board self-test: ${last.board_id}`;
  document.getElementById("meta").textContent =
    `${last.date} · board profile ${last.profile} · sensors: ${last.source}`;
  document.getElementById("verdict").textContent = last.passed ? "PASSED" :
    `FAILED (${last.summary.replace(/^failed: /, "")})`;
  document.body.dataset.passed = String(last.passed);
  document.getElementById("rows").replaceChildren(...last.rows.map((r) => h("tr", {},
    h("td", { class: r.passed ? "pass" : "fail" }, r.passed ? "pass" : "FAIL"),
    h("td", {}, r.item), h("td", {}, r.part), h("td", {}, r.where), h("td", {}, r.result))));
})();
