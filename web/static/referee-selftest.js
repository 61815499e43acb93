// The board self-test, a section of the referee page of its own: start it, follow which
// cells answered, skip a step, stop it, open the check sheet. The walk itself runs on the
// scorekeeper (web/table/selftest_run.py); this page shows it and sends the referee's taps,
// each carrying the walk (and a skip the step) the referee saw: a stale one gets 409, the
// page catches up and says what happened.

import { api, errorText } from "./api.js";
import { h, toast } from "./dom.js";
import { dateTime, nt, t } from "./words.js";

(() => {
  let view = null;
  let timer = null;
  let box = null;

  function build() {
    box = h("section", { class: "card", id: "selftest", "aria-labelledby": "selftest-title" },
      h("h2", { id: "selftest-title" }, t("Board self-test")),
      h("p", { class: "st-last", id: "st-last" }),
      h("p", { class: "needs-login" }, t("Running the self-test needs the referee PIN (log in above).")),
      h("div", { id: "st-walk", hidden: true },
        h("p", { class: "st-progress", id: "st-progress" }),
        h("p", { class: "st-instruction", id: "st-instruction", "aria-live": "polite" }),
        h("div", { class: "st-now", id: "st-now" })),
      // the step's own buttons right under its cells: a hand holding a skitt never scrolls
      // past the whole board (over a hundred cells) to skip it
      h("div", { class: "st-actions needs-referee" },
        h("button", { type: "button", id: "st-start", onclick: () => act("start", { run: view ? view.run : 0 }) },
          t("Start the self-test")),
        h("button", { type: "button", class: "secondary", id: "st-skip", hidden: true,
          onclick: () => act("skip", { run: view.run, step: view.walk.step.index }) },
          t("Skip this step")),
        h("button", { type: "button", class: "secondary", id: "st-stop", hidden: true,
          onclick: () => act("stop", { run: view.run }) }, t("Stop and keep the sheet"))),
      h("div", { id: "st-board", hidden: true },
        h("ul", { class: "st-steps", id: "st-steps" }),
        h("details", { class: "st-all", id: "st-all" },
          h("summary", { id: "st-all-title" }, t("Every cell of the board")),
          h("div", { class: "st-cells", id: "st-cells" }))));
    const sensors = document.getElementById("cells");
    const anchor = sensors && sensors.closest("section");
    if (anchor) anchor.after(box); else document.body.appendChild(box);
  }

  async function act(what, body) {
    const r = await api(`/api/referee/selftest/${what}`, body);
    if (r.ok) { show(r.data); return; }
    // started, stopped or moved on at another screen meanwhile: the page catches up and
    // says so (the 409's message, in the page's language)
    if (r.status === 409 && r.data && r.data.selftest) show(r.data.selftest);
    toast(r.status === 409 && r.data && r.data.message ? r.data.message : errorText(r));
  }

  function cellTile(n, c) {
    const cls = ["st-cell"];
    if (c.answered && c.passed) cls.push("answered");
    else if (c.result === "chatter" || c.result === "stuck active") cls.push("failed");
    else cls.push("waiting");
    if (c.active) cls.push("active");
    return h("div", { class: cls.join(" "), dataset: { cell: n, result: c.result },
      title: nt("{part}: {result}, {n} change", "{part}: {result}, {n} changes", c.changes,
        { part: c.part, result: c.said || c.result }) },
      h("strong", {}, t("cell {cell}", { cell: n })), h("span", {}, c.said || c.result));
  }

  function showLast(last, saved) {
    const p = document.getElementById("st-last");
    if (!last) { p.textContent = t("No self-test yet on this board."); p.className = "st-last"; return; }
    p.className = `st-last ${last.passed ? "passed" : "failed"}`;
    p.replaceChildren(t("Last self-test {date}: {summary}.", { date: dateTime(last.date),
      summary: last.summary }) + " ",
    h("a", { href: "/selftest/sheet", target: "_blank" }, t("Open the check sheet")));
    if (saved === false) {
      p.append(" ", h("strong", { id: "st-unsaved" }, t("The check sheet could not be saved " +
        "yet (the disk is full); it is kept and saved as soon as there is room.")));
    }
  }

  function show(v) {
    view = v;
    showLast(v.last, v.saved);
    const walk = v.walk;
    const running = Boolean(v.running && walk && walk.step);
    document.getElementById("st-walk").hidden = !running;
    document.getElementById("st-board").hidden = !running;
    document.getElementById("st-start").hidden = running;
    document.getElementById("st-skip").hidden = !running;
    document.getElementById("st-stop").hidden = !running;
    box.dataset.running = String(running);
    if (running) {
      const step = walk.step;
      box.dataset.step = String(step.index);
      document.getElementById("st-progress").textContent =
        t("Step {step} of {count}", { step: step.index + 1, count: walk.count });
      document.getElementById("st-instruction").textContent = step.instruction;
      document.getElementById("st-now").replaceChildren(
        ...step.cells.map((n) => cellTile(n, walk.cells[String(n)])));
      document.getElementById("st-steps").replaceChildren(...walk.steps.map((s, i) =>
        h("li", { class: `${s.done ? "done" : ""} ${i === step.index ? "now" : ""}` }, s.what)));
      const all = Object.entries(walk.cells);
      const answered = all.filter(([, c]) => c.answered && c.passed).length;
      document.getElementById("st-all-title").textContent =
        t("Every cell of the board: {answered} of {count} answered",
          { answered, count: all.length });
      document.getElementById("st-cells").replaceChildren(...all.map(([n, c]) => cellTile(n, c)));
    }
    clearTimeout(timer);
    timer = setTimeout(refresh, running ? 250 : 3000);
  }

  async function refresh() {
    const r = await api("/api/selftest");
    if (r.ok) show(r.data);
    else { clearTimeout(timer); timer = setTimeout(refresh, 3000); }
  }

  build();
  refresh();
})();
