// The last shot's effects in players' words, as a list: the scoreboard's and the referee
// display's "Last shot".

import { h } from "./dom.js";
import { t } from "./words.js";

// The last step's effects in players' words (made by the server, see scorekeeper/words.py).
// Rule codes (R3, R16...) are badges on the referee page only (``badges``), never on the TV.
// After an undo the list says what was taken back, its lines struck through; after a late
// decision (a Hit on Red choice, a lifted blockade) the decided shot is still explained.
export function renderEffects(list, s, badges) {
  const effects = (s.words && s.words.effects) || s.state.last_effects || [];
  const last = (s.log || [])[(s.log || []).length - 1];  // the step that made this state
  const line = (e, struck) => h("li", {}, badges ? h("span", { class: "reason" }, e.reason) : "",
    struck ? h("del", {}, e.text) : e.text);
  const whose = (entry) => entry.heading;  // "Bo's shot", in the server's words
  const items = [];
  if (last && last.kind === "undo" && s.taken_back) {
    items.push(h("li", { class: "muted" }, t("Taken back by the referee: {what}", { what: whose(s.taken_back) })));
    for (const e of s.taken_back.effects || []) items.push(line(e, true));
    list.replaceChildren(...items);
    return;
  }
  const decided = last && last.kind === "decide" ? s.decided_shot : null;
  if (decided) {
    // the shot's own lines the decision did not redo (a late Hit on Red choice redoes those)
    const redone = new Set(effects.map((e) => e.reason));
    items.push(h("li", { class: "muted" }, whose(decided),
      decided.source === "manual" ? " " + t("(entered by the referee)") : ""));
    for (const e of decided.effects || []) {
      if (!(redone.has("R4") && e.reason === "R4")) items.push(line(e));
    }
  } else if (last) {
    items.push(h("li", { class: "muted" }, whose(last),
      last.source === "manual" ? " " + t("(entered by the referee)") : "",
      effects.length ? "" : ":"));
    if (!effects.length) items.push(h("li", {}, t("no points, no penalty")));
  } else {
    items.push(h("li", { class: "muted" },
      s.state.phase === "shootoff" ? t("waiting for the shoot-off") : t("no shot yet")));
  }
  for (const e of effects) items.push(line(e));
  list.replaceChildren(...items);
}
