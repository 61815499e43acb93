// The tablet's changes to the match: each one sent with the state its person saw, and a
// refusal or a change made meanwhile said in the section they acted in.

import { $, h, toast } from "./dom.js";
import { Skitter } from "./live.js";
import { Referee } from "./referee-login.js";
import { t } from "./words.js";

// The tablet speaks to the people at the table: the rule codes (R2, R16...) stay on the
// referee page. A refusal comes without them (the answer's `plain`); the board's message,
// the tracker's own sentence, has them taken out here.
export function plain(text) {
  return String(text).replace(/\s*\((?:R\d{1,2}(?:[,/ ]+)?)+\)/g, "").replace(/\s*\bR\d{1,2}\b:?/g, "");
}

// Every change carries the seq of the state its person saw when they decided: the state
// drawn when they tapped a one-tap button, when they armed Undo, when they began filling a
// form or when the confirmation they answer appeared; never the newest at send time. A
// change made meanwhile makes the server answer 409: nothing is applied, the section says
// what changed, and the page shows the match as it is (the 409 carries the state).
export async function send(path, body, how) {
  // Always ask the server: it alone decides who may change the match (401 otherwise).
  const r = await Skitter.api(path, { ...body, seq: how.seen.seq, boot: how.seen.boot });
  if (r.status === 401) Referee.check();
  if (r.status === 409) {
    if (how.where) explainStale($(how.where), r, how.lead || t("Not done"));
    return r;
  }
  if (!r.ok) { toast(plain(Skitter.errorText(r, true))); return r; }  // no rule codes
  if (how.where) hideStale($(how.where));
  toast(how.done || t("done"), true);
  return r;
}

// What a person saw: the seq of a state, and the boot (run) of the scorekeeper it came from.
export function seenOf(s) { return { seq: s.seq, boot: s.boot }; }
// The state drawn right now: what a one-tap button was decided on.
export const drawn = () => seenOf(Skitter.state);

// What changed meanwhile, in the section the person acted in (it stays until dismissed).
export function staleText(r, lead) {
  const what = (r.data && r.data.meanwhile) || [];
  const said = what.join("; ");
  return t("{lead}: the match changed meanwhile.", { lead }) +
    (said ? ` ${said[0].toUpperCase()}${said.slice(1)}.` : "") +
    " " + t("This page now shows the match as it is.");
}

export function explainStale(section, r, lead) {
  let box = section.querySelector(":scope > .conflict.stale");
  if (!box) {
    box = h("div", { class: "conflict stale", role: "alert" }, h("p"),
      h("button", { class: "secondary", type: "button",
        onclick: () => box.classList.add("hidden") }, t("Understood")));
    section.appendChild(box);
  }
  box.querySelector("p").textContent = staleText(r, lead);
  box.classList.remove("hidden");
}

export function hideStale(section) {
  const box = section && section.querySelector(":scope > .conflict.stale");
  if (box) box.classList.add("hidden");
}
