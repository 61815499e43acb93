// The tablet's form controls: a −/+ stepper, a labelled slot and a select's options.

import { h } from "./dom.js";
import { t } from "./words.js";

// A −/+ stepper in `container`; returns an object with value get/set. `label` names it for a
// screen reader in the page's words ("Bo's score"), its buttons "…: one less"/"…: one more";
// `control.label = ...` names it again (when the players' names come or change).
export function stepper(container, min, max, value, label) {
  const out = h("output");
  const step = (by) => () => { control.value = control.value + by; if (control.onchange) control.onchange(); };
  const minus = h("button", { type: "button", class: "secondary", onclick: step(-1) }, "−");
  const plus = h("button", { type: "button", class: "secondary", onclick: step(1) }, "+");
  const control = {
    get value() { return Number(out.value); },
    set value(v) { out.value = String(Math.max(min, Math.min(max, v))); },
    set max(v) { max = v; control.value = control.value; },
    set label(text) {
      out.setAttribute("aria-label", text);
      minus.setAttribute("aria-label", t("{what}: one less", { what: text }));
      plus.setAttribute("aria-label", t("{what}: one more", { what: text }));
    },
    onchange: null,
  };
  container.classList.add("stepper");
  container.replaceChildren(minus, out, plus);
  control.value = value;
  if (label) control.label = label;
  return control;
}

// A label saying `text` in `parent`, and the slot in it for a control.
export function labelled(parent, text) {
  const span = h("span");
  parent.appendChild(h("label", {}, text, span));
  return span;
}

// The options [[value, text], ...] of a select; `keep`: the chosen value stays if offered.
export function options(select, items, keep) {
  const old = select.value;
  select.replaceChildren(...items.map(([value, text]) => h("option", { value }, text)));
  if (keep && items.some(([v]) => v === old)) select.value = old;
}
