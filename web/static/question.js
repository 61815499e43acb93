// The referee's question about a field as full as its sensors can count (issue 24): one
// sentence in players' words and one button per count. A tap answers it with the `seq` of
// the state the question was shown in, so a question the match has moved past gets a 409.

import { h } from "./dom.js";
import { t } from "./words.js";

export const Question = (() => {
  const shown = new WeakMap();  // section → what it shows, so a re-render keeps its buttons

  // section: an element holding .question-text, .question-detail and .question-choices;
  // send(path, body, how): the page's way of making a change; how.seen is the state the
  // question was shown in ({seq, boot}), how.done the words for success.
  function render(section, s, send) {
    const q = s.words && s.words.question;
    section.classList.toggle("hidden", !q);
    if (!q) { shown.delete(section); return; }
    const key = `${s.boot}/${s.match_id}/${s.version}/${q.kind || ""}/${q.field}`;
    if (shown.get(section) === key) return;  // the same question: never redrawn under a finger
    shown.set(section, key);
    const seen = { seq: s.seq, boot: s.boot };
    const heading = section.querySelector("h2");  // the page's own, unless the question has one
    if (heading.dataset.usual === undefined) heading.dataset.usual = heading.textContent;
    heading.textContent = q.heading || heading.dataset.usual;
    section.querySelector(".question-text").textContent = q.text;
    section.querySelector(".question-detail").textContent = q.detail;
    const buttons = q.choices.map((c) => h("button", {
      type: "button", class: "choice", dataset: c.by ? { by: c.by } : { skitts: c.skitts },
      "aria-label": `${c.label} (${q.text})`,
      // a choice may name its own change (whose shot a landing was, issue 36)
      onclick: () => send(c.path || "/api/referee/board/answer",
        c.body || { field: q.field, skitts: c.skitts },
        { done: t("recorded: {what}", { what: c.label }), seen, where: section.id,
          lead: t("Not recorded") }),
    }, c.label));
    section.querySelector(".question-choices").replaceChildren(...buttons);
  }

  return { render };
})();
